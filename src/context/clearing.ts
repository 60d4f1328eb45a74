// Which tool results a context clears: a pure function of the branch (the head's path from its
// root) and the policy, so that any process, either engine and a restored chat clear the same.
//
// Along the path, each tool result that arrives makes the one `keepNewest` results before it old
// (every result counts, cleared or not); the old one's tokens (less an estimate of the
// placeholder's) add to what is pending. Once pending reaches `atLeast`, and is at least what
// follows that result on the path (the newest results and the steps between: what a provider's
// cache bills again once the request changes before them), the boundary jumps to that result:
// every clearable result up to it is cleared, and pending starts again from 0. So the newest
// `keepNewest` results are always whole, and the cleared set grows in batches that pay for the
// cache they break: between two batches the start of the request stays the same, and a
// provider's prompt cache keeps hitting. (On public agent runs, replayed in bench/agent.bench.ts,
// a batch the size of what follows it bills less and sends less than a fixed batch size.)
//
// The state after a node depends on its path alone: it is kept for the heads the chat built at
// (a few per chat), and a build goes on from the deepest one on its path (an agent's next step:
// the few messages since its last build), or from the root.
import { CRITICAL, ROLE_TOOL, type Engine } from "../engine/types.js";
import type { ClearPolicy } from "../models/tool-results.js";

/** The tokens a placeholder is taken to cost when deciding what to clear (its real count is taken for the request). */
export const PLACEHOLDER_ESTIMATE = 8;

/** The clearing state after a node of the path. */
interface ClearState {
  /** The id of the newest result cleared: results at or above it on the path are (those that can be); -1: none. */
  boundary: number;
  /** Tokens old results not yet cleared would save. */
  pending: number;
  /**
   * The newest `keepNewest` results, oldest first: their ids, what clearing each saves (0: it cannot be), and `total`
   * through them.
   */
  recent: { id: number; saving: number; through: number }[];
  /** Tokens of the path so far. */
  total: number;
}

/** What a chat keeps between builds: the states at the heads it built at, by policy. */
export class ClearingCache {
  #key = "";
  #states = new Map<number, ClearState>();

  /** The states kept for `policy` (dropping those of another policy). */
  statesFor(policy: ClearPolicy): Map<number, ClearState> {
    const key = `${policy.keepNewest}|${policy.atLeast}|${policy.exclude.join("\u0000")}`;
    if (key !== this.#key) {
      this.#key = key;
      this.#states = new Map();
    }
    return this.#states;
  }
}

const KEPT_STATES = 8;

/** What the decision reads of a chat beyond the engine's numbers. */
export interface ClearingSource {
  engine: Engine;
  tree: number;
  /** The name of the tool whose call tool result `id` answers. */
  toolName(id: number): string;
}

/**
 * The newest tool result cleared at `head` (-1: none): the results on the head's path up to it
 * are cleared, unless excluded or CRITICAL; every later one is sent whole. O(messages since the
 * deepest state kept on the path); the state at `head` is kept for the next build.
 */
export function clearedThrough(
  source: ClearingSource,
  head: number,
  policy: ClearPolicy,
  cache: ClearingCache,
): number {
  const { engine: e, tree: t } = source;
  const states = cache.statesFor(policy);
  const depth = e.depth(t, head);
  // The deepest kept state on the path (an agent's last build), else the root.
  let from = -1;
  let fromDepth = -1;
  let n = depth + 1;
  for (const id of states.keys()) {
    const d = e.depth(t, id);
    if (d > depth || d <= fromDepth) continue;
    const k = e.walk(t, head, depth - d + 1);
    if (e.ids[0] === id) {
      from = id;
      fromDepth = d;
      n = k - 1;
    }
  }
  const base = from >= 0 ? states.get(from)! : undefined;
  const state: ClearState = base
    ? { ...base, recent: [...base.recent] }
    : { boundary: -1, pending: 0, recent: [], total: 0 };
  if (n > 0) {
    const k = e.walk(t, head, n);
    const ids = e.ids.slice(0, k);
    const excluded = policy.exclude.length > 0 ? new Set(policy.exclude) : null;
    for (const id of ids) {
      state.total += e.tokens(t, id);
      if (e.role(t, id) !== ROLE_TOOL) continue;
      const clearable = e.priority(t, id) !== CRITICAL && !excluded?.has(source.toolName(id));
      step(state, id, clearable ? Math.max(0, e.tokens(t, id) - PLACEHOLDER_ESTIMATE) : 0, policy);
    }
  }
  if (!states.has(head)) {
    if (states.size >= KEPT_STATES) states.delete(states.keys().next().value!);
    states.set(head, state);
  }
  return state.boundary;
}

/** One more tool result on the path, `id`, saving `saving` tokens once cleared (0: it cannot be). */
function step(s: ClearState, id: number, saving: number, policy: ClearPolicy): void {
  s.recent.push({ id, saving, through: s.total });
  if (s.recent.length <= policy.keepNewest) return;
  const old = s.recent.shift()!; // the result keepNewest before this one is old now
  s.pending += old.saving;
  if (s.pending > 0 && s.pending >= policy.atLeast && s.pending >= s.total - old.through) {
    s.boundary = old.id;
    s.pending = 0;
  }
}
