// Recall in the Loom (issue 10): what an append costs with recall on (the built-in embedder,
// and an embedder that never answers) against recall off; what a build costs with recall on a
// chat of 4,000 messages against one without; how fast the queue embeds a backlog. Printed,
// never asserted.
//
//   node --import ./bench/ts-loader.mjs bench/recall-loom.bench.ts [--smoke]

import { Bench } from "tinybench";
import { Loom, hashingEmbedder, type Embedder } from "../src/index.js";

let SMOKE = process.argv.includes("--smoke");
let TURNS = SMOKE ? 200 : 2000;
const SMALL = { name: "bench-small", contextWindow: 8192 };
/** tinybench's timing: the smoke's proves the suite runs (a few rounds, no warm-up to speak of), not a measurement. */
const timing = () => (SMOKE ? { time: 20, iterations: 8, warmupTime: 5, warmupIterations: 2 } : { time: 1000 });
const stuck: Embedder = { name: "stuck", dimension: 384, embed: () => new Promise(() => {}) };

const text = (i: number, role: string) =>
  role === "user"
    ? `Tell me about river number ${i} and its valley.`
    : `River ${i} flows through its valley to the sea.`;

async function chatOf(engine: "wasm" | "js", embed: Embedder | boolean) {
  const loom = await Loom.open({
    engine,
    recall: typeof embed === "boolean" ? embed : { embedder: embed },
    counter: "heuristic",
  });
  const chat = await loom.user("bench").create();
  return { loom, chat };
}

/** Recall through the Loom: appends with recall off, on and stuck; builds with and without recall; both engines. */
export async function runRecallLoomSuite(options: { smoke?: boolean } = {}) {
  SMOKE = options.smoke === true || SMOKE;
  TURNS = SMOKE ? 200 : 2000;
  const rows: Record<string, string | number>[] = [];
  for (const engine of ["wasm", "js"] as const) {
    // Appends: recall off, the built-in embedder (queued), a stuck embedder (queued forever).
    const bench = new Bench(timing());
    const setups = [
      ["off", false],
      ["hashing", hashingEmbedder()],
      ["stuck", stuck],
    ] as const;
    const open = await Promise.all(setups.map(([, e]) => chatOf(engine, e)));
    setups.forEach(([name], i) => {
      let n = 0;
      bench.add(`append, recall ${name}`, async () => {
        await open[i]!.chat.append({
          role: n % 2 ? "assistant" : "user",
          content: text(n, n++ % 2 ? "assistant" : "user"),
        });
      });
    });
    await bench.run();
    for (const o of open) await o.loom.close();

    // Builds on a chat of 2 * TURNS messages, every message embedded.
    const { loom, chat } = await chatOf(engine, true);
    await chat.append({ role: "user", content: "My cat's name is Bartholomew." });
    await chat.append({ role: "assistant", content: "Noted." });
    for (let i = 0; i < TURNS; i++) {
      await chat.append({ role: "user", content: text(i, "user") });
      await chat.append({ role: "assistant", content: text(i, "assistant") });
    }
    await chat.append({ role: "user", content: "What is my cat called?" });
    const t0 = performance.now();
    await loom.flush();
    const backlog = performance.now() - t0;
    const builds = new Bench(timing());
    builds.add("build, no recall", async () => void (await chat.buildContext({ model: SMALL })));
    builds.add(
      "build, recall (chat scope)",
      async () => void (await chat.buildContext({ model: SMALL, recall: true })),
    );
    builds.add("chat.recall", async () => void (await chat.recall("What is my cat called?")));
    await builds.run();
    const count = chat.messageCount;
    await loom.close();

    const row: Record<string, string | number> = {
      engine,
      messages: count,
      "backlog embedded, messages/s": Math.round((count / backlog) * 1000),
    };
    for (const t of [...bench.tasks, ...builds.tasks]) {
      const r = t.result as { latency?: { p50?: number } } | undefined;
      row[`${t.name}, p50 ms`] = +(r?.latency?.p50 ?? NaN).toFixed(4);
    }
    rows.push(row);
  }
  const append = (e: string, k: string) => rows.find((r) => r.engine === e)![k] as number;
  const goals = ["wasm", "js"].map((e) => {
    const off = append(e, "append, recall off, p50 ms");
    const stuck = append(e, "append, recall stuck, p50 ms");
    return {
      goal: `${e}: an append with a stuck embedder against recall off`,
      target: "< 3x (appends never wait on embedding)",
      measured: `${(stuck / off).toFixed(2)}x`,
      pass: stuck / off < 3,
    };
  });
  const keys = Object.keys(rows[0]!);
  const markdown = [
    `| ${keys.join(" | ")} |`,
    `| ${keys.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`),
  ].join("\n");
  return { name: "recall-loom", tables: [{ title: "recall through the Loom", rows }], goals, markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runRecallLoomSuite();
  console.table(report.tables[0]!.rows);
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
}
