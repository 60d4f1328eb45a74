// The levers of issue 36 on LoCoMo, each alone (added to the ranking before them, its weight
// chosen per fold among a few) and together (today's defaults, and every weight chosen per fold
// by coordinate ascent), under leave-one-out (loo.ts): tuned on nine conversations, measured
// on the tenth. Two ways of holding a conversation: appended (turns as a chat's user and
// assistant, no names, no times: how the outside measurement appended them) and as it happened
// (each turn with its speaker's name and its session's time).

import { RANKING } from "../../src/recall/rank.js";
import { BEFORE } from "./levers.js";
import { LOCOMO_KINDS } from "./locomo.js";
import { ascent, bestOf, leaveOneOut, pooled, type Fold, type Runs, type Search } from "./loo.js";
import type { PipelineOptions } from "./pipeline.js";

/** The ranking before the levers (as the recall-quality suite's first row), light stems. */
const before = (o: PipelineOptions = {}): PipelineOptions => ({
  ...o,
  terms: { stem: "light", ...o.terms },
  ranking: { ...BEFORE, ...o.ranking },
});
/** Each value of one weight, on top of `base`. */
const family = (base: PipelineOptions, name: string, values: readonly number[]) =>
  values.map((v): PipelineOptions => ({ ...base, ranking: { ...base.ranking, [name]: v } }));

const HAPPENED = { names: true, times: true } as const;

/** The ranking of issue 36's first round as it shipped (commit 37cf311). */
const ROUND_1 = {
  k1: 1,
  b: 0.2,
  window: 0.5,
  segment: 0.8,
  dense: 0.05,
  embedder: 1,
  neighbours: 0.15,
  reply: 0,
  dates: 0.5,
  question: 1,
  short: 0.6,
  candidates: 100,
};

/** Every weight the together rows may choose, and their values. */
export const GRID: Record<string, readonly number[]> = {
  k1: [0.8, 1, 1.2],
  b: [0.1, 0.2, 0.3, 0.5],
  window: [0.5, 1, 1.5, 2],
  segment: [0.4, 0.8, 1.2],
  dense: [0, 0.05, 0.1],
  neighbours: [0.15, 0.25, 0.4],
  reply: [0, 0.15, 0.3, 0.45],
  dates: [0.5, 1, 2],
  question: [0.85, 1],
  short: [0.6, 1],
};
const SMOKE_GRID: Record<string, readonly number[]> = { window: [0.5, 1], reply: [0, 0.3] };

/**
 * A row: its name, how each fold chooses (a fixed configuration is a family of one), and what
 * it shows of the weights chosen: one weight's value, "fixed", or (undefined) every change from today's defaults.
 */
export type Lever = [string, Search, string?];

export function locomoLevers(smoke: boolean): Lever[] {
  const b = before();
  const one = (name: string, o: PipelineOptions): Lever => [name, bestOf([o]), "fixed"];
  // A lever alone: its weight chosen per fold among `values` (the first is the ranking before it), shown in the row.
  const alone = (name: string, base: PipelineOptions, weight: string, values: readonly number[]): Lever => [
    name,
    bestOf(family(base, weight, values)),
    weight,
  ];
  const times = before({ times: true });
  const [grid, rounds] = smoke ? [SMOKE_GRID, 1] : [GRID, 3];
  return [
    one("before (light stems, b 0.3, dense 0.2, neighbours 0.15), appended", b),
    one("+ Snowball stems alone", before({ terms: { stem: "snowball" } })),
    alone("+ b alone (0.75 0.5 0.3 0.2 0.1)", b, "b", [0.3, 0.75, 0.5, 0.2, 0.1]),
    alone("+ windows alone (0.5 1 1.5 2)", b, "window", [0, 0.5, 1, 1.5, 2]),
    alone("+ neighbours' share alone (0 0.15 0.25 0.4)", b, "neighbours", [0.15, 0, 0.25, 0.4]),
    alone("+ reply lift alone (0.15 0.3 0.45)", b, "reply", [0, 0.15, 0.3, 0.45]),
    alone("+ segments alone, fixed blocks (0.4 0.8 1.2)", b, "segment", [0, 0.4, 0.8, 1.2]),
    alone("+ segments alone, sessions (times; 0.4 0.8 1.2)", times, "segment", [0, 0.4, 0.8, 1.2]),
    one("+ speakers' names alone", before({ names: true })),
    alone("+ dates the question names alone (times; 0.5 1 2)", times, "dates", [0, 0.5, 1, 2]),
    alone("+ prior against short turns alone (0.8 0.6 0.4)", b, "short", [1, 0.8, 0.6, 0.4]),
    alone("+ prior against question turns alone (0.85 0.7)", b, "question", [1, 0.85, 0.7]),
    alone("+ dense weight alone (0.1 0.05 0)", b, "dense", [0.2, 0.1, 0.05, 0]),
    one("together: round 1's defaults, appended", { ranking: ROUND_1 }),
    one("together: round 1's defaults, as it happened", { ranking: ROUND_1, ...HAPPENED }),
    one("together: today's defaults (chosen with all ten in view), appended", {}),
    one("together: today's defaults (chosen with all ten in view), as it happened", HAPPENED),
    // From round 1's weights (chosen without LoCoMo), so that nothing of the held-out conversation leaks in.
    ...(
      [
        ["appended", {}],
        ["as it happened", HAPPENED],
      ] as const
    ).map(
      ([held, o]): Lever => [
        `together, every weight chosen per fold, ${held}`,
        ascent({ ranking: ROUND_1, ...o }, grid, rounds),
      ],
    ),
    one("top k: today's defaults, appended", { topK: true }),
    one("top k: today's defaults, as it happened", { topK: true, ...HAPPENED }),
    ...(
      [
        ["appended", {}],
        ["as it happened", HAPPENED],
      ] as const
    ).map(
      ([held, o]): Lever => [
        `top k: every weight chosen per fold, ${held}`,
        ascent({ ranking: ROUND_1, topK: true, ...o }, grid, rounds),
      ],
    ),
  ];
}

/** The chosen weights of a fold: `only` that one, or the changes from today's defaults ("-": none). */
function changes(o: PipelineOptions, only?: string): string {
  const r = (o.ranking ?? {}) as Record<string, number>;
  if (only === "fixed") return "fixed";
  if (only !== undefined) return `${only} ${r[only]}`;
  const d = RANKING as unknown as Record<string, number>;
  const moved = Object.keys(r)
    .filter((k) => r[k] !== d[k])
    .map((k) => `${k} ${r[k]}`);
  if (o.terms?.stem && o.terms.stem !== "snowball") moved.push(`stem ${o.terms.stem}`);
  return moved.length === 0 ? "-" : moved.join(", ");
}

/** One row per lever: tuning, held out (mean of the folds, and per kind pooled), all ten; and what the folds chose. */
export async function locomoLeverRows(
  runs: Runs,
  levers: readonly Lever[],
): Promise<{ rows: Record<string, string | number>[]; folds: Fold[] }> {
  const rows: Record<string, string | number>[] = [];
  const folds: Fold[] = [];
  const all = runs.set.map((_, i) => i);
  const pct = (x: number) => +(100 * x).toFixed(1);
  for (const [name, search, only] of levers) {
    const fold = await leaveOneOut(runs, search);
    folds.push(fold);
    const whole = await search(runs, all);
    const per = await runs.of(whole);
    const picked = [...new Set(fold.chosen.map((o) => changes(o, only)))];
    rows.push({
      lever: name,
      "tuning R@10": pct(fold.tuning),
      "held-out R@10": pct(fold.heldOut),
      [`held-out: ${LOCOMO_KINDS.join(" / ")}`]: LOCOMO_KINDS.map((k) =>
        (100 * fold.heldOutPooled[k]!).toFixed(1),
      ).join(" / "),
      "held-out, pooled": pct(fold.heldOutPooled.all!),
      "all ten R@10": pct(pooled(per, all)),
      "weights chosen (folds; all ten)":
        only === "fixed"
          ? "fixed"
          : `${picked.length > 3 ? `${picked.length} choices` : picked.join(" | ")}; ${changes(whole, only)}`,
    });
  }
  return { rows, folds };
}
