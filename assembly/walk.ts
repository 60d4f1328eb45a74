// Walks from a node towards the root through the parent column.

import { header, treeColumn, countVisited, COL_PARENT, COL_CHILD, H_SIZE } from "./arena";

/**
 * Writes the ids of the last `n` nodes of the path root -> `head`, oldest first, to
 * `out[0..n)`; the caller has clamped `n` to the path's length (depth + 1). Returns `n`.
 * Touches exactly the nodes it returns: O(W).
 */
export function walkInto(tree: i32, head: i32, n: i32, out: usize): i32 {
  const p = treeColumn(header(tree), COL_PARENT);
  let a = p + (<usize>head << 2);
  // Newest first from the end: a chain of dependent loads, one per node.
  for (let slot = out + (<usize>n << 2); slot != out; ) {
    slot -= 4;
    store<i32>(slot, <i32>((a - p) >> 2));
    a = <usize>load<u32>(a);
  }
  countVisited(n);
  return n;
}

/** Writes the ids of all leaves (nodes with no child), in creation order, to `out`; returns how many. O(size). */
export function leavesInto(tree: i32, out: usize): i32 {
  const h = header(tree);
  const size = load<i32>(h + H_SIZE);
  const child = treeColumn(h, COL_CHILD);
  let n = 0;
  for (let i = 0; i < size; i++) {
    if (load<i32>(child + (<usize>i << 2)) < 0) {
      store<i32>(out + (<usize>n << 2), i);
      n++;
    }
  }
  return n;
}
