// Many chats on a persistent store: open every one of N chats of 10 messages in turn on a
// SQLite file with the LRU of open chats at its default (1,000), and report the engine's
// memory and the JS heap while they cycle and after the Loom closes. The LRU frees the
// arena memory of the chats it drops, so memory stays bounded by maxOpenChats, not by N.
// Alone: node --expose-gc --import ./bench/ts-loader.mjs bench/open-chats.bench.ts [--smoke]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Loom } from "../src/index.js";
import { sqliteStore } from "../src/sqlite.js";
import type { SuiteOptions, SuiteReport } from "./report.js";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

export async function runOpenChatsSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const chats = options.smoke ? 2_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-open-chats-"));
  const file = join(dir, "chats.db");
  const rows: Record<string, string | number>[] = [];
  try {
    // Writing: one Loom, batched, heuristic counts (what is measured is opening, not writing).
    const writer = await Loom.open({
      store: sqliteStore(file, { durability: "batched" }),
      counter: "heuristic",
      recall: false,
    });
    const ids: string[] = [];
    for (let i = 0; i < chats; i++) {
      const chat = await writer.user(`user${i % 100}`).create({ title: `chat ${i}` });
      for (let j = 0; j < 5; j++) {
        await chat.append({ role: "user", content: `question ${j} of chat ${i}` });
        await chat.append({ role: "assistant", content: `answer ${j} of chat ${i}` });
      }
      ids.push(chat.id);
    }
    await writer.close();

    for (const engine of ["wasm", "js"] as const) {
      gc();
      const heap0 = process.memoryUsage().heapUsed;
      const loom = await Loom.open({ engine, store: sqliteStore(file), counter: "heuristic", recall: false });
      const started = performance.now();
      for (let i = 0; i < chats; i++) {
        const chat = await loom.user(`user${i % 100}`).open(ids[i]!);
        chat.window({ maxMessages: 4 });
      }
      const ms = performance.now() - started;
      gc();
      const open = { heap: process.memoryUsage().heapUsed - heap0, engine: loom.engineImpl.memoryUsedBytes() };
      await loom.close();
      gc();
      rows.push({
        engine,
        chats,
        "opens/s": Math.round(chats / (ms / 1000)),
        "engine memory, MB (all opened)": engine === "wasm" ? mb(open.engine) : "-",
        "JS heap growth, MB (all opened)": mb(open.heap),
        "JS heap growth, MB (closed)": mb(process.memoryUsage().heapUsed - heap0),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const wasm = rows[0]!;
  const heapMB = wasm["JS heap growth, MB (all opened)"] as number;
  const keys = Object.keys(rows[0]!);
  return {
    name: "open-chats",
    tables: [
      { title: `opening ${chats.toLocaleString("en")} chats of 10 messages on SQLite (maxOpenChats 1,000)`, rows },
    ],
    goals: [
      {
        goal: `JS heap after opening ${chats.toLocaleString("en")} chats in turn (WASM; the LRU keeps 1,000)`,
        target: "< 100 MB (bounded by maxOpenChats, not by the number of chats)",
        measured: `${heapMB} MB`,
        pass: heapMB < 100,
      },
    ],
    markdown: [
      `| ${keys.join(" | ")} |`,
      `| ${keys.map(() => "---").join(" | ")} |`,
      ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`),
    ].join("\n"),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runOpenChatsSuite({ smoke: process.argv.includes("--smoke") });
  console.table(report.tables[0]!.rows);
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
}
