// The recall-locomo suite (issue 36): recall@10 of the evidence turns on LoCoMo's ten long
// two-person conversations (1,536 questions: temporal, open-domain, multi-hop, single-hop),
// the public benchmark the outside measurement used. The data is read at run time
// (bench/recall-eval/locomo.ts: $CTXLOOM_LOCOMO); without it the suite says why and measures
// nothing. R@10: per question, the share of its evidence turns among the first 10 messages
// returned, averaged (per kind, and all), for
//   - ctxloom's recall of a chat holding each conversation, appended (as the outside
//     measurement made them) and as it happened (names, session times), asked with
//     chat.recall(q, { prompts: 10, answersPerPrompt: 0, recent: 0 }) and with { k: 10 },
//   - BM25 over the turns: the plain words (recall-quality's reference) and with stop words out
//     (what reproduces the outside measurement's BM25 figures),
//   - the levers alone and together, their weights chosen leave-one-out (locomo-levers.ts).
//
//   node --import ./bench/ts-loader.mjs bench/recall-locomo.ts [--smoke]
//   npm run bench recall-locomo

import { WasmEngine, embeddedModule } from "../src/engine/index.js";
import { bm25Reference, lexicalCore, type Channel } from "./recall-eval/channels.js";
import { firstOfEachKind, recallAt } from "./recall-eval/evaluate.js";
import { LOCOMO_KINDS, OUTSIDE, locomoFolder, readLocomo, type LocomoConversation } from "./recall-eval/locomo.js";
import { locomoChat } from "./recall-eval/locomo-chat.js";
import { locomoLeverRows, locomoLevers } from "./recall-eval/locomo-levers.js";
import { Runs, pooled, type Sums } from "./recall-eval/loo.js";
import { pipeline } from "./recall-eval/pipeline.js";
import type { Goal, SuiteOptions, SuiteReport } from "./report.js";

type Row = Record<string, string | number>;

function table(rows: Row[]): string {
  const keys = Object.keys(rows[0]!);
  return [
    `| ${keys.join(" | ")} |`,
    `| ${keys.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`),
  ].join("\n");
}

/** R@10 sums of a channel per conversation. */
async function sumsOf(set: readonly LocomoConversation[], channel: Channel): Promise<Sums[]> {
  const out: Sums[] = [];
  for (const c of set) {
    const ranker = await channel.open(c);
    const sums: Sums = {};
    for (const q of c.questions) {
      const v = recallAt(await ranker.rank(q.question, 10), q.evidence, [10])[0]!;
      for (const kind of [q.kind, "all"]) {
        const s = (sums[kind] ??= [0, 0]);
        s[0] += v;
        s[1]++;
      }
    }
    await ranker.close?.();
    out.push(sums);
  }
  return out;
}

const KIND_COLUMNS = [...LOCOMO_KINDS, "all"];
const pct = (x: number) => +(100 * x).toFixed(1);

function shapeRows(set: readonly LocomoConversation[]): Row[] {
  return set.map((c) => {
    const row: Row = {
      conversation: `${c.id} (${c.file})`,
      speakers: c.speakers.join(", "),
      sessions: c.sessions.length,
      turns: c.turns.length,
    };
    for (const kind of LOCOMO_KINDS) row[kind] = c.questions.filter((q) => q.kind === kind).length;
    row["left out (no evidence turn)"] = c.dropped;
    return row;
  });
}

function skipped(reason: string): SuiteReport {
  console.log(`recall-locomo: skipped: ${reason}`);
  return {
    name: "recall-locomo",
    tables: [{ title: "LoCoMo", rows: [{ skipped: reason }] }],
    goals: [
      { goal: "LoCoMo's conversations read (from $CTXLOOM_LOCOMO)", target: "present", measured: reason, pass: false },
    ],
    markdown: `LoCoMo recall: not measured: ${reason}. Set $CTXLOOM_LOCOMO to the folder of LoCoMo's conversations (snap-research/locomo, data/locomo10.zip).`,
  };
}

/** Questions of each kind a conversation is asked in the smoke run (of its 11 to 70). */
const SMOKE_QUESTIONS = 8;

export async function runRecallLocomoSuite(options: SuiteOptions): Promise<SuiteReport> {
  const { folder, reason } = locomoFolder();
  if (!folder) return skipped(reason);
  const all = readLocomo(folder);
  const set = options.smoke ? all.slice(0, 2).map((c) => firstOfEachKind(c, SMOKE_QUESTIONS)) : all;
  const wasm = await WasmEngine.create(await embeddedModule());
  const t0 = performance.now();

  // ctxloom's recall of real chats, both calls, both ways of holding, both engines; BM25; the levers' harness at the defaults.
  const channels: Channel[] = [
    bm25Reference,
    lexicalCore(wasm, { stem: "none", stopWords: true }),
    ...(["appended", "as it happened"] as const).flatMap((held) =>
      (["exchanges", "top k"] as const).flatMap((call) => [
        locomoChat("wasm", call, held),
        locomoChat("js", call, held),
      ]),
    ),
    pipeline("recall's pipeline, defaults, appended (wasm)", wasm),
    pipeline("recall's pipeline, defaults, as it happened (wasm)", wasm, { names: true, times: true }),
  ];
  const measured = new Map<string, Sums[]>();
  for (const c of channels) measured.set(c.name, await sumsOf(set, c));
  const everyone = set.map((_, i) => i);
  const r10 = (name: string, kind = "all") => pooled(measured.get(name)!, everyone, kind);
  const chatRows: Row[] = channels.map((c) => {
    const row: Row = { channel: c.name };
    for (const kind of KIND_COLUMNS) row[kind] = pct(r10(c.name, kind));
    return row;
  });
  chatRows.push(
    {
      channel: "outside measurement: ctxloom before the levers (issue 36)",
      ...Object.fromEntries(KIND_COLUMNS.map((k, i) => [k, OUTSIDE.ctxloom[i]!])),
    },
    {
      channel: "outside measurement: BM25 (issue 36)",
      ...Object.fromEntries(KIND_COLUMNS.map((k, i) => [k, OUTSIDE.bm25[i]!])),
    },
  );
  const chatSeconds = (performance.now() - t0) / 1000;

  const t1 = performance.now();
  const runs = new Runs(set, wasm);
  const levers = locomoLevers(options.smoke);
  const { rows: leverRows, folds } = await locomoLeverRows(runs, levers);
  const leverSeconds = (performance.now() - t1) / 1000;

  const same = (a: string, b: string) => KIND_COLUMNS.every((k) => r10(a, k) === r10(b, k));
  const name = (call: string, held: string, engine: string) => `ctxloom recall, ${call}, ${held} (${engine})`;
  const byName = (n: string) => folds[levers.findIndex((l) => l[0] === n)]!;
  const today = byName("together: today's defaults (chosen with all ten in view), appended");
  const tuned = byName("together, every weight chosen per fold, appended");
  const tunedHappened = byName("together, every weight chosen per fold, as it happened");
  const happened = byName("together: today's defaults (chosen with all ten in view), as it happened");
  const topK = byName("top k: every weight chosen per fold, appended");
  const topKHappened = byName("top k: every weight chosen per fold, as it happened");
  const goals: Goal[] = [
    ...(["appended", "as it happened"] as const).map((held) => ({
      goal: `recall's pipeline (the levers' harness) at its defaults ranks as chat.recall, ${held}`,
      target: "same R@10, every kind",
      measured: same(`recall's pipeline, defaults, ${held} (wasm)`, name("exchanges", held, "wasm"))
        ? "same"
        : "differs",
      pass: same(`recall's pipeline, defaults, ${held} (wasm)`, name("exchanges", held, "wasm")),
    })),
    ...(["appended", "as it happened"] as const).flatMap((held) =>
      (["exchanges", "top k"] as const).map((call) => ({
        goal: `${call}, ${held}: both engines rank alike`,
        target: "same R@10, every kind",
        measured: same(name(call, held, "wasm"), name(call, held, "js")) ? "same" : "differs",
        pass: same(name(call, held, "wasm"), name(call, held, "js")),
      })),
    ),
    ...(
      [
        ["today's defaults (not held out: chosen with all ten in view), appended", today],
        ["today's defaults (not held out), as it happened", happened],
        ["every weight chosen per fold, appended", tuned],
        ["every weight chosen per fold, as it happened", tunedHappened],
        ["top k, every weight chosen per fold, appended", topK],
        ["top k, every weight chosen per fold, as it happened", topKHappened],
      ] as const
    ).map(([what, f]) => ({
      goal: `held-out R@10 (leave-one-out, mean of the folds), ${what}`,
      target: ">= 75.0",
      measured: (100 * f.heldOut).toFixed(1),
      pass: f.heldOut >= 0.75,
    })),
    ...(
      [
        ["today's defaults, appended (not held out)", today],
        ["weights chosen per fold, appended (held out)", tuned],
        ["weights chosen per fold, as it happened (held out)", tunedHappened],
      ] as const
    ).map(([held, f]) => ({
      goal: `every kind at least 5 points above the outside measurement's figure: ${held}`,
      target: LOCOMO_KINDS.map((_, i) => (OUTSIDE.ctxloom[i]! + 5).toFixed(1)).join(" / "),
      measured: LOCOMO_KINDS.map((k) => (100 * f.heldOutPooled[k]!).toFixed(1)).join(" / "),
      pass: LOCOMO_KINDS.every((k, i) => 100 * f.heldOutPooled[k]! >= OUTSIDE.ctxloom[i]! + 5),
    })),
    {
      goal: "the outside call (exchanges, appended) ahead of BM25 (stop words out) in every kind",
      target: LOCOMO_KINDS.map((k) => pct(r10(channels[1]!.name, k))).join(" / "),
      measured: LOCOMO_KINDS.map((k) => pct(r10(name("exchanges", "appended", "wasm"), k))).join(" / "),
      pass: LOCOMO_KINDS.every((k) => r10(name("exchanges", "appended", "wasm"), k) > r10(channels[1]!.name, k)),
    },
  ];

  const questions = set.reduce((n, c) => n + c.questions.length, 0);
  const markdown = [
    `Recall on LoCoMo (snap-research/locomo, locomo10: ${set.length} conversations, ${questions} questions of categories 1-4; ${reason}${options.smoke ? `; smoke: 2 conversations, ${SMOKE_QUESTIONS} questions of each kind` : ""}).`,
    "Categories as the LoCoMo paper numbers them: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop (5, adversarial, left out). An image a turn shares is kept as its caption.",
    "R@10: per question, the share of its evidence turns among the first 10 messages returned, averaged, in percent.",
    "Appended: each turn appended to a chat as its user's or assistant's message (no names; no pauses between sessions), as the outside measurement made its chats (with the code before the levers this reproduces its figures: 69.5 / 25.6 / 31.4 / 74.9, all 62.9, against its 69.5 / 25.6 / 31.8 / 75.0, 63.0).",
    "As it happened: each message with its speaker's name and its session's date and time (chats.import).",
    `${chatSeconds.toFixed(0)} s for the chats, ${leverSeconds.toFixed(0)} s for the levers (${runs.size} configurations, each over every conversation).`,
    "",
    table(shapeRows(set)),
    "",
    "### recall@10 by kind, all ten conversations",
    "",
    "exchanges: the first 10 messages of chat.recall(q, { prompts: 10, answersPerPrompt: 0, recent: 0 }) (the outside measurement's call); top k: chat.recall(q, { k: 10 }). BM25: k1 1.2, b 0.75, over every turn.",
    "",
    table(chatRows),
    "",
    "### the levers, leave-one-out",
    "",
    'The exchanges call unless the row says top k. Each lever alone (added to the ranking before them, appended unless it needs names or times) and together. A lever\'s weight is chosen per fold among the values listed, on the nine other conversations; "together, every weight chosen per fold" runs a coordinate ascent over every weight (bench/recall-eval/locomo-levers.ts, GRID). Tuning: the mean over the folds of R@10 on the nine; held-out: the mean over the folds of R@10 on the tenth (per kind: every held-out question pooled); all ten: the weights chosen on all ten, measured on them (not held out).',
    "",
    table(leverRows),
    "",
  ].join("\n");
  return {
    name: "recall-locomo",
    tables: [
      { title: "LoCoMo conversations", rows: shapeRows(set) },
      { title: "recall@10 by kind, all ten conversations", rows: chatRows },
      { title: "the levers, leave-one-out", rows: leverRows },
    ],
    goals,
    markdown,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const smoke = process.argv.includes("--smoke");
  const report = await runRecallLocomoSuite({ smoke });
  for (const t of report.tables) {
    console.log(`\n${t.title}`);
    console.table(t.rows);
  }
  for (const g of report.goals)
    console.log(`${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  if (!smoke && report.tables.length > 1) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(new URL("./results/recall-locomo.md", import.meta.url), report.markdown + "\n");
  }
}
