// Walks from a node towards the root: through the parent column (every original), or along
// the summarized path (jumping over each run whose `last` it reaches, see summary.ts).

import {
  header, treeColumn, countVisited, column,
  COL_PARENT, COL_CHILD, COL_META, COL_SKIP, COL_VDEPTH, H_SIZE, H_BLOCK, H_CAP_LOG2, FLAGS_SHIFT, FLAG_SUMMARY,
} from "./arena";

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

/**
 * Writes the last `max` entries of the summarized path root -> `head`, oldest first, to
 * `out`: originals, and a summary in place of each run whose `last` the walk reaches (it
 * goes on at the parent of the run's first). `out` has room for min(max, depth + 1) ids.
 * Returns how many. O(W): one visit per entry, a jump over a run counting as one.
 */
export function walkSummarizedInto(tree: i32, head: i32, max: i32, out: usize): i32 {
  const h = header(tree);
  const b = <usize>load<u32>(h + H_BLOCK);
  const k = load<i32>(h + H_CAP_LOG2);
  const p = column(b, k, COL_PARENT);
  const toSkip = (COL_SKIP - COL_PARENT) << <usize>k; // from a node's parent slot to its skip slot
  const isSummary = ((load<u32>(column(b, k, COL_META) + (<usize>head << 2)) >> FLAGS_SHIFT) & FLAG_SUMMARY) != 0;
  let e = isSummary ? head : load<i32>(p + toSkip + (<usize>head << 2));
  if (e < 0) e = head;
  const n = min(max, load<i32>(column(b, k, COL_VDEPTH) + (<usize>e << 2)) + 1);
  // The parent chain stays the one chain of dependent loads: the skip slot of each original
  // is read beside it, and a jump (rare) is a branch, not a data dependency.
  let a = p + (<usize>e << 2);
  for (let slot = out + (<usize>n << 2); slot != out; ) {
    slot -= 4;
    store<i32>(slot, e);
    a = <usize>load<u32>(a);
    if (a == 0) break; // only after the last slot: n is the summarized depth + 1
    const s = load<i32>(a + toSkip);
    if (s >= 0) {
      e = s;
      a = p + (<usize>s << 2);
    } else {
      e = <i32>((a - p) >> 2);
    }
  }
  countVisited(n);
  return n;
}

/** Writes the ids of all leaves (nodes with no child; summary nodes are not in the tree view), in creation order, to `out`; returns how many. O(size). */
export function leavesInto(tree: i32, out: usize): i32 {
  const h = header(tree);
  const size = load<i32>(h + H_SIZE);
  const child = treeColumn(h, COL_CHILD);
  const meta = treeColumn(h, COL_META);
  let n = 0;
  for (let i = 0; i < size; i++) {
    if (load<i32>(child + (<usize>i << 2)) < 0 && ((load<u32>(meta + (<usize>i << 2)) >> FLAGS_SHIFT) & FLAG_SUMMARY) == 0) {
      store<i32>(out + (<usize>n << 2), i);
      n++;
    }
  }
  return n;
}
