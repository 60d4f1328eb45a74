// Dated questions for the dates lever (issue 36, item 1): the evaluation set's single-hop
// questions with one evidence turn, each with the month of its evidence's session added
// ("Where did Matthew move to, in January 2023?"), asked of turns that carry their times. The
// questions are the set's own, the added month is read from the evidence turn: a question
// that names when something was said, as a person asks when they remember the month.

import type { Engine } from "../../src/engine/index.js";
import type { Conversation } from "../../test/recall/eval/generate.js";
import { recallAt } from "./evaluate.js";
import { pipeline } from "./pipeline.js";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A conversation whose questions are the dated ones. */
export function datedQuestions(c: Conversation): Conversation {
  const questions = c.questions
    .filter((q) => q.kind === "single-hop" && q.evidence.length === 1)
    .map((q) => {
      const at = new Date(c.turns[q.evidence[0]!]!.at);
      return {
        ...q,
        question: `${q.question.replace(/\?$/, "")}, in ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}?`,
      };
    });
  return { ...c, questions };
}

/** R@10 of the outside call on the dated questions, turns with their times and names, at several weights of the dates lever. */
export async function datedRows(
  engine: Engine,
  conversations: readonly Conversation[],
): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const part of ["tuning", "held-out"] as const) {
    const set = conversations.filter((c) => c.heldOut === (part === "held-out")).map(datedQuestions);
    const row: Record<string, string | number> = { part, questions: set.reduce((n, c) => n + c.questions.length, 0) };
    for (const dates of [0, 0.25, 0.5, 1, 2]) {
      let sum = 0;
      for (const c of set) {
        const ranker = await pipeline("dated", engine, { times: true, names: true, ranking: { dates } }).open(c);
        for (const q of c.questions) sum += recallAt(await ranker.rank(q.question, 10), q.evidence)[1]!;
        await ranker.close?.();
      }
      row[`dates ${dates}`] = +((100 * sum) / (row.questions as number)).toFixed(1);
    }
    rows.push(row);
  }
  return rows;
}
