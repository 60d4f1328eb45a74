// The tokenizer suite (issue 3): gpt-tokenizer (ctxloom's default exact counter) against
// js-tiktoken on o200k_base: time and heap to load (each in a fresh child process, since a
// loaded encoding stays loaded), counting speed on real texts, and that the counts agree.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Bench } from "tinybench";
import { loadEncoding, tiktokenCounter } from "../src/tokens/index.js";
import { corpus } from "./corpus.js";
import { fmt, ratio, type SuiteOptions } from "./report.js";


/** Load cost of one backend, measured in this process (run as a child: `tokens.bench.ts load <backend>`). */
async function measureLoad(backend: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const counter = backend === "gpt-tokenizer" ? await loadEncoding("o200k_base") : await tiktokenCounter("o200k_base");
  counter.count("warm up");
  const ms = performance.now() - t0;
  gc();
  console.log(JSON.stringify({ ms, heapMB: (process.memoryUsage().heapUsed - heap0) / 2 ** 20 }));
}

export async function runTokensSuite(options: SuiteOptions = { smoke: false }) {
  const load = (backend: string) =>
    JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "load", backend], { encoding: "utf8" }).trim(),
    ) as { ms: number; heapMB: number };
  const loads = { "gpt-tokenizer": load("gpt-tokenizer"), "js-tiktoken": load("js-tiktoken") };

  const texts = options.smoke ? corpus().slice(0, 50) : corpus();
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const gpt = await loadEncoding("o200k_base");
  const tik = await tiktokenCounter("o200k_base");
  const mismatches = texts.filter((t) => gpt.count(t) !== tik.count(t)).length;
  const bench = new Bench(options.smoke ? { time: 20, warmupTime: 5, iterations: 2 } : { time: 3000, warmupTime: 300 });
  // gpt-tokenizer caches merges per word: cleared every round, as ctxloom counts each message once.
  const { clearMergeCache } = await import("gpt-tokenizer/encoding/o200k_base");
  bench.add("gpt-tokenizer", () => {
    clearMergeCache();
    texts.forEach((t) => gpt.count(t));
  });
  bench.add("js-tiktoken", () => texts.forEach((t) => tik.count(t)));
  await bench.run();
  const p50 = (name: string): number => {
    const r = bench.tasks.find((t) => t.name === name)!.result;
    if (r.state !== "completed") throw new Error(`task ${name}: ${r.state}`);
    return r.latency.p50;
  };
  const rows = (["gpt-tokenizer", "js-tiktoken"] as const).map((b) => ({
    backend: b,
    "load ms": loads[b].ms.toFixed(0),
    "heap MB": loads[b].heapMB.toFixed(1),
    [`count ${texts.length} texts, ms`]: p50(b).toFixed(1),
    "MB of text / s": (chars / 2 ** 20 / (p50(b) / 1000)).toFixed(1),
  }));
  const speed = p50("js-tiktoken") / p50("gpt-tokenizer");
  const markdown = [
    `#### Exact counters, o200k_base (${texts.length} OASST texts, ${(chars / 1024).toFixed(0)} KiB)`,
    "",
    "| backend | load ms | heap MB | count ms (p50) | MB of text / s |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${Object.values(r).join(" | ")} |`),
    "",
    `Counts differ on ${mismatches} of ${texts.length} texts; gpt-tokenizer counts ${speed.toFixed(1)}x faster.`,
  ].join("\n");
  return {
    name: "tokens",
    tables: [{ title: "exact counters, o200k_base", rows }],
    goals: [{ goal: "gpt-tokenizer and js-tiktoken counts identical", target: "0 differences", measured: `${mismatches}`, pass: mismatches === 0 }],
    markdown,
    readme: [{
      title: `Exact counters, o200k_base, on ${texts.length} OASST texts (load in a fresh process)`,
      columns: ["backend", "load", "heap", "count all texts", "agreement"],
      rows: [
        ["gpt-tokenizer (ctxloom's default)", `${fmt(loads["gpt-tokenizer"].ms)} ms`, `${fmt(loads["gpt-tokenizer"].heapMB)} MB`, `${fmt(p50("gpt-tokenizer"))} ms`, `identical on ${texts.length - mismatches} of ${texts.length}`],
        ["js-tiktoken", `${fmt(loads["js-tiktoken"].ms)} ms`, `${fmt(loads["js-tiktoken"].heapMB)} MB`, `${fmt(p50("js-tiktoken"))} ms`, ""],
      ],
      note: `gpt-tokenizer counts ${ratio(speed)} faster than js-tiktoken.`,
    }],
  };
}

if (process.argv[2] === "load") await measureLoad(process.argv[3]!);
