// Leave-one-out tuning for the LoCoMo suite: a lever's weights are chosen on nine conversations
// and the choice is measured on the tenth, for each of the ten. Every configuration of recall's
// pipeline (pipeline.ts) is run once per conversation and its R@10 sums kept (per kind), so the
// folds share their runs: choosing for a fold is arithmetic over the sums of the other nine.
//
//   held-out  each fold's R@10 on its own conversation with the weights chosen without it:
//             the mean of the ten figures, and pooled over the questions (per kind)
//   tuning    each fold's R@10 on its nine conversations with those weights, the mean
//   all ten   the weights chosen on all ten, measured on all ten (not held out)

import type { Engine } from "../../src/engine/index.js";
import type { Conversation } from "../../test/recall/eval/generate.js";
import { recallAt } from "./evaluate.js";
import { pipeline, type PipelineOptions } from "./pipeline.js";

/** R@10 summed over a conversation's questions, and their number, per kind and "all". */
export type Sums = Record<string, [number, number]>;

/** A stable text for a configuration (its keys sorted), the key of the runs kept. */
function keyOf(o: unknown): string {
  return JSON.stringify(o, (_, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );
}

/** Runs of configurations over a set of conversations, each configuration once. */
export class Runs {
  readonly #kept = new Map<string, Sums[]>();
  constructor(
    readonly set: readonly Conversation[],
    readonly engine: Engine,
  ) {}

  /** Configurations run so far. */
  get size(): number {
    return this.#kept.size;
  }

  /** R@10 sums of the exchanges call (its first 10 messages) per conversation. */
  async of(o: PipelineOptions): Promise<Sums[]> {
    const key = keyOf(o);
    const kept = this.#kept.get(key);
    if (kept) return kept;
    const out: Sums[] = [];
    for (const c of this.set) {
      const ranker = await pipeline("run", this.engine, o).open(c);
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
    this.#kept.set(key, out);
    return out;
  }
}

/** R@10 of a kind over the conversations `at`, pooled over their questions (NaN: none). */
export function pooled(per: readonly Sums[], at: readonly number[], kind = "all"): number {
  let sum = 0;
  let n = 0;
  for (const i of at) {
    const s = per[i]![kind];
    if (s) [sum, n] = [sum + s[0], n + s[1]];
  }
  return n === 0 ? NaN : sum / n;
}

/** What leave-one-out found for a way of choosing weights. */
export interface Fold {
  /** Per fold: the configuration chosen without it. */
  chosen: PipelineOptions[];
  /** Mean over the folds of R@10 on the nine conversations tuned on. */
  tuning: number;
  /** Mean over the folds of R@10 on the conversation held out. */
  heldOut: number;
  /** R@10 of each held-out conversation's questions, pooled, per kind and "all". */
  heldOutPooled: Record<string, number>;
}

/** Chooses, for the conversations `at`, the best configuration a search finds. */
export type Search = (runs: Runs, at: readonly number[]) => Promise<PipelineOptions>;

/** The best of a fixed family, on `at` (ties: the first). */
export const bestOf =
  (family: readonly PipelineOptions[]): Search =>
  async (runs, at) => {
    let best = family[0]!;
    let score = -1;
    for (const o of family) {
      const s = pooled(await runs.of(o), at);
      if (s > score + 1e-12) [best, score] = [o, s];
    }
    return best;
  };

/**
 * Coordinate ascent from `start`: each weight of `grid` in turn takes the value that scores
 * best on `at` (keeping the current one unless another is better by more than 0.05 points),
 * until a round changes nothing (at most `rounds`).
 */
export const ascent =
  (start: PipelineOptions, grid: Record<string, readonly number[]>, rounds = 3): Search =>
  async (runs, at) => {
    let current = start;
    let score = pooled(await runs.of(current), at);
    for (let round = 0; round < rounds; round++) {
      let moved = false;
      for (const [name, values] of Object.entries(grid)) {
        for (const v of values) {
          const next: PipelineOptions = { ...current, ranking: { ...current.ranking, [name]: v } };
          const s = pooled(await runs.of(next), at);
          if (s > score + 0.0005) [current, score, moved] = [next, s, true];
        }
      }
      if (!moved) break;
    }
    return current;
  };

/** Leave-one-out over every conversation of `runs`, with `search` choosing each fold's weights. */
export async function leaveOneOut(runs: Runs, search: Search): Promise<Fold> {
  const all = runs.set.map((_, i) => i);
  const chosen: PipelineOptions[] = [];
  let tuning = 0;
  let heldOut = 0;
  const sums: Record<string, [number, number]> = {};
  for (const i of all) {
    const others = all.filter((j) => j !== i);
    const o = await search(runs, others);
    chosen.push(o);
    const per = await runs.of(o);
    tuning += pooled(per, others);
    heldOut += pooled(per, [i]);
    for (const [kind, s] of Object.entries(per[i]!)) {
      const t = (sums[kind] ??= [0, 0]);
      t[0] += s[0];
      t[1] += s[1];
    }
  }
  const heldOutPooled = Object.fromEntries(Object.entries(sums).map(([k, [s, n]]) => [k, s / n]));
  return { chosen, tuning: tuning / all.length, heldOut: heldOut / all.length, heldOutPooled };
}
