import type { SummaryTree } from "./tree.js";

/** A summary of a tree: the tokens of what it replaced on the summarized path, and its own. */
export interface SummaryEntry {
  id: number;
  replaced: number;
  tokens: number;
}

/** Summary counts of a chat, for `chat.stats()`. */
export interface SummaryCounts {
  compressions: number;
  tokensSaved: number;
  compressionRatio: number;
}

/**
 * The summaries of one tree: attaches each to the engine as a skip pointer over its run,
 * and keeps what the tree must know of them afterwards (which runs a new summary may not
 * cut, what each saved).
 */
export class SummaryLedger {
  readonly #tree: SummaryTree;
  /** The summaries of this tree, oldest first. */
  readonly entries: SummaryEntry[] = [];
  /** Summaries inside a later summary's run (what an overlap check may skip: the outer one stands for them). */
  readonly #nested = new Set<number>();

  constructor(tree: SummaryTree) {
    this.#tree = tree;
  }

  /**
   * Attaches summary `id` over the run [first..last] (a summary is no child: the engine
   * hangs it on the last node of its run) and records it. O(run) plus the engine's attach.
   */
  attach(id: number, first: number, last: number, tokens: number, priority: number): void {
    const { engine, tree } = this.#tree;
    const inner: number[] = [];
    const replaced = this.visibleRunTokens(first, last, inner);
    engine.attachSummary(tree, first, last, tokens, priority);
    for (const n of inner) this.#nested.add(n);
    this.entries.push({ id, replaced, tokens });
  }

  /**
   * Tokens of the run [first..last] as the summarized path shows it today (an earlier
   * summary inside it counts as itself; its id goes into `summaries` when given). O(run):
   * one summarized walk from `last`.
   */
  visibleRunTokens(first: number, last: number, summaries?: number[]): number {
    const { engine: e, tree: t } = this.#tree;
    const top = e.depth(t, first);
    const n = e.walkSummarized(t, last, e.depth(t, last) - top + 1, true); // as the branches below last see it
    const ids = e.ids.slice(0, n);
    let sum = 0;
    for (let i = n - 1; i >= 0 && e.depth(t, ids[i]!) >= top; i--) {
      sum += e.tokens(t, ids[i]!);
      if (summaries && this.#tree.isSummary(ids[i]!)) summaries.push(ids[i]!);
    }
    return sum;
  }

  /**
   * True when a summary's run shares a node with [first..last] without lying whole inside it
   * (what the engine refuses), on any branch. Only outermost summaries are checked (one whose
   * run holds another stands for it): O(outermost summaries x distance walked).
   */
  overlaps(first: number, last: number): boolean {
    const tree = this.#tree;
    const { engine: e, tree: t } = tree;
    for (const s of this.entries) {
      if (this.#nested.has(s.id)) continue; // inside an outer summary: checking the outer one suffices
      const f = e.summaryFirst(t, s.id);
      const l = e.summaryLast(t, s.id);
      const inside = tree.isAncestor(first, f) && tree.isAncestor(l, last);
      if (inside) continue;
      // Two chains share a node when the deeper start lies on both.
      const deeper = e.depth(t, f) >= e.depth(t, first) ? f : first;
      const shallower = deeper === f ? first : f;
      if (tree.isAncestor(shallower, deeper) && tree.isAncestor(deeper, l) && tree.isAncestor(deeper, last))
        return true;
    }
    return false;
  }

  /**
   * What the summaries save where they stand (what they replaced less their own tokens) and their average ratio (1:
   * none).
   */
  counts(): SummaryCounts {
    let saved = 0;
    let ratios = 0;
    for (const s of this.entries) {
      saved += s.replaced - s.tokens;
      ratios += s.tokens > 0 ? s.replaced / s.tokens : 1;
    }
    const count = this.entries.length;
    return { compressions: count, tokensSaved: saved, compressionRatio: count === 0 ? 1 : ratios / count };
  }
}
