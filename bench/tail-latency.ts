// Tail latency under a resident load, for ONE engine per process (so heaps do not interfere):
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/tail-latency.ts <wasm|js|flat|plain|none> [chats] [perChat] [iterations]
//
// Builds `chats` conversations of `perChat` messages each (default 50 x 100,000 = 5M resident),
// appended round-robin as a server receives them, then runs a request-handler-like loop: a few
// small objects and arrays, one append to a random chat, one window walk of 40, a copy of the
// window ids into the "response". Each iteration is timed with process.hrtime.bigint().
// "plain" runs it on what one writes without a library: per chat, plain arrays of parents and
// token counts, a walk following the parents. "none" runs the same loop with a stub in place of
// the engine: the machine's noise floor.
// Prints one JSON line (TailResult) on stdout; bench/arena.bench.ts spawns it.

import { JsEngine, WasmEngine, embeddedModule } from "../src/engine/index.js";
import { FlatEngine } from "./flat-arena.js";
import { watchGc } from "./gc.js";

export interface TailResult {
  kind: string;
  resident: number;
  iterations: number;
  buildMs: number;
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  meanUs: number;
  /** GC events during the measured loop, and the longest one (ms). */
  gcCount: number;
  gcMaxMs: number;
  heapUsedMB: number;
  rssMB: number;
  externalMB: number;
  checksum: number;
}

interface LoadEngine {
  createTree(): number;
  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number;
  walk(tree: number, head: number, max: number): number;
  readonly ids: Int32Array;
}

const WINDOW = 40;

/** No engine at all: appends count, walks return the same 40 ids. */
class NoEngine implements LoadEngine {
  #next = 0;
  readonly #ids = Int32Array.from({ length: WINDOW }, (_, i) => i);
  createTree(): number {
    return 0;
  }
  append(): number {
    return this.#next++;
  }
  walk(_tree: number, _head: number, max: number): number {
    return Math.min(max, WINDOW);
  }
  get ids(): Int32Array {
    return this.#ids;
  }
}
/** No library: per chat, a plain array of parents and one of token counts (a message's id is its index). */
class PlainArrays implements LoadEngine {
  readonly #parents: number[][] = [];
  readonly #tokens: number[][] = [];
  readonly #ids = new Int32Array(1024);
  createTree(): number {
    this.#parents.push([]);
    this.#tokens.push([]);
    return this.#parents.length - 1;
  }
  append(tree: number, parent: number, tokens: number): number {
    this.#tokens[tree]!.push(tokens);
    return this.#parents[tree]!.push(parent) - 1;
  }
  walk(tree: number, head: number, max: number): number {
    const parents = this.#parents[tree]!;
    let n = 0;
    for (let x = head; x >= 0 && n < max; x = parents[x]!) n++;
    for (let x = head, i = n - 1; i >= 0; x = parents[x]!, i--) this.#ids[i] = x; // oldest first
    return n;
  }
  get ids(): Int32Array {
    return this.#ids;
  }
}

const USERS = Array.from({ length: 100 }, (_, i) => `user-${i}`);

async function main(): Promise<void> {
  const kind = process.argv[2] ?? "wasm";
  const chats = Number(process.argv[3] ?? 50);
  const perChat = Number(process.argv[4] ?? 100_000);
  const iterations = Number(process.argv[5] ?? 100_000);
  const warmup = Math.min(5_000, iterations);

  const engine: LoadEngine =
    kind === "wasm"
      ? await WasmEngine.create(await embeddedModule())
      : kind === "js"
        ? new JsEngine()
        : kind === "flat"
          ? new FlatEngine()
          : kind === "plain"
            ? new PlainArrays()
            : kind === "none"
              ? new NoEngine()
              : (() => {
                  throw new Error(`unknown engine ${kind}: wasm | js | flat | plain | none`);
                })();

  // The resident load: many chats, appended round-robin (a chain with a regenerate now and then).
  const t0 = performance.now();
  const trees = new Int32Array(chats);
  const heads = new Int32Array(chats).fill(-1);
  const prev = new Int32Array(chats).fill(-1);
  for (let c = 0; c < chats; c++) trees[c] = engine.createTree();
  for (let i = 0; i < perChat; i++) {
    const branch = (i & 63) === 63;
    for (let c = 0; c < chats; c++) {
      const parent = branch ? prev[c]! : heads[c]!;
      prev[c] = parent;
      heads[c] = engine.append(trees[c]!, parent, 16 + (i & 63), 1 + (i & 1), 1, 0);
    }
  }
  const buildMs = performance.now() - t0;
  globalThis.gc?.();

  // The handler loop. `inflight` keeps the last responses alive for a while, as a server would.
  const inflight: unknown[] = new Array(64).fill(null);
  let seed = 0x9e3779b9 | 0;
  let checksum = 0;
  const samples = new Float64Array(iterations);
  const handle = (i: number): void => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const c = (seed >>> 0) % chats;
    const req = {
      user: USERS[i % USERS.length]!,
      chat: c,
      body: { role: "user", content: `message ${i}`, priority: "normal" },
      headers: [
        ["content-type", "application/json"],
        ["x-request", String(i)],
      ],
    };
    const id = engine.append(trees[c]!, heads[c]!, 8 + req.body.content.length, 1, 1, 0);
    heads[c] = id;
    const n = engine.walk(trees[c]!, id, WINDOW);
    const res = { chat: req.chat, ids: Array.from(engine.ids.subarray(0, n)), tokens: n * 16 };
    inflight[i & 63] = res;
    checksum = (checksum + res.ids[0]! + res.ids.length + req.headers.length) | 0;
  };

  for (let i = 0; i < warmup; i++) handle(i);

  const collector = watchGc();

  let last = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    handle(warmup + i);
    const now = process.hrtime.bigint();
    samples[i] = Number(now - last);
    last = now;
  }
  const { durations } = collector.stop();
  const gcCount = durations.length;
  const gcMaxMs = Math.max(0, ...durations);

  const sorted = samples.slice().sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! / 1000;
  let sum = 0;
  for (const s of samples) sum += s;
  const mem = process.memoryUsage();
  const result: TailResult = {
    kind,
    resident: chats * perChat,
    iterations,
    buildMs,
    p50Us: q(0.5),
    p99Us: q(0.99),
    p999Us: q(0.999),
    maxUs: sorted[sorted.length - 1]! / 1000,
    meanUs: sum / iterations / 1000,
    gcCount,
    gcMaxMs,
    heapUsedMB: mem.heapUsed / 2 ** 20,
    rssMB: mem.rss / 2 ** 20,
    externalMB: mem.external / 2 ** 20,
    checksum,
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
