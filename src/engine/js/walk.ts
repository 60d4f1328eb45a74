// Walks from a node towards the root, as assembly/walk.ts's.
import type { JsNode, JsTree } from "./arena.js";

/**
 * Writes the last `n` nodes of the path root -> `head`, oldest first, to `out[0..n)`; the
 * caller has clamped `n` to the path's length and sized `out`. O(n).
 */
export function walkInto(head: JsNode, n: number, out: Int32Array): number {
  let node: JsNode | null = head;
  for (let slot = n - 1; slot >= 0; slot--, node = node!.parent) out[slot] = node!.id;
  return n;
}

/** Ids of all nodes without children, in creation order. O(size). */
export function leavesOf(t: JsTree): number[] {
  return t.nodes.filter((n) => n.child === null).map((n) => n.id);
}

/** Children of a node (null: the roots), in creation order. O(children). */
export function childrenOf(t: JsTree, node: JsNode | null): number[] {
  const out: number[] = [];
  for (let c = node ? node.child : t.newestRoot; c; c = c.sibling) out.push(c.id);
  return out.reverse();
}
