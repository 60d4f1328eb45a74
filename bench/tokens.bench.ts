// The tokenizer suite: the counters a chat can count with, on o200k_base: ctxloom's
// WebAssembly BPE (the default wherever WebAssembly runs), gpt-tokenizer (the fallback where
// it cannot), js-tiktoken, and the 4-characters estimate. Time and heap to load (each in a
// fresh child process, since a loaded encoding stays loaded), counting speed on real texts,
// and that the exact counts agree (the estimate's mean error is reported); then a row per
// script (bench/tokens-scripts.ts): time per chat message in twelve scripts and languages.
// Every time is this process's CPU time: the machine is shared, and wall time counts the
// others' work too.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Bench } from "tinybench";
import { heuristicCounter, loadEncoding, type TokenCounter } from "../src/tokens/index.js";
import { tiktokenCounter } from "../test/tokens/tiktoken.js";
import { forgetBpePieces, wasmBpeCounter } from "../src/tokens/wasm-bpe.js";
import { corpus } from "./corpus.js";
import { TS_LOADER, fmt, ratio, type SuiteOptions } from "./report.js";
import { cpuNow, scriptRows } from "./tokens-scripts.js";

const BACKENDS = ["wasm", "gpt-tokenizer", "js-tiktoken", "heuristic"] as const;
type Backend = (typeof BACKENDS)[number];
const LABELS: Record<Backend, string> = {
  wasm: "ctxloom's WebAssembly BPE (default)",
  "gpt-tokenizer": "gpt-tokenizer (fallback without WebAssembly)",
  "js-tiktoken": "js-tiktoken",
  heuristic: "4-characters estimate",
};

function counterOf(backend: Backend): Promise<TokenCounter> {
  switch (backend) {
    case "wasm":
      return wasmBpeCounter("o200k_base");
    case "gpt-tokenizer":
      return loadEncoding("o200k_base");
    case "js-tiktoken":
      return tiktokenCounter("o200k_base");
    case "heuristic":
      return Promise.resolve(heuristicCounter());
  }
}

/** Load cost of one backend, measured in this process (run as a child: `tokens.bench.ts load <backend>`). */
async function measureLoad(backend: Backend): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = cpuNow();
  const counter = await counterOf(backend);
  counter.count("warm up");
  const ms = cpuNow() - t0;
  gc();
  console.log(JSON.stringify({ ms, heapMB: Math.max(0, (process.memoryUsage().heapUsed - heap0) / 2 ** 20) }));
}

export async function runTokensSuite(options: SuiteOptions = { smoke: false }) {
  const load = (backend: Backend) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ["--expose-gc", "--import", TS_LOADER, fileURLToPath(import.meta.url), "load", backend],
        { encoding: "utf8" },
      ).trim(),
    ) as { ms: number; heapMB: number };
  const loads = Object.fromEntries(BACKENDS.map((b) => [b, load(b)])) as Record<
    Backend,
    { ms: number; heapMB: number }
  >;

  const texts = options.smoke ? corpus().slice(0, 50) : corpus();
  const bytes = texts.reduce((n, t) => n + new TextEncoder().encode(t).length, 0);
  const counters = Object.fromEntries(
    await Promise.all(BACKENDS.map(async (b) => [b, await counterOf(b)] as const)),
  ) as Record<Backend, TokenCounter>;
  const exact = texts.map((t) => counters["gpt-tokenizer"].count(t));
  const mismatches = (b: Backend) => texts.filter((t, i) => counters[b].count(t) !== exact[i]).length;
  const differ = { wasm: mismatches("wasm"), "js-tiktoken": mismatches("js-tiktoken") };
  const estimateError =
    texts.reduce((sum, t, i) => sum + Math.abs(counters.heuristic.count(t) - exact[i]!) / Math.max(1, exact[i]!), 0) /
    texts.length;
  const bench = new Bench({
    now: cpuNow,
    ...(options.smoke
      ? { time: 20, warmupTime: 5, iterations: 2, warmupIterations: 1 }
      : { time: 3000, warmupTime: 300 }),
  });
  // gpt-tokenizer caches merges per word, the WebAssembly BPE merged pieces: both emptied every
  // round, as ctxloom counts each message once.
  const { clearMergeCache } = await import("gpt-tokenizer/encoding/o200k_base");
  const forget: Partial<Record<Backend, () => void>> = { "gpt-tokenizer": clearMergeCache, wasm: forgetBpePieces };
  for (const b of BACKENDS) {
    bench.add(b, () => {
      forget[b]?.();
      texts.forEach((t) => counters[b].count(t));
    });
  }
  await bench.run();
  const p50 = (name: Backend): number => {
    const r = bench.tasks.find((t) => t.name === name)!.result;
    if (r.state !== "completed") throw new Error(`task ${name}: ${r.state}`);
    return r.latency.p50;
  };
  const mbps = (b: Backend) => bytes / 2 ** 20 / (p50(b) / 1000);
  const agreement = (b: Backend) =>
    b === "gpt-tokenizer"
      ? "the reference"
      : b === "heuristic"
        ? `mean error ${(estimateError * 100).toFixed(0)}%`
        : `identical on ${texts.length - differ[b]} of ${texts.length}`;
  const rows = BACKENDS.map((b) => ({
    backend: LABELS[b],
    "load ms": loads[b].ms.toFixed(0),
    "heap MB": loads[b].heapMB.toFixed(1),
    [`count ${texts.length} texts, ms`]: p50(b).toFixed(1),
    "MB of text / s": mbps(b).toFixed(1),
  }));
  const speed = p50("gpt-tokenizer") / p50("wasm");
  const scripts = await scriptRows(
    {
      wasm: counters.wasm,
      gpt: counters["gpt-tokenizer"],
      tiktoken: counters["js-tiktoken"],
      clearGpt: clearMergeCache,
      clearWasm: forgetBpePieces,
    },
    options.smoke,
  );
  const markdown = [
    `#### Counters, o200k_base (${texts.length} OASST texts, ${(bytes / 1024).toFixed(0)} KiB of UTF-8; CPU time)`,
    "",
    "| backend | load ms | heap MB | count ms (p50) | MB of text / s |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${Object.values(r).join(" | ")} |`),
    "",
    `Exact counts differ from gpt-tokenizer's on ${differ.wasm} (WebAssembly BPE) and ${differ["js-tiktoken"]} (js-tiktoken) of ${texts.length} texts; ` +
      `the estimate is off by ${(estimateError * 100).toFixed(0)}% on average. The WebAssembly BPE counts ${speed.toFixed(1)}x faster than gpt-tokenizer.`,
    "",
    scripts.markdown,
  ].join("\n");
  return {
    name: "tokens",
    tables: [
      { title: "counters, o200k_base", rows },
      { title: scripts.title, rows: scripts.rows },
    ],
    goals: [
      {
        goal: "WebAssembly BPE, gpt-tokenizer and js-tiktoken counts identical",
        target: "0 differences",
        measured: `${differ.wasm + differ["js-tiktoken"]}`,
        pass: differ.wasm + differ["js-tiktoken"] === 0,
      },
      ...scripts.goals,
    ],
    markdown,
    readme: [
      {
        title: `Counters, o200k_base, on ${texts.length} OASST texts (load in a fresh process; CPU time)`,
        columns: ["backend", "load", "JS heap", "MB of text / s", "agreement"],
        rows: BACKENDS.map((b) => [
          LABELS[b],
          `${fmt(loads[b].ms)} ms`,
          `${fmt(loads[b].heapMB)} MB`,
          fmt(mbps(b)),
          agreement(b),
        ]),
        note: `The WebAssembly BPE counts ${ratio(speed)} faster than gpt-tokenizer and ${ratio(p50("js-tiktoken") / p50("wasm"))} faster than js-tiktoken; its tables live in linear memory, not on the JS heap.`,
      },
      scripts.readme,
    ],
  };
}

if (process.argv[2] === "load") await measureLoad(process.argv[3] as Backend);
