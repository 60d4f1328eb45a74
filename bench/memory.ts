// Memory per message of a long chat with the default (in-memory) store, on both engines.
// Not a timed test: run `node --expose-gc --import ./bench/ts-loader.mjs bench/memory.ts [messages]` (default 1,000,000).
// Prints, per message: JS heap (V8's heapUsed), the same beyond the texts themselves, memory
// off the JS heap (typed arrays and the WASM arena), and heap objects (from a heap snapshot).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Loom, memoryStore } from "../src/index.js";
import { heapObjects } from "../test/heap-objects.js";
import { internalsOf } from "../src/store/internal.js";

const N = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

/** Bytes V8 gives a one-byte sequential string of this length (64-bit, no pointer compression: 16-byte header, 8-byte aligned). */
const stringBytes = (length: number): number => Math.ceil((16 + length) / 8) * 8;

// Flat strings, as texts read from a request are (a template literal would make a cons string and a number string).
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const content = (i: number): string => decoder.decode(encoder.encode(`message number ${i}`));

async function measure(engine: "wasm" | "js"): Promise<Record<string, string | number>> {
  gc!();
  const objects0 = await heapObjects();
  gc!();
  const m0 = process.memoryUsage();
  const store = memoryStore(); // the default store, made here to read its columns' size
  const loom = await Loom.open({ engine, counter: "heuristic", store });
  const chat = await loom.user("u").create();
  for (let i = 0; i < N; i++) await chat.append({ role: i % 2 ? "assistant" : "user", content: content(i) });
  gc!();
  gc!();
  const m1 = process.memoryUsage();
  const objects1 = await heapObjects();
  let texts = 0;
  for (let i = 0; i < N; i++) texts += stringBytes(content(i).length);
  const heap = m1.heapUsed - m0.heapUsed;
  const arena = loom.engineImpl.memoryUsedBytes();
  const columns = internalsOf(store)!.resident("u", chat.id)!.columnBytes;
  const row = {
    engine,
    messages: N,
    "JS heap B/msg": +(heap / N).toFixed(1),
    "JS heap beyond text B/msg": +((heap - texts) / N).toFixed(1),
    "store columns B/msg (typed arrays)": +(columns / N).toFixed(1),
    "arena B/msg": arena < 0 ? "-" : +(arena / N).toFixed(1),
    "all metadata B/msg (heap beyond text + columns + arena)": +(
      (heap - texts + columns + Math.max(arena, 0)) /
      N
    ).toFixed(1),
    "heap objects/msg": +((objects1 - objects0) / N).toFixed(2),
  };
  if (chat.messageCount !== N) throw new Error("lost messages");
  await loom.close();
  return row;
}

// Each engine in its own process, so that one's memory cannot show in the other's figures.
const only = process.argv[3] as "wasm" | "js" | undefined;
if (only) {
  console.log(JSON.stringify(await measure(only)));
  process.exit(0);
}
const rows = (["wasm", "js"] as const).map((engine) => {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(N), engine], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, string | number>;
});
console.table(rows);
const [w, j] = rows as [Record<string, number>, Record<string, number>];
for (const key of ["JS heap beyond text B/msg", "all metadata B/msg (heap beyond text + columns + arena)"]) {
  console.log(`${key}, JS engine / WASM engine: ${(j[key]! / w[key]!).toFixed(2)}x`);
}
