// The context suite's part (c): a context carrying the user's working memory against today's
// buildContext({ memory }) with the same text (the goal: it costs no more), on both engines, the
// memory store (the memory read from the process) and SQLite (a store query per build), at two
// sizes of memory: a few preferences (~2 KB) and a long one (~60 KB, within gpt-4o's share).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { count, fmt, latency, log, ratio, type Goal } from "./report.js";
import { Loom, type Chat } from "../src/index.js";
import { sqliteStore } from "../src/sqlite.js";

type Timing = ReturnType<typeof latency>;
export interface MemoryRow {
  engine: "wasm" | "js";
  store: "memory" | "sqlite";
  chars: number;
  given: Timing;
  carried: Timing;
  same: boolean;
}

const prose = (chars: number) => {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const line = `- Fact ${i}: the user prefers option ${i % 7} when asked about topic ${i}.`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
};

/** buildContext({ memory: text }) and buildContext() carrying the same text, timed together. */
export async function memoryRows(
  build: (loom: Loom) => Promise<Chat>,
  sizes: number[],
  seconds: number,
): Promise<MemoryRow[]> {
  const out: MemoryRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-bench-memory-"));
  try {
    for (const store of ["memory", "sqlite"] as const) {
      for (const engine of ["wasm", "js"] as const) {
        const loom = await Loom.open({
          engine,
          ...(store === "sqlite" ? { store: sqliteStore(join(dir, `${engine}.db`)) } : {}),
        });
        const chat = await build(loom);
        const memory = loom.user("bench").memory;
        for (const chars of sizes) {
          log(`(c) ${engine}, ${store} store, a memory of ${count(chars)} characters`);
          const { revision, documents } = await memory.read();
          if (documents.length) await memory.delete({ path: "facts.md", revision });
          await memory.write({ path: "facts.md", text: prose(chars), revision: (await memory.read()).revision });
          const carriedCtx = await chat.buildContext();
          const text = carriedCtx.memory;
          const givenCtx = await chat.buildContext({ memory: text, memoryScope: "none" });
          const same =
            JSON.stringify({ ...carriedCtx, memoryRevision: null }) === JSON.stringify(givenCtx) &&
            carriedCtx.memoryRevision!.omitted === 0;
          const bench = new Bench({
            time: seconds * 1000,
            warmupTime: Math.min(200, seconds * 100),
            iterations: 5,
            warmupIterations: 16,
          });
          bench.add("given", () => chat.buildContext({ memory: text, memoryScope: "none" }));
          bench.add("carried", () => chat.buildContext());
          await bench.run();
          const [given, carried] = bench.tasks.map((t) => latency(t));
          out.push({ engine, store, chars: text.length, given: given!, carried: carried!, same });
        }
        await loom.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** The rows as a table, and the goal: on the memory store, a context carrying the memory within 1.1x of one given its text. */
export function memoryReport(
  rows: MemoryRow[],
  history: number,
): { table: Record<string, string | number>[]; goals: Goal[]; markdown: string } {
  const table = rows.map((r) => ({
    engine: r.engine,
    store: r.store,
    "memory chars": count(r.chars),
    "buildContext({ memory }) ms": fmt(r.given.p50),
    "carrying the memory ms": fmt(r.carried.p50),
    "carrying / given": ratio(r.carried.p50 / r.given.p50),
    "same request": r.same ? "yes" : "NO",
  }));
  const goals: Goal[] = rows
    .filter((r) => r.store === "memory")
    .map((r) => {
      const x = r.carried.p50 / r.given.p50;
      return {
        goal: `a context carrying the memory (${r.engine}, ${count(r.chars)} chars) vs buildContext({ memory }) with its text, ${count(history)} messages`,
        target: "<= 1.1x, same request",
        measured: `${ratio(x)} (${fmt(r.carried.p50 * 1000)} vs ${fmt(r.given.p50 * 1000)} µs)`,
        pass: x <= 1.1 && r.same,
      };
    });
  const markdown = `#### A context carrying the user's memory vs buildContext({ memory }) with the same text (${count(history)} messages, gpt-4o, p50)`;
  return { table, goals, markdown };
}
