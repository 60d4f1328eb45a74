// The multilingual part of the recall-quality suite (issue 36): a conversation per language
// (test/recall/eval/multilingual.ts), its planted facts asked for in other forms of their
// words, through recall's pipeline with today's term handling and with the handling before
// it (English stop words and light English stems for every language, no cut for scripts
// without spaces). R@1 and R@10 of the outside benchmark's call, per language.

import type { Engine } from "../../src/engine/index.js";
import { multilingualSet } from "../../test/recall/eval/multilingual.js";
import type { Conversation } from "../../test/recall/eval/generate.js";
import { recallAt } from "./evaluate.js";
import { pipeline, type PipelineOptions } from "./pipeline.js";

/** A language's conversation in the evaluation set's shape (one session, questions of one kind). */
function asConversation(c: ReturnType<typeof multilingualSet>[number], id: number): Conversation {
  return {
    id,
    seed: 0,
    heldOut: false,
    speakers: ["A", "B"],
    sessions: [],
    turns: c.turns.map((text, i) => ({
      id: i,
      session: 0,
      speaker: (i % 2) as 0 | 1,
      text,
      at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    })),
    questions: c.questions.map((q, i) => ({
      id: `m${id}-${i}`,
      conversation: id,
      kind: "single-hop",
      question: q.question,
      answer: "",
      evidence: [q.evidence],
    })),
  };
}

/** One row per language: R@1 and R@10 before and now. */
export async function multilingualRows(engine: Engine): Promise<Record<string, string | number>[]> {
  const configs: [string, PipelineOptions][] = [
    ["before", { terms: { stem: "light" } }],
    ["now", {}],
  ];
  const rows: Record<string, string | number>[] = [];
  const sums = configs.map(() => [0, 0, 0]);
  for (const [i, c] of multilingualSet().entries()) {
    const row: Record<string, string | number> = { language: c.language, questions: c.questions.length };
    for (const [j, [name, o]] of configs.entries()) {
      const ranker = await pipeline(name, engine, o).open(asConversation(c, i));
      let r1 = 0;
      let r10 = 0;
      for (const q of c.questions) {
        r1 += recallAt(await ranker.rank(q.question, 1), [q.evidence], [1])[0]!;
        r10 += recallAt(await ranker.rank(q.question, 10), [q.evidence], [10])[0]!;
      }
      await ranker.close?.();
      row[`${name} R@1`] = +((100 * r1) / c.questions.length).toFixed(1);
      row[`${name} R@10`] = +((100 * r10) / c.questions.length).toFixed(1);
      sums[j]![0]! += r1;
      sums[j]![1]! += r10;
      sums[j]![2]! += c.questions.length;
    }
    rows.push(row);
  }
  const all: Record<string, string | number> = { language: "all", questions: sums[0]![2]! };
  configs.forEach(([name], j) => {
    all[`${name} R@1`] = +((100 * sums[j]![0]!) / sums[j]![2]!).toFixed(1);
    all[`${name} R@10`] = +((100 * sums[j]![1]!) / sums[j]![2]!).toFixed(1);
  });
  rows.push(all);
  return rows;
}
