// The arena suite (issue 2, "First figures"): the WASM engine, the JS engine (object graph) and
// a flat typed-array arena in plain TS (bench/flat-arena.ts), side by side in one run, on
//   (a) engine-level append while building a 1M-message history,
//   (b) the window walk of 40 at histories of 1k, 100k and 1M,
//   (c) bytes of metadata per message at 1M,
//   (d) tail latency of a request-like loop with 5M messages resident (one child process per engine).
// Each timed function is written once per engine on purpose: a call site shared by three
// engine classes would be polymorphic and tax all of them. Nothing here asserts on timings.

import { execFileSync } from "node:child_process";
import { getHeapStatistics } from "node:v8";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bench, type FnOptions, type Task } from "tinybench";
import { JsEngine, WasmEngine, embeddedModule } from "../src/engine/index.js";
import { FlatEngine } from "./flat-arena.js";
import {
  TS_LOADER,
  count,
  fmt,
  gc,
  machine,
  type Goal,
  type SuiteOptions,
  type SuiteReport as Report,
} from "./report.js";
import type { TailResult } from "./tail-latency.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");

/** Sizes of a full run; bench:smoke runs the same code at SMOKE's. */
const FULL = {
  APPEND_HISTORY: 1_000_000, // a tree is refilled from empty up to this size
  APPEND_BATCH: 100_000, // appends per timed iteration: large enough that most samples include the GC work appends cause
  APPEND_ITERATIONS: 30, // batches per round: 3M appends, three 1M chats built one after the other
  APPEND_WARMUP: 10,
  WALK_SIZES: [1_000, 10_000, 100_000, 1_000_000],
  WALKS: 1_000, // walks per timed iteration
  MEMORY_N: 1_000_000,
  TAIL: { chats: 50, perChat: 100_000, iterations: 100_000, runs: 3 },
  /** Every tinybench section runs this many rounds (engines interleaved). */
  ROUNDS: 5,
  WALK_TIME: 250,
  WALK_WARMUP: 100,
};
const SMOKE: typeof FULL = {
  APPEND_HISTORY: 10_000,
  APPEND_BATCH: 1_000,
  APPEND_ITERATIONS: 3,
  APPEND_WARMUP: 1,
  WALK_SIZES: [1_000, 10_000],
  WALKS: 10,
  MEMORY_N: 10_000,
  TAIL: { chats: 5, perChat: 1_000, iterations: 2_000, runs: 1 },
  ROUNDS: 1,
  WALK_TIME: 5,
  WALK_WARMUP: 2,
};
let C = FULL;
const WINDOW = 40;

/** The raw exports of the core, to time WASM without the TypeScript wrapper (diagnostics). */
interface RawCore {
  createTree(): number;
  dropTree(tree: number): void;
  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number;
  reserveOut(n: number): number;
  walkInto(tree: number, head: number, max: number, out: number): number;
}

interface Builder {
  createTree(): number;
  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number;
}

/** A linear chain with a regenerate (a sibling of the previous head) every 64 messages; returns the head. */
function buildHistory(e: Builder, tree: number, n: number): number {
  let head = -1;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const parent = (i & 63) === 63 ? prev : head;
    prev = parent;
    head = e.append(tree, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
  }
  return head;
}

// ---------------------------------------------------------------- (a) append

interface ChainState {
  tree: number;
  count: number;
  head: number;
  prev: number;
}

function refill(state: ChainState, create: () => number, drop: (tree: number) => void): void {
  if (state.count + C.APPEND_BATCH <= C.APPEND_HISTORY) return;
  drop(state.tree);
  state.tree = create();
  state.count = 0;
  state.head = -1;
  state.prev = -1;
}

function appendBatchWasm(e: WasmEngine, s: ChainState): void {
  refill(
    s,
    () => e.createTree(),
    (t) => e.dropTree(t),
  );
  let head = s.head;
  let prev = s.prev;
  const tree = s.tree;
  for (let i = s.count, end = s.count + C.APPEND_BATCH; i < end; i++) {
    const parent = (i & 63) === 63 ? prev : head;
    prev = parent;
    head = e.append(tree, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
  }
  s.count += C.APPEND_BATCH;
  s.head = head;
  s.prev = prev;
}

function appendBatchRaw(x: RawCore, s: ChainState): void {
  refill(
    s,
    () => x.createTree(),
    (t) => x.dropTree(t),
  );
  const append = x.append; // one load per batch: every instance's exports object has its own shape
  let head = s.head;
  let prev = s.prev;
  const tree = s.tree;
  for (let i = s.count, end = s.count + C.APPEND_BATCH; i < end; i++) {
    const parent = (i & 63) === 63 ? prev : head;
    prev = parent;
    head = append(tree, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
  }
  s.count += C.APPEND_BATCH;
  s.head = head;
  s.prev = prev;
}

function appendBatchFlat(e: FlatEngine, s: ChainState): void {
  refill(
    s,
    () => e.createTree(),
    (t) => e.dropTree(t),
  );
  let head = s.head;
  let prev = s.prev;
  const tree = s.tree;
  for (let i = s.count, end = s.count + C.APPEND_BATCH; i < end; i++) {
    const parent = (i & 63) === 63 ? prev : head;
    prev = parent;
    head = e.append(tree, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
  }
  s.count += C.APPEND_BATCH;
  s.head = head;
  s.prev = prev;
}

function appendBatchJs(e: JsEngine, s: ChainState): void {
  refill(
    s,
    () => e.createTree(),
    (t) => e.dropTree(t),
  );
  let head = s.head;
  let prev = s.prev;
  const tree = s.tree;
  for (let i = s.count, end = s.count + C.APPEND_BATCH; i < end; i++) {
    const parent = (i & 63) === 63 ? prev : head;
    prev = parent;
    head = e.append(tree, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
  }
  s.count += C.APPEND_BATCH;
  s.head = head;
  s.prev = prev;
}

// ---------------------------------------------------------------- (b) walk

/** C.WALKS walks of WINDOW, from heads[k & mask]; returns a checksum so nothing is optimized away. */
function walkLoopWasm(e: WasmEngine, tree: number, heads: Int32Array): number {
  const mask = heads.length - 1;
  let sum = 0;
  for (let k = 0; k < C.WALKS; k++) {
    const n = e.walk(tree, heads[k & mask]!, WINDOW);
    sum += e.ids[0]! + n;
  }
  return sum;
}

function walkLoopRaw(x: RawCore, tree: number, heads: Int32Array, out: number): number {
  const mask = heads.length - 1;
  const walkInto = x.walkInto;
  let sum = 0;
  for (let k = 0; k < C.WALKS; k++) sum += walkInto(tree, heads[k & mask]!, WINDOW, out);
  return sum;
}

function walkLoopFlat(e: FlatEngine, tree: number, heads: Int32Array): number {
  const mask = heads.length - 1;
  let sum = 0;
  for (let k = 0; k < C.WALKS; k++) {
    const n = e.walk(tree, heads[k & mask]!, WINDOW);
    sum += e.ids[0]! + n;
  }
  return sum;
}

function walkLoopJs(e: JsEngine, tree: number, heads: Int32Array): number {
  const mask = heads.length - 1;
  let sum = 0;
  for (let k = 0; k < C.WALKS; k++) {
    const n = e.walk(tree, heads[k & mask]!, WINDOW);
    sum += e.ids[0]! + n;
  }
  return sum;
}

/** 1024 heads spread pseudo-randomly over the history (ids >= WINDOW), as many chats' windows would be. */
function spreadHeads(n: number): Int32Array {
  const heads = new Int32Array(1024);
  let x = 0x2545f491;
  for (let i = 0; i < heads.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    heads[i] = WINDOW + ((x >>> 0) % (n - WINDOW));
  }
  return heads;
}

// ---------------------------------------------------------------- results

export type EngineName = "wasm" | "flat" | "js";
/** "plain": plain arrays per chat, no library; "none": the tail loop without any engine call, the machine's own noise floor. */
export type TailKind = EngineName | "plain" | "none";

export interface ArenaResults {
  machine: { cpu: string; cores: number; node: string; date: string; commit: string };
  append: Record<EngineName | "wasmRaw", { medianNs: number; meanNs: number; runsNs: number[] }>;
  walk: Record<number, Record<EngineName | "wasmRaw", { headNs: number; spreadNs: number }>>;
  memory: {
    wasmGrowth: number; // memoryBytes() growth / n
    wasmHeap: number; // the JS heap the wrapper keeps per message (used_heap_size growth / n, after gc)
    wasmAfterChurn: number; // the same after that tree is dropped and another of n built
    flat: number;
    js: number; // used_heap_size growth / n, after gc
  };
  tail: Record<TailKind, TailResult>;
}

export interface SuiteReport extends Report {
  results: ArenaResults;
}

function stats(task: Task): { p50: number; mean: number } {
  const r = task.result;
  if (r.state !== "completed" && r.state !== "aborted-with-statistics") {
    throw new Error(`benchmark task ${task.name} did not complete (${r.state})`);
  }
  return { p50: r.latency.p50, mean: r.latency.mean };
}

/**
 * Runs `tasks` in C.ROUNDS fresh tinybench runs (all tasks in each, so engines interleave over
 * time) and keeps, per task, the lowest median and the lowest mean of any round, in ms per
 * iteration: on a shared 2-core machine a round can be disturbed by other processes, and the
 * least disturbed round is the best estimate of each engine's own cost.
 */
async function runRounds(
  tasks: [string, () => void, FnOptions?][],
  options: { time: number; warmupTime: number; iterations?: number; warmupIterations?: number },
): Promise<Map<string, RoundStats>> {
  const best = new Map<string, RoundStats>();
  for (let round = 0; round < C.ROUNDS; round++) {
    const bench = new Bench({ iterations: 10, ...options, warmup: true });
    for (const [name, fn, fnOptions] of tasks) bench.add(name, fn, fnOptions);
    await bench.run();
    for (const task of bench.tasks) {
      const s = stats(task);
      const b = best.get(task.name);
      best.set(
        task.name,
        b
          ? {
              p50: Math.min(b.p50, s.p50),
              mean: Math.min(b.mean, s.mean),
              roundP50: [...b.roundP50, s.p50],
              roundMean: [...b.roundMean, s.mean],
            }
          : { ...s, roundP50: [s.p50], roundMean: [s.mean] },
      );
    }
  }
  return best;
}

interface RoundStats {
  /** The lowest median and mean of any round. */
  p50: number;
  mean: number;
  /** Each round's median and mean, in order. */
  roundP50: number[];
  roundMean: number[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const log = (line: string): void => void process.stderr.write(`  ${line}\n`);

// ---------------------------------------------------------------- the suite

export async function runArenaSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  C = options.smoke ? SMOKE : FULL;
  const module = await embeddedModule();
  const wasm = (): Promise<WasmEngine> => WasmEngine.create(module);
  const raw = async (): Promise<RawCore> => (await WebAssembly.instantiate(module, {})).exports as unknown as RawCore;

  // (d) tail latency first, one child process per engine, while this process holds almost
  // nothing (its own GC threads would otherwise compete with the child for the 2 cores).
  // Each engine runs C.TAIL.runs times, alternating; its figures are those of its median run by p99.9
  // (not the best: tails are what this measures).
  const tailRuns = {} as Record<TailKind, TailResult[]>;
  const tail = {} as Record<TailKind, TailResult>;
  for (let run = 0; run < C.TAIL.runs; run++) {
    for (const kind of ["wasm", "flat", "js", "plain", "none"] as const) {
      log(
        `(d) tail latency, ${kind}, run ${run + 1}/${C.TAIL.runs}: ${(C.TAIL.chats * C.TAIL.perChat).toLocaleString("en")} resident, ${C.TAIL.iterations.toLocaleString("en")} iterations`,
      );
      const stdout = execFileSync(
        process.execPath,
        [
          "--expose-gc",
          "--import",
          TS_LOADER,
          "--max-old-space-size=8192",
          join(HERE, "tail-latency.ts"),
          kind,
          String(C.TAIL.chats),
          String(C.TAIL.perChat),
          String(C.TAIL.iterations),
        ],
        { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
      );
      const result = JSON.parse(stdout.trim().split("\n").pop()!) as TailResult;
      (tailRuns[kind] ??= []).push(result);
    }
  }

  for (const kind of Object.keys(tailRuns) as TailKind[]) {
    const sorted = tailRuns[kind].sort((a, b) => a.p999Us - b.p999Us);
    tail[kind] = sorted[(sorted.length - 1) >> 1]!;
  }

  // (c) memory next, on a quiet heap; the 1M trees built here serve the 1M walks.
  log(`(c) bytes per message at ${C.MEMORY_N.toLocaleString("en")} messages`);
  // The JS heap (v8's used_heap_size after two full collections) counts for both engines: for
  // the JS engine it is everything, for the WASM engine what the TypeScript wrapper keeps per
  // message beside the linear memory (it should be nothing).
  const heapUsed = (): number => {
    gc();
    return getHeapStatistics().used_heap_size;
  };
  const js1m = new JsEngine();
  const heap0 = heapUsed();
  const jsTree1m = js1m.createTree();
  const jsHead1m = buildHistory(js1m, jsTree1m, C.MEMORY_N);
  const jsBytes = (heapUsed() - heap0) / C.MEMORY_N;

  const wasm1m = await wasm();
  const wasmMem0 = wasm1m.memoryUsedBytes();
  const wasmHeap0 = heapUsed();
  const wasmFirst = wasm1m.createTree();
  buildHistory(wasm1m, wasmFirst, C.MEMORY_N);
  const wasmHeap = (heapUsed() - wasmHeap0) / C.MEMORY_N;
  const wasmGrowth = (wasm1m.memoryUsedBytes() - wasmMem0) / C.MEMORY_N;
  // Churn: that chat is deleted and another of the same size built. An allocator that
  // reuses freed blocks ends where it was; the figure is per message still held.
  wasm1m.dropTree(wasmFirst);
  const wasmTree1m = wasm1m.createTree();
  const wasmHead1m = buildHistory(wasm1m, wasmTree1m, C.MEMORY_N);
  const wasmAfterChurn = (wasm1m.memoryUsedBytes() - wasmMem0) / C.MEMORY_N;

  const flat1m = new FlatEngine();
  const flatTree1m = flat1m.createTree();
  const flatHead1m = buildHistory(flat1m, flatTree1m, C.MEMORY_N);
  const flatBytes = flat1m.memoryBytes() / C.MEMORY_N;

  // (a) appends
  log(
    `(a) append, batches of ${C.APPEND_BATCH.toLocaleString("en")} into trees refilled up to ${C.APPEND_HISTORY.toLocaleString("en")}`,
  );
  let appendTimes: Map<string, RoundStats>;
  {
    // Every phase (warmup, run) of every round starts on a fresh engine, so each engine
    // does the same work: C.APPEND_ITERATIONS batches, i.e. a few 1M chats built, deleted
    // and built again, as a server does when chats come and go.
    const fresh = (tree: number): ChainState => ({ tree, count: 0, head: -1, prev: -1 });
    const w = { e: undefined as unknown as WasmEngine, s: fresh(-1) };
    const x = { e: undefined as unknown as RawCore, s: fresh(-1) };
    const f = { e: new FlatEngine(), s: fresh(-1) };
    const j = { e: new JsEngine(), s: fresh(-1) };
    appendTimes = await runRounds(
      [
        [
          "append wasm",
          () => appendBatchWasm(w.e, w.s),
          {
            beforeAll: async () => {
              w.e = await wasm();
              w.s = fresh(w.e.createTree());
            },
          },
        ],
        [
          "append wasm raw",
          () => appendBatchRaw(x.e, x.s),
          {
            beforeAll: async () => {
              x.e = await raw();
              x.s = fresh(x.e.createTree());
            },
          },
        ],
        [
          "append flat",
          () => appendBatchFlat(f.e, f.s),
          {
            beforeAll: () => {
              f.e = new FlatEngine();
              f.s = fresh(f.e.createTree());
            },
          },
        ],
        [
          "append js",
          () => appendBatchJs(j.e, j.s),
          {
            beforeAll: () => {
              j.e = new JsEngine();
              j.s = fresh(j.e.createTree());
            },
          },
        ],
      ],
      { time: 0, iterations: C.APPEND_ITERATIONS, warmupTime: 0, warmupIterations: C.APPEND_WARMUP },
    );
  }
  // Appends swing with the JS engine's collector from run to run: the figure is the median
  // over C.ROUNDS runs of each run's median batch (and of each run's mean), not the best run.
  const perAppend = (name: string): { medianNs: number; meanNs: number; runsNs: number[] } => {
    const m = appendTimes.get(name)!;
    const ns = (ms: number) => (ms * 1e6) / C.APPEND_BATCH;
    return { medianNs: ns(median(m.roundP50)), meanNs: ns(median(m.roundMean)), runsNs: m.roundP50.map(ns) };
  };
  const append = {
    wasm: perAppend("append wasm"),
    wasmRaw: perAppend("append wasm raw"),
    flat: perAppend("append flat"),
    js: perAppend("append js"),
  };
  gc();

  // (b) walks
  log(
    `(b) walk of ${WINDOW} at ${C.WALK_SIZES.map((n) => n.toLocaleString("en")).join(", ")} (${C.WALKS} walks per sample)`,
  );
  const walk: ArenaResults["walk"] = {};
  // One engine of each kind holds the three histories, as one engine per process holds
  // every chat (and the wrapper's property loads stay monomorphic).
  const ew = wasm1m;
  const ef = flat1m;
  const ej = js1m;
  const xr = await raw();
  const out = xr.reserveOut(WINDOW);
  for (const n of C.WALK_SIZES) {
    const big = n === C.MEMORY_N;
    const tw = big ? wasmTree1m : ew.createTree();
    const hw = big ? wasmHead1m : buildHistory(ew, tw, n);
    const tf = big ? flatTree1m : ef.createTree();
    const hf = big ? flatHead1m : buildHistory(ef, tf, n);
    const tj = big ? jsTree1m : ej.createTree();
    const hj = big ? jsHead1m : buildHistory(ej, tj, n);
    const tr = xr.createTree();
    const hr = buildHistory(xr, tr, n);
    if (hw !== hf || hf !== hj || hj !== hr) throw new Error("the engines built different histories");

    const head = new Int32Array(1).fill(hw);
    const spread = spreadHeads(n);
    // The three engines must return the same windows, or the comparison means nothing.
    for (const h of [hw, spread[0]!, spread[1]!, spread[2]!]) {
      const window = (e: { walk(t: number, h: number, m: number): number; readonly ids: Int32Array }, t: number) => {
        const count = e.walk(t, h, WINDOW); // first: the view is read after the walk
        return Array.from(e.ids.subarray(0, count)).join();
      };
      const a = window(ew, tw);
      if (a !== window(ef, tf) || a !== window(ej, tj)) {
        throw new Error(`the engines disagree on the window of ${WINDOW} from ${h} at ${n} messages`);
      }
    }
    let sink = 0;
    const tasks: [string, () => void][] = [];
    for (const [mode, heads] of [
      ["head", head],
      ["spread", spread],
    ] as const) {
      tasks.push(
        [`wasm ${mode}`, () => void (sink += walkLoopWasm(ew, tw, heads))],
        [`wasmRaw ${mode}`, () => void (sink += walkLoopRaw(xr, tr, heads, out))],
        [`flat ${mode}`, () => void (sink += walkLoopFlat(ef, tf, heads))],
        [`js ${mode}`, () => void (sink += walkLoopJs(ej, tj, heads))],
      );
    }
    const times = await runRounds(tasks, { time: C.WALK_TIME, warmupTime: C.WALK_WARMUP });
    if (sink === 0.5) log("unreachable"); // keeps `sink` observable
    const per = (name: string): number => (times.get(name)!.p50 * 1e6) / C.WALKS;
    const row = (e: string): { headNs: number; spreadNs: number } => ({
      headNs: per(`${e} head`),
      spreadNs: per(`${e} spread`),
    });
    walk[n] = { wasm: row("wasm"), wasmRaw: row("wasmRaw"), flat: row("flat"), js: row("js") };
  }

  const m = machine();
  const results: ArenaResults = {
    machine: { cpu: m.cpu, cores: m.nproc, node: m.node, date: m.date, commit: m.commit },
    append,
    walk,
    memory: { wasmGrowth, wasmHeap, wasmAfterChurn, flat: flatBytes, js: jsBytes },
    tail,
  };
  return report(results);
}

// ---------------------------------------------------------------- report

const f1 = fmt;
const fx = (x: number): string => `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}x`;

export function report(r: ArenaResults): SuiteReport {
  const sizes = C.WALK_SIZES;
  const small = sizes[0]!;
  const large = sizes[sizes.length - 1]!;
  const w = r.walk;
  const resident = count(C.TAIL.chats * C.TAIL.perChat);
  const goals: Goal[] = [];
  const goal = (g: string, target: string, measured: string, pass: boolean): void => {
    goals.push({ goal: g, target, measured, pass });
  };

  // What a user pays per message: the arena's linear memory plus whatever the wrapper keeps on
  // the JS heap, against everything the JS engine keeps on the heap.
  const wasmTotal = r.memory.wasmGrowth + r.memory.wasmHeap;
  const memRatio = r.memory.js / wasmTotal;
  goal(
    `WASM engine, metadata bytes/message at ${count(C.MEMORY_N)} (linear memory + the wrapper's JS heap)`,
    "<= 32 B",
    `${f1(wasmTotal)} B (${f1(r.memory.wasmGrowth)} + ${f1(r.memory.wasmHeap)})`,
    wasmTotal <= 32,
  );
  goal("JS engine / WASM engine, metadata bytes/message", ">= 8x", fx(memRatio), memRatio >= 8);
  const appendRatio = r.append.js.medianNs / r.append.wasm.medianNs;
  goal(
    `engine appends, WASM vs JS (median of ${C.ROUNDS} runs)`,
    ">= 10x faster",
    `${fx(appendRatio)} (runs: JS ${r.append.js.runsNs.map(f1).join(", ")} ns; WASM ${r.append.wasm.runsNs.map(f1).join(", ")} ns)`,
    appendRatio >= 10,
  );
  const p999Ratio = r.tail.js.p999Us / r.tail.wasm.p999Us;
  goal(
    `p99.9 of a request under ${resident} resident, JS / WASM`,
    ">= 3x",
    `${fx(p999Ratio)} (${f1(r.tail.wasm.p999Us)} vs ${f1(r.tail.js.p999Us)} µs)`,
    p999Ratio >= 3,
  );
  const maxRatio = r.tail.js.maxUs / r.tail.wasm.maxUs;
  goal(
    `slowest request under ${resident} resident, JS / WASM`,
    ">= 3x",
    `${fx(maxRatio)} (${f1(r.tail.wasm.maxUs)} vs ${f1(r.tail.js.maxUs)} µs)`,
    maxRatio >= 3,
  );
  for (const n of sizes) {
    const ratio = w[n]!.flat.headNs / w[n]!.wasm.headNs;
    goal(`walk of ${WINDOW} at ${count(n)}, WASM vs flat TS`, ">= 1.1x faster", fx(ratio), ratio >= 1.1);
  }
  const flatness = w[large]!.wasm.headNs / w[small]!.wasm.headNs;
  goal(`WASM walk flat in history size (${count(large)} / ${count(small)})`, "<= 1.5", fx(flatness), flatness <= 1.5);

  const vs = (other: number, wasm: number): string => fx(other / wasm);
  const rowsMd: [string, number, number, number, string?][] = [
    [
      `append while building 1M, ns/message (median of ${C.ROUNDS} runs)`,
      r.append.wasm.medianNs,
      r.append.flat.medianNs,
      r.append.js.medianNs,
    ],
    [
      `append while building 1M, ns/message (mean, incl. growth and GC)`,
      r.append.wasm.meanNs,
      r.append.flat.meanNs,
      r.append.js.meanNs,
    ],
    ...sizes.map((n): [string, number, number, number] => [
      `window of ${WINDOW} at ${count(n)} messages, ns/walk`,
      w[n]!.wasm.headNs,
      w[n]!.flat.headNs,
      w[n]!.js.headNs,
    ]),
    [
      `window walk ${count(large)} / ${count(small)} (flatness)`,
      w[large]!.wasm.headNs / w[small]!.wasm.headNs,
      w[large]!.flat.headNs / w[small]!.flat.headNs,
      w[large]!.js.headNs / w[small]!.js.headNs,
      "ratio",
    ],
    [
      `window of ${WINDOW} from 1,024 heads spread over ${count(large)}, ns/walk`,
      w[large]!.wasm.spreadNs,
      w[large]!.flat.spreadNs,
      w[large]!.js.spreadNs,
    ],
    [`metadata bytes/message at ${count(C.MEMORY_N)} (incl. JS heap)`, wasmTotal, r.memory.flat, r.memory.js],
    [`${resident} resident, request p50, µs`, r.tail.wasm.p50Us, r.tail.flat.p50Us, r.tail.js.p50Us],
    [`${resident} resident, request p99, µs`, r.tail.wasm.p99Us, r.tail.flat.p99Us, r.tail.js.p99Us],
    [`${resident} resident, request p99.9, µs`, r.tail.wasm.p999Us, r.tail.flat.p999Us, r.tail.js.p999Us],
    [`${resident} resident, slowest request, µs`, r.tail.wasm.maxUs, r.tail.flat.maxUs, r.tail.js.maxUs],
  ];

  const m = r.machine;
  const md: string[] = [];
  md.push(`### Arena figures`);
  md.push("");
  md.push(
    `${m.cpu} (${m.cores} cores), Node ${m.node}, ${m.date}${m.commit ? `, commit ${m.commit}` : ""}, \`npm run bench\`.`,
  );
  md.push(
    `WASM = the AssemblyScript arena through \`WasmEngine\`; flat TS = the same struct-of-arrays layout in plain`,
  );
  md.push(
    `TypeScript typed arrays (bench/flat-arena.ts); JS = \`JsEngine\`, one object per message linked to its parent.`,
  );
  md.push("");
  md.push(`| | WASM | flat TS | JS objects | flat / WASM | JS / WASM |`);
  md.push(`|---|---:|---:|---:|---:|---:|`);
  for (const [label, a, b, c, kind] of rowsMd) {
    if (kind === "ratio") md.push(`| ${label} | ${fx(a)} | ${fx(b)} | ${fx(c)} | | |`);
    else md.push(`| ${label} | ${f1(a)} | ${f1(b)} | ${f1(c)} | ${vs(b, a)} | ${vs(c, a)} |`);
  }
  md.push("");
  md.push(`| goal | target | measured | |`);
  md.push(`|---|---|---|---|`);
  for (const g of goals) md.push(`| ${g.goal} | ${g.target} | ${g.measured} | ${g.pass ? "PASS" : "MISS"} |`);
  md.push("");
  md.push(
    `Notes. Appends: batches of ${count(C.APPEND_BATCH)} into a chat built from empty to ${count(C.APPEND_HISTORY)}, deleted and built`,
  );
  md.push(
    `again on the same engine (growth copies, fresh pages and the GC work appends cause are included); the figure is the`,
  );
  md.push(
    `median over ${C.ROUNDS} runs of each run's median batch (runs, ns/append: JS ${r.append.js.runsNs.map(f1).join(", ")}; WASM ${r.append.wasm.runsNs.map(f1).join(", ")}).`,
  );
  md.push(
    `Walks: loops of ${count(C.WALKS)}, from the chat's head (hot) or from 1,024 heads spread over the history (cold), best of`,
  );
  md.push(
    `${C.ROUNDS} interleaved rounds; the core's \`walkInto\` called without the TypeScript wrapper takes ${f1(w[large]!.wasmRaw.headNs)} ns at ${count(large)}.`,
  );
  md.push(
    `Memory: WASM = growth of \`memoryUsedBytes()\` (${f1(r.memory.wasmGrowth)} B, the linear memory handed out, with the allocator's slack) plus the growth of`,
  );
  md.push(
    `v8's \`used_heap_size\` after \`gc()\` (${f1(r.memory.wasmHeap)} B: what the wrapper keeps per message); after that chat is deleted`,
  );
  md.push(
    `and another built on the same engine, the linear memory holds ${f1(r.memory.wasmAfterChurn)} B per live message. Flat = its typed`,
  );
  md.push(`arrays. JS = \`used_heap_size\` growth after \`gc()\`.`);
  md.push(
    `Requests: ${resident} messages in ${C.TAIL.chats} chats, each engine in its own process (its median run by p99.9 of ${C.TAIL.runs}),`,
  );
  md.push(
    `${count(C.TAIL.iterations)} iterations of a few small objects, one append and one window of ${WINDOW}. GC events in the loop:`,
  );
  md.push(
    `WASM ${r.tail.wasm.gcCount} (longest ${f1(r.tail.wasm.gcMaxMs)} ms), flat ${r.tail.flat.gcCount} (longest ${f1(r.tail.flat.gcMaxMs)} ms), JS ${r.tail.js.gcCount} (longest ${f1(r.tail.js.gcMaxMs)} ms).`,
  );
  md.push(
    `The same loop with no engine at all: p50 ${f1(r.tail.none.p50Us)} µs, p99 ${f1(r.tail.none.p99Us)} µs, p99.9 ${f1(r.tail.none.p999Us)} µs, slowest ${f1(r.tail.none.maxUs)} µs`,
  );
  md.push(
    `(the machine's noise floor: the p99 of every engine sits on it, which is why the goals look at p99.9 and the slowest).`,
  );
  md.push("");

  const tables: SuiteReport["tables"] = [
    {
      title: `(a) append while building a ${count(C.APPEND_HISTORY)}-message history, ns/append (median of ${C.ROUNDS} runs)`,
      rows: (["wasm", "wasmRaw", "flat", "js"] as const).map((e) => ({
        engine: e === "wasmRaw" ? "wasm (raw export, no wrapper)" : e,
        "median ns": f1(r.append[e].medianNs),
        "mean ns": f1(r.append[e].meanNs),
        "runs ns": r.append[e].runsNs.map(f1).join(" "),
        "JS / this": fx(r.append.js.medianNs / r.append[e].medianNs),
      })),
    },
    {
      title: `(b) walk of ${WINDOW}, ns/walk (median); head = the chat's head, spread = 1,024 heads over the history`,
      rows: (["wasm", "wasmRaw", "flat", "js"] as const).map((e) => ({
        engine: e === "wasmRaw" ? "wasm (raw walkInto)" : e,
        ...Object.fromEntries(sizes.map((n) => [`head ${count(n)}`, f1(w[n]![e].headNs)])),
        [`${count(large)}/${count(small)}`]: fx(w[large]![e].headNs / w[small]![e].headNs),
        ...Object.fromEntries(sizes.map((n) => [`spread ${count(n)}`, f1(w[n]![e].spreadNs)])),
        "JS/this": fx(w[large]!.js.headNs / w[large]![e].headNs),
      })),
    },
    {
      title: `(c) metadata bytes/message at ${count(C.MEMORY_N)}`,
      rows: [
        {
          engine: "wasm (linear memory + wrapper's JS heap)",
          "B/message": f1(wasmTotal),
          "JS / this": fx(r.memory.js / wasmTotal),
        },
        {
          engine: "wasm, linear memory only",
          "B/message": f1(r.memory.wasmGrowth),
          "JS / this": fx(r.memory.js / r.memory.wasmGrowth),
        },
        { engine: "wasm, wrapper's JS heap only", "B/message": f1(r.memory.wasmHeap), "JS / this": "" },
        {
          engine: "wasm, after deleting that chat and building another",
          "B/message": f1(r.memory.wasmAfterChurn),
          "JS / this": fx(r.memory.js / r.memory.wasmAfterChurn),
        },
        { engine: "flat (typed arrays)", "B/message": f1(r.memory.flat), "JS / this": fx(r.memory.js / r.memory.flat) },
        { engine: "js (used_heap_size after gc)", "B/message": f1(r.memory.js), "JS / this": fx(1) },
      ],
    },
    {
      title: `(d) requests under ${resident} resident messages, per iteration (µs)`,
      rows: (["wasm", "flat", "js", "plain", "none"] as const).map((e) => ({
        engine: e === "none" ? "none (the loop alone)" : e === "plain" ? "plain arrays (no library)" : e,
        p50: f1(r.tail[e].p50Us),
        p99: f1(r.tail[e].p99Us),
        "p99.9": f1(r.tail[e].p999Us),
        slowest: f1(r.tail[e].maxUs),
        "JS p99.9 / this": fx(r.tail.js.p999Us / r.tail[e].p999Us),
        "GC events": r.tail[e].gcCount,
        "longest GC ms": f1(r.tail[e].gcMaxMs),
        "heap MB": f1(r.tail[e].heapUsedMB),
        "rss MB": f1(r.tail[e].rssMB),
      })),
    },
  ];

  const readme = [
    {
      title: "The arena: engine operations, no texts",
      columns: ["", "WASM", "flat TS (bench only)", "JS engine", "JS / WASM"],
      rows: rowsMd
        .filter(([, , , , kind]) => kind !== "ratio")
        .map(([label, a, b, c]) => [label, f1(a), f1(b), f1(c), vs(c, a)]),
      note: `Appends: median of ${C.ROUNDS} runs. Bytes per message: linear memory plus the JS heap the wrapper keeps, against the JS engine's heap. Requests: each engine in its own process; the p99 of all of them sits at the machine's noise floor (${f1(r.tail.none.p99Us)} µs with no engine at all), so p99.9 and the slowest show the difference.`,
    },
  ];

  return { name: "arena", tables, goals, markdown: md.join("\n"), readme, results: r };
}
