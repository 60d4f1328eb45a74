// Scores channels on the evaluation set: recall@k is, per question, the share of its evidence
// turns among the first k turns a channel returns, averaged over the questions (of a kind,
// or all of them), separately on the tuning and the held-out conversations.

import type { Channel } from "./channels.js";
import { KINDS, type Conversation } from "../../test/recall/eval/generate.js";

export const KS = [5, 10, 20] as const;
export type Part = "tuning" | "held-out";

/** Sums of per-question recall, by part, channel, kind ("all" too) and k. */
export class Tally {
  readonly #sums = new Map<string, { n: number; at: number[] }>();

  add(part: Part, channel: string, kind: string, at: number[]): void {
    for (const key of [`${part}|${channel}|${kind}`, `${part}|${channel}|all`]) {
      const s = this.#sums.get(key) ?? { n: 0, at: KS.map(() => 0) };
      s.n++;
      at.forEach((v, i) => (s.at[i]! += v));
      this.#sums.set(key, s);
    }
  }

  /** Mean recall@k (one per KS), and the number of questions. */
  get(part: Part, channel: string, kind: string): { n: number; at: number[] } {
    const s = this.#sums.get(`${part}|${channel}|${kind}`);
    return s ? { n: s.n, at: s.at.map((v) => v / s.n) } : { n: 0, at: KS.map(() => NaN) };
  }

  /** One row per channel and kind: recall@5, @10, @20 in percent. */
  rows(part: Part, channels: readonly string[]): Record<string, string | number>[] {
    const out: Record<string, string | number>[] = [];
    for (const channel of channels) {
      for (const kind of [...KINDS, "all"]) {
        const { n, at } = this.get(part, channel, kind);
        const row: Record<string, string | number> = { channel, kind, questions: n };
        KS.forEach((k, i) => (row[`R@${k}`] = +(100 * at[i]!).toFixed(1)));
        out.push(row);
      }
    }
    return out;
  }
}

/** The conversation asked only its first `n` questions of each kind (the smoke runs: every kind, fewer questions). */
export function firstOfEachKind<C extends Conversation>(c: C, n: number): C {
  const asked = new Map<string, number>();
  const questions = c.questions.filter((q) => {
    asked.set(q.kind, (asked.get(q.kind) ?? 0) + 1);
    return asked.get(q.kind)! <= n;
  });
  return { ...c, questions };
}

/** Share of `evidence` among the first k of `ranked`, for each k of `ks` (default KS). */
export function recallAt(ranked: readonly number[], evidence: readonly number[], ks: readonly number[] = KS): number[] {
  return ks.map((k) => {
    const top = new Set(ranked.slice(0, k));
    return evidence.filter((e) => top.has(e)).length / evidence.length;
  });
}

/**
 * Runs every channel on every conversation; `perK` channels are asked once per k (ctxloom's
 * recall: its first k messages depend on k), the others once for the largest k.
 */
export async function evaluate(
  conversations: readonly Conversation[],
  channels: readonly Channel[],
  perK: ReadonlySet<string>,
  tally = new Tally(),
): Promise<Tally> {
  const kMax = KS[KS.length - 1]!;
  for (const c of conversations) {
    const part: Part = c.heldOut ? "held-out" : "tuning";
    for (const channel of channels) {
      const ranker = await channel.open(c);
      for (const q of c.questions) {
        let at: number[];
        if (perK.has(channel.name)) {
          at = [];
          for (const [i, k] of KS.entries()) at.push(recallAt(await ranker.rank(q.question, k), q.evidence)[i]!);
        } else {
          at = recallAt(await ranker.rank(q.question, kMax), q.evidence);
        }
        tally.add(part, channel.name, q.kind, at);
      }
      await ranker.close?.();
    }
  }
  return tally;
}
