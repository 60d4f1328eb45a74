// Walks from a node towards the root through the parent column.

import { header, treeColumn, countVisited, COL_PARENT, COL_CHILD, H_SIZE } from "./arena";

/**
 * Writes the ids of the last `max` nodes of the path root -> `head`, oldest first, into
 * the `max` slots ending at `out + (max << 2)`; returns how many it wrote (they occupy
 * the last `count` slots). Touches exactly the nodes it returns: O(W).
 *
 * Writing from the end backwards lets the walk stop wherever the path does without
 * knowing its length first.
 */
export function walkInto(tree: i32, head: i32, max: i32, out: usize): i32 {
  const p = treeColumn(header(tree), COL_PARENT);
  let a = p + (<usize>head << 2);
  let slot = out + (<usize>max << 2);
  const end = out;
  while (a != 0 && slot != end) {
    slot -= 4;
    store<i32>(slot, <i32>((a - p) >> 2));
    a = <usize>load<u32>(a);
  }
  const count = <i32>((out + (<usize>max << 2) - slot) >> 2);
  countVisited(count);
  return count;
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
