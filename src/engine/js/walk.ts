// Walks from a node towards the root, as assembly/walk.ts's: every original, or along the
// summarized path (never inside the head's own turn).
import { entryAt, type JsNode, type JsTree } from "./arena.js";

/**
 * Writes the last `n` nodes of the path root -> `head`, oldest first, to `out[0..n)`; the
 * caller has clamped `n` to the path's length and sized `out`. O(n).
 */
export function walkInto(head: JsNode, n: number, out: Int32Array): number {
  let node: JsNode | null = head;
  for (let slot = n - 1; slot >= 0; slot--, node = node!.parent) out[slot] = node!.id;
  return n;
}

/**
 * The summarized path a head sees (as assembly/walk.ts's): its first entry, and the head's
 * own turn when a summary hangs inside it (null otherwise). The turn, from the branch's
 * newest user message down to the head, is walked as originals: a summary hanging there
 * would hide the turn or what follows it. `fromBelow`: the path as a branch going on below
 * `head` with a newer user turn sees it (every summary reached applies).
 */
export interface HeadPath {
  readonly start: JsNode;
  readonly turn: JsNode | null;
}

export function headPath(head: JsNode, fromBelow = false): HeadPath {
  if (head.run) return { start: head, turn: null }; // a summary node: it, then the path above its run
  if (fromBelow || !head.user) return { start: entryAt(head), turn: null };
  return { start: head, turn: head.turnCovered ? head.user : null };
}

/** The entry above e on the summarized path. */
export const entryAbove = (e: JsNode): JsNode | null => (e.parent ? entryAt(e.parent) : null);

/** Whether entry e lies in the covered turn (entries above it are shallower). */
export const inTurn = (e: JsNode, path: HeadPath): boolean => path.turn !== null && e.depth >= path.turn.depth;

/** The entry above e on the head's path: inside a covered turn, the parent, up to its user message. */
export const nextOn = (e: JsNode, path: HeadPath): JsNode | null =>
  inTurn(e, path) && e !== path.turn ? e.parent : entryAbove(e);

/** Depth of entry e on the head's path. */
export const depthOn = (e: JsNode, path: HeadPath): number =>
  inTurn(e, path) ? path.turn!.vdepth + e.depth - path.turn!.depth : e.vdepth;

/** How many entries a summarized walk of `max` writes. O(1). */
export const summarizedLength = (path: HeadPath, max: number): number => Math.min(max, depthOn(path.start, path) + 1);

/** Writes the last `n` entries of the head's summarized path (n from summarizedLength), oldest first. O(n). */
export function walkSummarizedInto(path: HeadPath, n: number, out: Int32Array): number {
  let e: JsNode | null = path.start;
  for (let slot = n - 1; slot >= 0; slot--, e = nextOn(e!, path)) out[slot] = e!.id;
  return n;
}

/** Ids of all nodes without children (summary nodes are not in the tree view), in creation order. O(size). */
export function leavesOf(t: JsTree): number[] {
  return t.nodes.filter((n) => n.child === null && n.run === null).map((n) => n.id);
}

/** Children of a node (null: the roots), in creation order. O(children). */
export function childrenOf(t: JsTree, node: JsNode | null): number[] {
  const out: number[] = [];
  for (let c = node ? node.child : t.newestRoot; c; c = c.sibling) out.push(c.id);
  return out.reverse();
}
