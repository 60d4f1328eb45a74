// Walks from a node towards the root, as assembly/walk.ts's: every original, or along the
// summarized path.
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

/** The entry the summarized path of `head` starts with: the summary hanging on it, or itself. */
export const headEntry = (head: JsNode): JsNode => (head.run ? head : entryAt(head));

/** The entry above e on the summarized path. */
export const entryAbove = (e: JsNode): JsNode | null => (e.parent ? entryAt(e.parent) : null);

/** How many entries a summarized walk of `max` from `head` writes. O(1). */
export const summarizedLength = (head: JsNode, max: number): number => Math.min(max, headEntry(head).vdepth + 1);

/** Writes the last `n` entries of the summarized path root -> `head` (n from summarizedLength), oldest first. O(n). */
export function walkSummarizedInto(head: JsNode, n: number, out: Int32Array): number {
  let e: JsNode | null = headEntry(head);
  for (let slot = n - 1; slot >= 0; slot--, e = entryAbove(e!)) out[slot] = e!.id;
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
