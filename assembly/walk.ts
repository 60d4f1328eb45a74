// Walks from a node towards the root: through the parent column (every original), or along
// the summarized path (jumping over each run whose `last` it reaches, see summary.ts, but
// never inside the head's own turn: see the user column in arena.ts).

import {
  header, treeColumn, countVisited, column,
  COL_PARENT, COL_CHILD, COL_META, COL_SKIP, COL_USER, COL_VDEPTH,
  H_SIZE, H_BLOCK, H_CAP_LOG2, FLAGS_SHIFT, FLAG_SUMMARY,
  DEPTH_MASK, USER_COVERED,
} from "./arena";

/**
 * Writes the ids of the last `n` nodes of the path root -> `head`, oldest first, to
 * `out[0..n)`; the caller has clamped `n` to the path's length (depth + 1). Returns `n`.
 * Touches exactly the nodes it returns: O(W).
 */
export function walkInto(tree: i32, head: i32, n: i32, out: usize): i32 {
  const p = treeColumn(header(tree), COL_PARENT);
  let a = p + (<usize>head << 2);
  // Newest first from the end. A parent is most often the node made just before (a chat's
  // messages come in order): along such a run the next address is computed, not loaded, and
  // the loads only check it, so they do not wait on each other (a chain of dependent loads
  // costs a load's latency per node).
  let slot = out + (<usize>n << 2);
  while (slot != out) {
    slot -= 4;
    store<i32>(slot, <i32>((a - p) >> 2));
    let up = <usize>load<u32>(a);
    while (up == a - 4 && slot != out) {
      a -= 4;
      slot -= 4;
      store<i32>(slot, <i32>((a - p) >> 2));
      up = <usize>load<u32>(a);
    }
    a = up;
  }
  countVisited(n);
  return n;
}

/**
 * Writes the last `max` entries of the summarized path root -> `head`, oldest first, to
 * `out`: originals, and a summary in place of each run whose `last` the walk reaches (it
 * goes on at the parent of the run's first), except inside the head's own turn: from the
 * branch's newest user message down to the head, every message is itself (a summary hanging
 * there would hide the turn or what follows it). `fromBelow`: the path as a branch going on
 * below `head` with a newer user turn sees it (every summary reached applies, one hanging on
 * `head` too). From a summary node: it, then the path above its run. `out` has room for
 * min(max, depth + 1) ids. Returns how many. O(W): one visit per entry, a jump over a run
 * counting as one.
 */
export function walkSummarizedInto(tree: i32, head: i32, max: i32, fromBelow: bool, out: usize): i32 {
  const h = header(tree);
  const b = <usize>load<u32>(h + H_BLOCK);
  const k = load<i32>(h + H_CAP_LOG2);
  const p = column(b, k, COL_PARENT);
  const meta = column(b, k, COL_META);
  const vdepth = column(b, k, COL_VDEPTH);
  const toSkip = (COL_SKIP - COL_PARENT) << <usize>k; // from a node's parent slot to its skip slot
  const isSummary = ((load<u32>(meta + (<usize>head << 2)) >> FLAGS_SHIFT) & FLAG_SUMMARY) != 0;
  const user = isSummary || fromBelow ? -1 : load<i32>(column(b, k, COL_USER) + (<usize>head << 2));
  let e = head;
  if (user < 0 && !isSummary) {
    const s = load<i32>(p + toSkip + (<usize>head << 2));
    if (s >= 0) e = s;
  }
  if (user < 0 || (user & USER_COVERED) == 0) {
    // No summary inside the turn: the summarized path from the head is the turn's originals already.
    const n = min(max, load<i32>(vdepth + (<usize>e << 2)) + 1);
    summarizedFrom(p, toSkip, e, out, n);
    countVisited(n);
    return n;
  }
  // The turn's originals, from the head up to its user message, then the summarized path above.
  const u = user & ~USER_COVERED;
  const headDepth = <i32>(load<u32>(meta + (<usize>head << 2)) & DEPTH_MASK);
  const turn = headDepth - <i32>(load<u32>(meta + (<usize>u << 2)) & DEPTH_MASK) + 1;
  const n = min(max, load<i32>(vdepth + (<usize>u << 2)) + turn);
  let a = p + (<usize>head << 2);
  const end = out + ((n > turn ? <usize>(n - turn) : 0) << 2);
  for (let slot = out + (<usize>n << 2); slot != end; ) {
    slot -= 4;
    store<i32>(slot, <i32>((a - p) >> 2));
    a = <usize>load<u32>(a);
  }
  if (n > turn) {
    // a is the parent slot of the user message (it has one: its summarized depth is > 0)
    const s = load<i32>(a + toSkip);
    summarizedFrom(p, toSkip, s >= 0 ? s : <i32>((a - p) >> 2), out, n - turn);
  }
  countVisited(n);
  return n;
}

/** Writes n entries of the summarized path from entry e up, e last, to out[0..n). */
@inline function summarizedFrom(p: usize, toSkip: usize, e: i32, out: usize, n: i32): void {
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
}

/**
 * Writes the ids of all leaves (nodes with no child; summary nodes are not in the tree view), in creation order, to
 * `out`; returns how many. O(size).
 */
export function leavesInto(tree: i32, out: usize): i32 {
  const h = header(tree);
  const size = load<i32>(h + H_SIZE);
  const child = treeColumn(h, COL_CHILD);
  const meta = treeColumn(h, COL_META);
  let n = 0;
  for (let i = 0; i < size; i++) {
    const summary = (load<u32>(meta + (<usize>i << 2)) >> FLAGS_SHIFT) & FLAG_SUMMARY;
    if (load<i32>(child + (<usize>i << 2)) < 0 && summary == 0) {
      store<i32>(out + (<usize>n << 2), i);
      n++;
    }
  }
  return n;
}
