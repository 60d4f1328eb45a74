// The similarity suite (issue 10): top-10 search over n x 384 embeddings (n = 1k, 10k, 100k)
// on the WASM core (f32x4 SIMD, the whole scan in one call) against its plain TypeScript twin,
// against a SIMD pass that only reads the same bytes in the same order (the memory floor), and
// the int8 scan (blocks of four rows, i16 dot products) +
// exact re-rank against the f32 scan, with its recall@10 against exact search on random
// vectors and on hashing-embedder vectors of conversation texts. Goals are printed as
// PASS / MISS, never asserted.
//
//   node --import ./bench/ts-loader.mjs bench/similarity.bench.ts [--smoke]

import os from "node:os";
import { Bench, type Task } from "tinybench";
import { JsEngine, WasmEngine, embeddedModule } from "../src/engine/index.js";
import {
  type JsSimilarity,
  type WasmSimilarity,
  similarityFor,
  type SimilarityIndex,
} from "../src/engine/similarity.js";
import { embedTexts } from "../src/recall/embedder.js";
import { hashingEmbedder } from "../src/recall/hashing.js";
import { oasstExchanges, rng, syntheticExchanges } from "../test/recall/eval-set.js";

const SMOKE = process.argv.includes("--smoke") || process.env.CTXLOOM_BENCH_SMOKE === "1";
const DIM = 384;
const K = 10;
const SIZES = SMOKE ? [1_000] : [1_000, 10_000, 100_000];
const QUERIES = SMOKE ? 4 : 20;
const ROUNDS = SMOKE ? 1 : 3;
const CANDIDATES = [40, 100, 400];

function gaussianRows(seed: number, rows: number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(rows * DIM);
  for (let i = 0; i < out.length; i += 2) {
    const u = Math.max(r(), 1e-12);
    const v = r();
    const m = Math.sqrt(-2 * Math.log(u));
    out[i] = m * Math.cos(2 * Math.PI * v);
    out[i + 1] = m * Math.sin(2 * Math.PI * v);
  }
  return out;
}

function stats(task: Task): { p50: number; min: number } {
  const r = task.result;
  if (r.state !== "completed" && r.state !== "aborted-with-statistics")
    throw new Error(`task ${task.name}: ${r.state}`);
  return { p50: r.latency.p50, min: r.latency.min };
}

/** Fastest single runs (ms), by task: on a machine shared with other work, the least disturbed estimate of a scan bound by memory. */
const fastest = new Map<string, number>();

/** Runs the tasks in ROUNDS fresh tinybench runs and keeps each task's lowest median (ms): the least disturbed round on a shared machine. */
async function measure(tasks: [string, () => void][], time: number): Promise<Map<string, number>> {
  const best = new Map<string, number>();
  fastest.clear();
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time, warmup: true, warmupTime: Math.min(200, time), iterations: 5 });
    for (const [name, fn] of tasks) bench.add(name, fn);
    await bench.run();
    for (const task of bench.tasks) {
      const { p50, min } = stats(task);
      best.set(task.name, Math.min(best.get(task.name) ?? Infinity, p50));
      fastest.set(task.name, Math.min(fastest.get(task.name) ?? Infinity, min));
    }
  }
  return best;
}

/** Mean share of the exact top-10 keys that the int8 search returns. */
function recallAt10(sim: SimilarityIndex, x: number, queries: Float32Array, candidates: number): number {
  let found = 0;
  for (let q = 0; q < QUERIES; q++) {
    const query = queries.subarray(q * DIM, (q + 1) * DIM);
    const exact = new Set(sim.search(x, query, K, 0, -Infinity).keys);
    for (const key of sim.search(x, query, K, candidates, -Infinity).keys) if (exact.has(key)) found++;
  }
  return found / (QUERIES * K);
}

interface Goal {
  goal: string;
  target: string;
  measured: string;
  pass: boolean;
}

export interface SimilarityReport {
  name: string;
  tables: { title: string; rows: Record<string, string | number>[] }[];
  goals: Goal[];
  markdown: string;
}

export async function runSimilaritySuite(): Promise<SimilarityReport> {
  const wasm = similarityFor(await WasmEngine.create(await embeddedModule())) as WasmSimilarity;
  const js = similarityFor(new JsEngine()) as JsSimilarity;
  const queries = gaussianRows(99, QUERIES);
  const speed: Record<string, string | number>[] = [];
  const quality: Record<string, string | number>[] = [];
  let at100k: Map<string, number> | undefined;
  let fastest100k = new Map<string, number>();
  let recall100 = 0;

  for (const n of SIZES) {
    process.stderr.write(`similarity: ${n.toLocaleString("en")} x ${DIM}\n`);
    const rows = gaussianRows(n, n);
    const keys = Int32Array.from({ length: n }, (_, i) => i);
    const xw = wasm.createIndex(DIM, true);
    const xj = js.createIndex(DIM, true);
    wasm.addRows(xw, rows, keys);
    js.addRows(xj, rows, keys);
    let q = 0;
    const next = () => queries.subarray((q = (q + 1) % QUERIES) * DIM, (q + 1) * DIM);
    const tasks: [string, () => void][] = [
      ["wasm f32 SIMD", () => void wasm.search(xw, next(), K, 0, -Infinity)],
      ["wasm read pass", () => void wasm.readPass(xw)],
      ["wasm int8 + re-rank (100)", () => void wasm.search(xw, next(), K, 100, -Infinity)],
      ["ts f32", () => void js.search(xj, next(), K, 0, -Infinity)],
      ["ts int8 + re-rank (100)", () => void js.search(xj, next(), K, 100, -Infinity)],
    ];
    const t = await measure(tasks, SMOKE ? 50 : n >= 100_000 ? 1500 : 400);
    const ms = (name: string) => t.get(name)!;
    speed.push({
      rows: n.toLocaleString("en"),
      "wasm f32 SIMD (ms)": +ms("wasm f32 SIMD").toFixed(3),
      "read pass (ms)": +ms("wasm read pass").toFixed(3),
      "wasm int8+re-rank (ms)": +ms("wasm int8 + re-rank (100)").toFixed(3),
      "ts f32 (ms)": +ms("ts f32").toFixed(3),
      "ts int8+re-rank (ms)": +ms("ts int8 + re-rank (100)").toFixed(3),
      "ts / wasm f32": +(ms("ts f32") / ms("wasm f32 SIMD")).toFixed(1),
      "f32 / read": +(ms("wasm f32 SIMD") / ms("wasm read pass")).toFixed(2),
      "f32 / int8": +(ms("wasm f32 SIMD") / ms("wasm int8 + re-rank (100)")).toFixed(1),
    });
    if (n === 100_000) {
      const f = (name: string) => fastest.get(name)!;
      speed.push({
        rows: "100,000 (fastest run)",
        "wasm f32 SIMD (ms)": +f("wasm f32 SIMD").toFixed(3),
        "read pass (ms)": +f("wasm read pass").toFixed(3),
        "wasm int8+re-rank (ms)": +f("wasm int8 + re-rank (100)").toFixed(3),
        "ts f32 (ms)": +f("ts f32").toFixed(3),
        "ts int8+re-rank (ms)": +f("ts int8 + re-rank (100)").toFixed(3),
        "ts / wasm f32": +(f("ts f32") / f("wasm f32 SIMD")).toFixed(1),
        "f32 / read": +(f("wasm f32 SIMD") / f("wasm read pass")).toFixed(2),
        "f32 / int8": +(f("wasm f32 SIMD") / f("wasm int8 + re-rank (100)")).toFixed(1),
      });
    }
    const row: Record<string, string | number> = { data: "gaussian", rows: n.toLocaleString("en") };
    for (const c of CANDIDATES) row[`recall@10, ${c} candidates`] = +recallAt10(wasm, xw, queries, c).toFixed(4);
    quality.push(row);
    // The goals are judged at 100k; a smoke run judges its largest size (named in the goals).
    if (n === SIZES[SIZES.length - 1]) {
      at100k = t;
      fastest100k = new Map(fastest);
      recall100 = row["recall@10, 100 candidates"] as number;
    }
    wasm.dropIndex(xw);
    js.dropIndex(xj);
  }

  // The same on what recall really stores: hashing-embedder vectors of conversation texts.
  const textRows = SMOKE ? 2_000 : 20_000;
  const pairs = oasstExchanges() ?? syntheticExchanges(2_000);
  const texts = Array.from({ length: textRows }, (_, i) => {
    const [u, a] = pairs[i % pairs.length]!;
    return `${i % 2 ? a : u} ${syntheticExchanges(1, i)[0]![0]}`; // a real text plus a varied sentence, so rows repeat no text
  });
  const embedder = hashingEmbedder({ dimension: DIM });
  const vectors = await embedTexts(embedder, texts);
  const xt = wasm.createIndex(DIM, true);
  wasm.addRows(
    xt,
    vectors,
    Int32Array.from({ length: textRows }, (_, i) => i),
  );
  const textQueries = await embedTexts(
    embedder,
    Array.from({ length: QUERIES }, (_, i) => pairs[(i * 7919) % pairs.length]![0]),
  );
  const row: Record<string, string | number> = {
    data: `hashing embedder, ${oasstExchanges() ? "OASST" : "synthetic"} texts`,
    rows: textRows.toLocaleString("en"),
  };
  for (const c of CANDIDATES) row[`recall@10, ${c} candidates`] = +recallAt10(wasm, xt, textQueries, c).toFixed(4);
  quality.push(row);

  const goals: Goal[] = [];
  const over = `${(SIZES[SIZES.length - 1]! / 1000).toFixed(0)}k`;
  if (at100k) {
    const f32 = at100k.get("wasm f32 SIMD")!;
    const fast = (a: string, b: string) => (fastest100k.get(a)! / fastest100k.get(b)!).toFixed(2);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    goals.push(
      {
        goal: `top-10 over ${over} x 384: WASM SIMD vs plain TS`,
        target: ">= 8x",
        measured: `${ratio(at100k.get("ts f32")!, f32)} (fastest runs: ${fast("ts f32", "wasm f32 SIMD")}x)`,
        pass: at100k.get("ts f32")! / f32 >= 8,
      },
      {
        goal: "WASM SIMD scan vs a SIMD pass that only reads the bytes (in the scan's order)",
        target: "<= 1.3x",
        measured: `${ratio(f32, at100k.get("wasm read pass")!)} (fastest runs: ${fast("wasm f32 SIMD", "wasm read pass")}x)`,
        pass: f32 / at100k.get("wasm read pass")! <= 1.3,
      },
      {
        goal: "int8 + re-rank (100 candidates) vs f32 SIMD",
        target: ">= 3x",
        measured: `${ratio(f32, at100k.get("wasm int8 + re-rank (100)")!)} (fastest runs: ${fast("wasm f32 SIMD", "wasm int8 + re-rank (100)")}x)`,
        pass: f32 / at100k.get("wasm int8 + re-rank (100)")! >= 3,
      },
      {
        goal: "int8 + re-rank recall@10 vs exact (gaussian, 100 candidates)",
        target: ">= 0.99",
        measured: recall100.toFixed(4),
        pass: recall100 >= 0.99,
      },
    );
  }
  const machine = `${os.cpus()[0]?.model ?? "cpu"} (${os.cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const table = (rows: Record<string, string | number>[]) => {
    const keys = Object.keys(rows[0]!);
    return [
      `| ${keys.join(" | ")} |`,
      `| ${keys.map(() => "---").join(" | ")} |`,
      ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`),
    ].join("\n");
  };
  const markdown = [
    `Top-${K} similarity search over n x ${DIM} f32 embeddings, median ms per query (lowest of ${ROUNDS} rounds), ${machine}${SMOKE ? " (smoke sizes)" : ""}.`,
    "",
    table(speed),
    "",
    "int8 scan + exact re-rank: recall@10 against exact search.",
    "",
    table(quality),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  return {
    name: "similarity",
    tables: [
      { title: "top-10 search, ms per query", rows: speed },
      { title: "int8 + re-rank recall@10", rows: quality },
    ],
    goals,
    markdown,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runSimilaritySuite();
  for (const t of report.tables) {
    console.log(`\n${t.title}`);
    console.table(t.rows);
  }
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  if (!SMOKE) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(new URL("./results/similarity.md", import.meta.url), report.markdown + "\n");
  }
}
