import type { LexicalIndex } from "./lexical.js";

/** Which implementation of the engine runs: the WebAssembly core or its TypeScript twin. */
export type EngineKind = "wasm" | "js";

/**
 * The engine keeps the shape of every conversation tree (parent, children, depth) and the
 * per-node numbers (tokens, role, priority, flags). It knows nothing of texts. Both
 * implementations behave identically; the differential tests hold them to it.
 *
 * Ids are the node's index in its tree, counting up from 0 in creation order; -1 means
 * "no node" (the parent of a root). Callers check ids before passing them.
 */
export interface Engine {
  readonly kind: EngineKind;

  /** A new empty tree. Throws OUT_OF_MEMORY when memory cannot grow. */
  createTree(): number;
  /** Frees a tree; its handle may be reused. */
  dropTree(tree: number): void;
  /**
   * Appends a node under `parent` (-1: a new root) and returns its id. `parent` is not a
   * summary node, and `flags` never holds FLAG_SUMMARY (only attachSummary makes summary
   * nodes). Amortized O(1).
   */
  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number;
  /** Makes room for `n` nodes, so that appends up to that size cannot fail. Throws OUT_OF_MEMORY. */
  reserve(tree: number, n: number): void;

  size(tree: number): number;
  parent(tree: number, id: number): number;
  depth(tree: number, id: number): number;
  tokens(tree: number, id: number): number;
  /**
   * Sets the tokens of node `id` (a message or a summary, `id < size`): what it sends was
   * rewritten (a redaction), and selections from then on count it at its new cost. O(1).
   */
  setTokens(tree: number, id: number, tokens: number): void;
  role(tree: number, id: number): number;
  /**
   * Exchanges the token counts of messages `ids` with `tokens` (each `tokens[k]` takes the
   * count of `ids[k]`, which takes `tokens[k]`): a context's view of its messages (a tool result
   * cleared or cut costs what is sent) for the selections of one build. A second call with the
   * same arrays puts every count back. Ids are messages of the tree (never summaries), given
   * once each; counts are 0..2^30. O(ids).
   */
  swapTokens(tree: number, ids: Int32Array, tokens: Int32Array): void;
  priority(tree: number, id: number): number;
  flags(tree: number, id: number): number;

  /** Children of `id` (-1: the roots), in creation order. O(children). */
  children(tree: number, id: number): number[];
  /** All nodes without children, in creation order (summary nodes are not listed). O(size). */
  leaves(tree: number): number[];
  /**
   * Writes the last `max` nodes of the path root -> `head`, oldest first, to `ids[0..n)`
   * and returns n: every original, never a summary (what `path()` restores). O(W): touches
   * only the nodes it returns.
   */
  walk(tree: number, head: number, max: number): number;
  /**
   * Like `walk`, along the summarized path (for contexts): a summary stands in for its run
   * when the walk reaches the run's `last` (an ancestor of the head), and the walk goes on
   * at the parent of the run's `first`. Never inside the head's own turn: from the
   * branch's newest user message down to the head every message is itself, so a summary
   * that would hide that message or one after it does not apply (one whose run lies above
   * it still does; a run the head lies inside is shown as originals). On a branch with no
   * user message every summary reached applies, one hanging on the head too. `fromBelow`:
   * the path as a branch going on below `head` with a newer user turn sees it (every
   * summary reached applies, one hanging on `head` too). From a summary node: the summary,
   * then the path above its run. Writes the last `max` entries, oldest first, to
   * `ids[0..n)`; returns n. O(W): one visit per entry, a jump over a run counting as one.
   */
  walkSummarized(tree: number, head: number, max: number, fromBelow?: boolean): number;

  /**
   * Attaches a summary node of `tokens` at `priority` over the run [first..last] of one
   * branch (`first` an ancestor-or-self of `last`, both messages) and returns its id, the
   * next of the tree's id sequence. The originals stay: `walk` (and so `path()`) still returns
   * them; `walkSummarized` and `select` see the summary in their place wherever `last` is on
   * the path above the head's newest user turn (on every branch below `last` that has a user
   * message after it). The summary is in no child list: `children`,
   * `leaves` (and so siblings) never show it; `parent` of it is the parent of `first`, `depth`
   * is first's, `role` 0, `flags` FLAG_SUMMARY. Throws INVALID_ARGUMENT (nothing changed)
   * when `first` is not an ancestor-or-self of `last`, when either is a summary node, when
   * the run shares nodes with an earlier summary's run without holding that run whole (a
   * summary of summaries covers each inner run whole, and stands in for all of them), or
   * when it would cut a tool unit (`first` a tool result; `last` an assistant message with
   * tool calls, or a tool result leaving calls open); OUT_OF_MEMORY when memory cannot grow.
   * Never append under a summary node. O(run + nodes below last). See docs/summaries.md.
   */
  attachSummary(tree: number, first: number, last: number, tokens: number, priority: number): number;
  /** The first (oldest) node of a summary's run; -1 for a message. O(1). */
  summaryFirst(tree: number, id: number): number;
  /**
   * The last (newest) node of a summary's run, the node it hangs on; -1 for a message. Originals it stands for:
   * depth(last) - depth(first) + 1. O(1).
   */
  summaryLast(tree: number, id: number): number;

  /**
   * Where walks leave their ids: a long-lived view, valid until the next engine call
   * (read it again after each walk: it is rebuilt when the engine's memory grows).
   */
  readonly ids: Int32Array;

  /**
   * Selects the messages of the branch ending at `head` that fit `budget` tokens, by
   * importance (see assembly/select.ts for the rules both engines follow). It runs on the
   * summarized path (see walkSummarized): a summary is one candidate in place of its run,
   * and the newest user turn forced is the branch's own (never inside a summary). From a
   * summary node: it and the path above its run, no user turn forced. Kept ids come in
   * path order. `maxMessages` (0: no bound) limits the newest messages considered; CRITICAL
   * ones count from anywhere. O(W); when a summary hangs inside the head's own turn (after a
   * checkout into a summarized run), O(W + the turn's messages). The ids are the caller's: a
   * copy, not a view the next engine call reuses (a build keeps them for its context).
   */
  select(tree: number, head: number, budget: number, maxMessages: number): Selection;

  /**
   * `select`, with the kept ids a view the next engine call may reuse (as `ids` is): for a
   * caller that reads them at once, or copies them, so that a selection makes no array of its
   * own (a build keeps a run of its chat's path by its ends: see ChatNodes.heldIds).
   */
  selectView(tree: number, head: number, budget: number, maxMessages: number): Selection;

  /** A sliding window of `maxTokens`. Throws OUT_OF_MEMORY when memory cannot grow. */
  createWindow(maxTokens: number): number;
  dropWindow(window: number): void;
  /**
   * Adds a message to a window, evicting lowest priority first, oldest first (whole tool
   * units: `unit` is the slot of the assistant message a tool result answers, or -1).
   * `slot` is the new message's slot, or REJECTED_TOO_LARGE / REJECTED_ORPHANED. The
   * evicted slots view stays valid until the next engine call.
   */
  windowAdd(window: number, tokens: number, priority: number, unit: number): { slot: number; evicted: Int32Array };
  /**
   * Evicts a whole tool unit (the assistant message at slot `unit` and its results); returns their slots (a view valid
   * until the next engine call).
   */
  windowEvictUnit(window: number, unit: number): Int32Array;
  /** The window's slots, oldest first (a view valid until the next engine call). */
  windowSlots(window: number): Int32Array;
  windowTokens(window: number): number;
  windowCount(window: number): number;

  /**
   * Nodes touched by walks and selections since `resetVisited()` (what the O(W) tests count),
   * or -1 when this engine does not count: only the counting core (build/ctxloom.counting.wasm,
   * built with COUNT_VISITS) and `new JsEngine({ countVisits: true })` count; the release
   * core and a default JsEngine pay nothing for it.
   */
  readonly visited: number;
  resetVisited(): void;
  /**
   * Bytes the engine holds for node metadata (WASM: linear memory, grown by doubling; JS: an estimate is not given,
   * -1).
   */
  memoryBytes(): number;
  /**
   * Of those, the bytes its allocator has handed out (freed blocks waiting for reuse included):
   * what is resident, as the pages above were never touched. -1 for the JS engine.
   */
  memoryUsedBytes(): number;

  /**
   * Inverted indexes with BM25 scoring, one per recall scope (see src/engine/lexical.ts); the WASM one lives in this
   * engine's memory.
   */
  readonly lexical: LexicalIndex;
}

/** What `select` returns. */
export interface Selection {
  /** False when the forced messages (CRITICAL ones and the newest user turn) alone exceed the budget. */
  fits: boolean;
  /** Kept ids, oldest first (empty when !fits). */
  ids: Int32Array;
  /** Tokens of the kept messages. */
  keptTokens: number;
  /** Tokens of the forced messages. */
  forcedTokens: number;
  /**
   * Messages of the branch (every original root -> head; from a summary node, root -> its
   * run's last) that the kept entries do not carry: neither kept nor in the run of a kept
   * summary. Those outside `maxMessages` count too; 0 when !fits.
   */
  evicted: number;
}

/**
 * windowAdd's refusals (REJECTED_TOO_LARGE: the message is larger than the whole window;
 * REJECTED_ORPHANED: making room would evict the assistant message this tool result answers;
 * nothing was evicted in either case), and the node flags, roles and priority the core reads:
 * FLAG_TOOL_CALLS (an assistant message that carries tool calls), FLAG_SUMMARY (a summary
 * node), FLAG_UNIT_END (a tool result that answers the last open call of its assistant
 * message). Generated from the core's constants (src/engine/layout.ts).
 */
export {
  REJECTED_TOO_LARGE,
  REJECTED_ORPHANED,
  FLAG_TOOL_CALLS,
  FLAG_SUMMARY,
  FLAG_UNIT_END,
  ROLE_USER,
  ROLE_TOOL,
  CRITICAL,
} from "./layout.js";

// Roles and priorities are numeric codes here: their names are in src/message.ts (ROLES, PRIORITIES).
