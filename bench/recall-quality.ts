// The recall-quality suite (issue 23): recall@5/10/20 per question kind on the project's
// evaluation set (test/recall/eval/: 12 long two-person conversations over dated sessions,
// ~1,400 questions with evidence turns; conversations 9-11 held out), for
//   - ctxloom's recall as users call it today: the first k messages of
//     chat.recall(q, { prompts: k, answersPerPrompt: 0, recent: 0 }),
//   - the plain-JS BM25 reference (k1 1.2, b 0.75, test/recall/eval/bm25.ts),
//   - the core's lexical index (both engines; term options: stemming, stop words),
//   - the dense channel alone (the hashing embedder over every turn),
// all in one run. Figures are printed and written to bench/results/recall-quality.md; goals
// are PASS / MISS, never asserted.
//
//   node --import ./bench/ts-loader.mjs bench/recall-quality.ts [--smoke]
//   npm run bench recall-quality

import { JsEngine, WasmEngine, embeddedModule } from "../src/engine/index.js";
import { bm25Reference, ctxloomRecall, denseChannel, lexicalCore, type Channel } from "./recall-eval/channels.js";
import { evaluate, type Part, type Tally } from "./recall-eval/evaluate.js";
import { BASE_SEED, HELD_OUT, KINDS, evaluationSet } from "../test/recall/eval/generate.js";
import { describeSet, fingerprint } from "../test/recall/eval/shape.js";
import type { Goal, SuiteOptions, SuiteReport } from "./report.js";

function table(rows: Record<string, string | number>[]): string {
  const keys = Object.keys(rows[0]!);
  return [`| ${keys.join(" | ")} |`, `| ${keys.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`)].join("\n");
}

export async function runRecallQualitySuite(options: SuiteOptions): Promise<SuiteReport> {
  const set = options.smoke ? evaluationSet().filter((c) => c.id === 0 || c.id === HELD_OUT[0]) : evaluationSet();
  const wasm = await WasmEngine.create(await embeddedModule());
  const js = new JsEngine();
  const today = ctxloomRecall("wasm");
  const plainWasm = lexicalCore(wasm, { stem: "none", stopWords: false });
  const plainJs = lexicalCore(js, { stem: "none", stopWords: false });
  const channels: Channel[] = [
    today, bm25Reference, plainWasm, plainJs,
    lexicalCore(wasm, { stem: "plural", stopWords: false }),
    lexicalCore(wasm, { stem: "plural", stopWords: true }),
    lexicalCore(wasm, { stem: "light", stopWords: true }),
    denseChannel(wasm),
  ];
  const t0 = performance.now();
  const tally = await evaluate(set, channels, new Set([today.name]));
  const seconds = (performance.now() - t0) / 1000;
  const names = channels.map((c) => c.name);
  const parts: Part[] = ["tuning", "held-out"];
  const shape = describeSet(set);

  const at10 = (part: Part, channel: Channel) => tally.get(part, channel.name, "all").at[1]!;
  const goals: Goal[] = parts.flatMap((part) => [
    {
      goal: `lexical core (plain words) ranks as the BM25 reference, ${part}`,
      target: "same R@5/10/20, every kind",
      measured: same(tally, part, [bm25Reference.name, plainWasm.name, plainJs.name]) ? "same" : "differs",
      pass: same(tally, part, [bm25Reference.name, plainWasm.name, plainJs.name]),
    },
    {
      goal: `lexical core beats today's recall, R@10, ${part}`,
      target: `> ${(100 * at10(part, today)).toFixed(1)}%`,
      measured: `${(100 * at10(part, plainWasm)).toFixed(1)}%`,
      pass: at10(part, plainWasm) > at10(part, today),
    },
  ]);

  const markdown = [
    `Recall quality on the project's evaluation set (test/recall/eval/, seed ${BASE_SEED}, fingerprint ${fingerprint(set)}${options.smoke ? ", smoke: 2 conversations" : ""}).`,
    "R@k: the share of a question's evidence turns among the first k turns returned, averaged over questions, in percent.",
    "ctxloom recall: the first k messages of chat.recall(q, { prompts: k, answersPerPrompt: 0, recent: 0 }).",
    `Conversations ${HELD_OUT.join(", ")} are held out: never tune on them. ${seconds.toFixed(0)} s for the whole run.`,
    "",
    table(shape),
    ...parts.flatMap((part) => ["", `### ${part}`, "", table(tally.rows(part, names))]),
    "",
  ].join("\n");
  return {
    name: "recall-quality",
    tables: [{ title: "evaluation set", rows: shape }, ...parts.map((part) => ({ title: `recall@k, ${part} conversations`, rows: tally.rows(part, names) }))],
    goals,
    markdown,
  };
}

/** Whether the channels have the same figures on a part, every kind and k. */
function same(tally: Tally, part: Part, channels: string[]): boolean {
  return [...KINDS, "all"].every((kind) => {
    const [first, ...rest] = channels.map((c) => tally.get(part, c, kind).at.join(","));
    return rest.every((r) => r === first);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const smoke = process.argv.includes("--smoke");
  const report = await runRecallQualitySuite({ smoke });
  for (const t of report.tables) {
    console.log(`\n${t.title}`);
    console.table(t.rows);
  }
  for (const g of report.goals) console.log(`${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  if (!smoke) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(new URL("./results/recall-quality.md", import.meta.url), report.markdown + "\n");
  }
}
