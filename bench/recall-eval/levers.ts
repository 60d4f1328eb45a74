// The levers of issue 36, each measured alone (added to the ranking as it was before them) and
// together (today's defaults), on the tuning and the held-out conversations, through recall's
// pipeline with its parameters open (pipeline.ts: what chat.recall(q, { prompts: k, ... }) runs).

import type { Engine } from "../../src/engine/index.js";
import { RANKING, type Ranking } from "../../src/recall/rank.js";
import { KINDS } from "../../test/recall/eval/generate.js";
import type { Channel } from "./channels.js";
import type { Part, Tally } from "./evaluate.js";
import { pipeline, type PipelineOptions } from "./pipeline.js";

/** The ranking before the levers (commit a87be8e): light stems, b 0.3, dense 0.2, neighbours 0.15, nothing else. */
export const BEFORE: Ranking = {
  k1: 1.2,
  b: 0.3,
  window: 0,
  segment: 0,
  dense: 0.2,
  embedder: 0.2,
  neighbours: 0.15,
  reply: 0,
  dates: 0,
  question: 1,
  short: 1,
  candidates: 100,
};
const before = (o: PipelineOptions = {}): PipelineOptions => ({
  ...o,
  terms: { stem: "light", ...o.terms },
  ranking: { ...BEFORE, ...o.ranking },
  segments: o.segments,
});

/** Each lever: its name and the pipeline's options. */
export const LEVERS: readonly [string, PipelineOptions][] = [
  ["before (light stems, b 0.3, dense 0.2, neighbours 0.15)", before()],
  ["before, b 0.75 (the textbook length normalisation)", before({ ranking: { b: 0.75 } })],
  ["+ Snowball stems alone", before({ terms: { stem: "snowball" } })],
  ["+ b 0.2, k1 1.0 alone", before({ ranking: { b: 0.2, k1: 1 } })],
  [`+ windows alone (window ${RANKING.window})`, before({ ranking: { window: RANKING.window } })],
  [`+ segments alone, fixed blocks (segment ${RANKING.segment})`, before({ ranking: { segment: RANKING.segment } })],
  [
    "+ segments alone, sessions (turns carry their times)",
    before({ ranking: { segment: RANKING.segment }, times: true }),
  ],
  ["+ speakers' names alone (turns carry their name)", before({ names: true })],
  [
    `+ reply lift alone (a question's reply gains ${RANKING.reply} of its score)`,
    before({ ranking: { reply: RANKING.reply } }),
  ],
  [`+ prior against short turns alone (x ${RANKING.short})`, before({ ranking: { short: RANKING.short } })],
  ["+ prior against question turns alone (x 0.8; off by default)", before({ ranking: { question: 0.8 } })],
  [`dense weight ${RANKING.dense} alone (was 0.2)`, before({ ranking: { dense: RANKING.dense } })],
  ["together: today's defaults (no names, no times: the outside benchmark's call)", {}],
  ["together, with names", { names: true }],
  ["together, with names and times", { names: true, times: true }],
  ["together, without windows", { ranking: { window: 0 } }],
  ["together, without segments", { ranking: { segment: 0 } }],
  ["together, without Snowball (light stems)", { terms: { stem: "light" } }],
  ["together, without the short-turn prior", { ranking: { short: 1 } }],
  ["together, without the reply lift", { ranking: { reply: 0 } }],
  ["together, with the question-turn prior (x 0.8)", { ranking: { question: 0.8 } }],
];

/** The levers as channels of the suite. */
export const leverChannels = (engine: Engine): Channel[] =>
  LEVERS.map(([name, o]) => pipeline(`lever: ${name}`, engine, o));

/** One row per lever: R@10 on both parts (and the change from "before"), and R@10 per kind on each. */
export function leverRows(tally: Tally, channels: readonly Channel[]): Record<string, string | number>[] {
  const r10 = (part: Part, name: string, kind = "all") => 100 * tally.get(part, name, kind).at[1]!;
  const base = channels[0]!.name;
  return channels.map((c) => {
    const row: Record<string, string | number> = { lever: c.name.replace(/^lever: /, "") };
    for (const part of ["tuning", "held-out"] as const) {
      row[`${part} R@10`] = +r10(part, c.name).toFixed(1);
      row[`${part} change`] =
        (r10(part, c.name) - r10(part, base) >= 0 ? "+" : "") + (r10(part, c.name) - r10(part, base)).toFixed(1);
    }
    for (const part of ["tuning", "held-out"] as const) {
      row[`${part}: ${KINDS.join(" / ")}`] = KINDS.map((k) => r10(part, c.name, k).toFixed(1)).join(" / ");
    }
    return row;
  });
}
