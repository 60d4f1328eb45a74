// A prune while a server serves: one Loom on the memory store, then on a SQLite file ("batched"
// durability, as a server runs it), holds 100,000 idle chats of 4 messages and 200 active ones; requests (append the
// user's turn, build the context, append the answer; 16 at once) run first alone, then while
// `loom.prune({ idleFor })` removes the idle chats in batches. The goal: the requests' p99.9
// during the prune within 2x of their p99.9 without it. Texts are the OASST messages (corpus.ts).
// Alone: node --import ./bench/ts-loader.mjs bench/prune.bench.ts [--smoke]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Loom, memoryStore, type Chat } from "../src/index.js";
import type { Store } from "../src/store-entry.js";
import { sqliteStore } from "../src/sqlite.js";
import type { Message } from "../src/index.js";
import { corpus } from "./corpus.js";
import type { SuiteReport } from "./report.js";

const DAY = 86_400_000;
const IN_FLIGHT = 16;

const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const us = (ms: number) => Math.round(ms * 1000);

/** Requests on the active chats, `inFlight` at once, until `stop()` says so and at least `least` ran: each one's latency in ms. */
async function serve(chats: Chat[], texts: string[], least: number, stop: () => boolean): Promise<Float64Array> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (times.length < least || !stop()) {
      await new Promise((resolve) => setImmediate(resolve)); // each request arrives as an event of its own, as from a socket
      const i = next++;
      const chat = chats[i % chats.length]!;
      const t0 = performance.now();
      await chat.append({ role: "user", content: texts[i % texts.length]! });
      await chat.buildContext({ maxMessages: 40 });
      await chat.append({ role: "assistant", content: texts[(i * 7 + 3) % texts.length]! });
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return Float64Array.from(times).sort();
}

export async function runPruneSuite({ smoke = false }: { smoke?: boolean } = {}): Promise<SuiteReport> {
  const idle = smoke ? 2_000 : 100_000;
  const texts = corpus();
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-prune-bench-"));
  const rows: Record<string, string | number>[] = [];
  try {
    const stores: [string, (batch: number) => Store][] = [
      ["memory", () => memoryStore()],
      ["SQLite, batched", (batch) => sqliteStore(join(dir, `b${batch}.db`), { durability: "batched" })],
    ];
    for (const [name, make] of stores)
      for (const batchSize of smoke ? [25] : [25, 100]) {
        const store = make(batchSize);
        const old = Date.now() - 100 * DAY;
        for (let c = 0; c < idle; c++) {
          const messages: Message[] = Array.from({ length: 4 }, (_, id) => ({
            id,
            parentId: id === 0 ? null : id - 1,
            role: id % 2 ? "assistant" : "user",
            content: texts[(c * 4 + id) % texts.length]!,
            priority: "normal",
            tokens: 50,
            createdAt: old,
            kind: "message",
          }));
          await store.importChat(
            {
              id: `idle-${c}`,
              userId: `user-${c % 5000}`,
              title: "",
              model: "gpt-4o",
              system: null,
              createdAt: old,
              updatedAt: old + c,
              messageCount: 4,
              head: 3,
              options: {},
            },
            messages,
          );
        }
        await store.flush(); // (the memory store: at once)
        const loom = await Loom.open({ store, counter: "heuristic", recall: false });
        const active = await Promise.all(Array.from({ length: 200 }, (_, i) => loom.user(`active-${i % 50}`).create()));
        await serve(active, texts, 2_000, () => true); // warm up
        const alone = await serve(active, texts, smoke ? 2_000 : 20_000, () => true);
        let done = false;
        const t0 = performance.now();
        const pruning = loom.prune({ idleFor: 30 * DAY, batchSize }).then((report) => {
          done = true;
          return report;
        });
        const during = await serve(active, texts, 1_000, () => done);
        const report = await pruning;
        const pruneS = (performance.now() - t0) / 1000;
        await loom.close();
        rows.push({
          store: name,
          "batch size": batchSize,
          "chats pruned": report.chats,
          "prune s": +pruneS.toFixed(1),
          "requests alone": alone.length,
          "p50 alone µs": us(quantile(alone, 0.5)),
          "p99.9 alone µs": us(quantile(alone, 0.999)),
          "requests during": during.length,
          "p50 during µs": us(quantile(during, 0.5)),
          "p99.9 during µs": us(quantile(during, 0.999)),
          "p99.9 ratio": +(quantile(during, 0.999) / quantile(alone, 0.999)).toFixed(2),
        });
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const defaults = rows.filter((r) => r["batch size"] === 25); // loom.prune()'s default
  const chosen = defaults.reduce(
    (a, b) => ((b["p99.9 ratio"] as number) > (a["p99.9 ratio"] as number) ? b : a),
    defaults[0] ?? rows[0]!,
  );
  const headers = Object.keys(rows[0]!);
  return {
    name: "prune",
    tables: [
      {
        title: `Requests while loom.prune() removes ${idle.toLocaleString("en-US")} idle chats (${IN_FLIGHT} requests at once)`,
        rows,
      },
    ],
    goals: [
      {
        goal: "the server's p99.9 during a prune of 100,000 idle chats, against without (default batch size)",
        target: "<= 2x",
        measured: `${chosen["p99.9 ratio"]}x (the worse store: ${chosen.store})`,
        pass: (chosen["p99.9 ratio"] as number) <= 2,
      },
    ],
    markdown: [
      `| ${headers.join(" | ")} |`,
      `|${headers.map(() => "---:").join("|")}|`,
      ...rows.map(
        (r) =>
          `| ${headers.map((h) => (typeof r[h] === "number" ? r[h].toLocaleString("en-US") : r[h])).join(" | ")} |`,
      ),
    ].join("\n"),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runPruneSuite({ smoke: process.argv.includes("--smoke") });
  console.table(report.tables[0]!.rows);
  console.log(report.goals);
}
