// Sorting a selection's ids into path order: by summarized depth (selectInto in select.ts).

import { bufferOf } from "./alloc";
import { DEPTH_MASK } from "./arena";

// The key's columns, set by each sort: the summarized depth, and for a head's covered turn
// (see select.ts) the tree depth from `turnTop` on, counted from `turnBase`.
let cVdepth: usize = 0;
let cMeta: usize = 0;
let turnTop: i32 = -1;
let turnBase: i32 = 0;

@inline function depthAt(x: i32): i32 {
  if (turnTop >= 0) {
    const d = <i32>(load<u32>(cMeta + (<usize>x << 2)) & DEPTH_MASK);
    if (d >= turnTop) return turnBase + d - turnTop;
  }
  return load<i32>(cVdepth + (<usize>x << 2));
}

/** Depth of the id at address a. */
@inline function depthOfIdAt(a: usize): i32 {
  return depthAt(load<i32>(a));
}

/** The most runs a selection records (the forced CRITICAL ones, the user turn, three levels). */
export const MAX_RUNS = 8;
const runLo = memory.data(MAX_RUNS * 4); // per live run: address of its shallowest id
const runTop = memory.data(MAX_RUNS * 4); // per live run: address past its deepest id not yet placed
const runDepth = memory.data(MAX_RUNS * 4); // per live run: the depth of that id
/** The merge's scratch (see bufferOf): as large as the most ids moved aside yet. */
const scratch = memory.data(8, 8);

/**
 * Sorts the n ids below address `end` (at end - 4n .. end) into path order, by summarized depth
 * ascending (entries of one path: distinct depths; the column at `vdepth`, or from tree depth
 * `top` on, when not -1, the head's covered turn: the tree depth in the column at `meta`,
 * counted from `base`). The selection writes them down from `end` as `nRuns` runs, each in path
 * order: run r holds its ids from the `starts[r]`-th below `end` (i32s at `starts`, ascending) to
 * where the next one starts, so the first run lies at the top and the last at the bottom.
 *
 * One run (the usual selection of a plain chat) is sorted already. Otherwise the bottom run stays
 * where it is, the ids above it (the forced ones and the smaller levels: few, as a rule) are moved
 * to scratch, and the runs are merged from the deepest end down into the place they held: each
 * step moves the block of the run with the deepest next id that is deeper than every other run's
 * next id, found by a galloping search in the run (O(log block) depth reads), in one memory.copy;
 * once the bottom run is the last left, its ids are in place. O(runs x blocks + n) at worst, with
 * no per-id work for ids that do not move. Where memory cannot grow for the scratch, the ids are
 * sorted in place by insertion.
 */
export function sortRuns(
  end: usize, n: i32, starts: usize, nRuns: i32, vdepth: usize, meta: usize, top: i32, base: i32,
): void {
  cVdepth = vdepth;
  cMeta = meta;
  turnTop = top;
  turnBase = base;
  let live = 0;
  for (let r = 0; r < nRuns; r++) {
    const s = load<i32>(starts + (<usize>r << 2));
    const e = r + 1 < nRuns ? load<i32>(starts + (<usize>(r + 1) << 2)) : n;
    if (s >= e) continue;
    store<usize>(runLo + (<usize>live << 2), end - (<usize>e << 2));
    store<usize>(runTop + (<usize>live << 2), end - (<usize>s << 2));
    live++;
  }
  if (live <= 1) return;
  const start = end - (<usize>n << 2);
  // The bottom run (the last live one) starts at `start`; the ids above it go to scratch.
  const bottomTop = load<usize>(runTop + (<usize>(live - 1) << 2));
  const aside = end - bottomTop;
  const q = bufferOf(scratch, aside);
  if (q == 0) {
    insertionSort(start, n);
    return;
  }
  memory.copy(q, bottomTop, aside);
  for (let r = 0; r < live - 1; r++) {
    const at = <usize>r << 2;
    store<usize>(runLo + at, load<usize>(runLo + at) - bottomTop + q);
    store<usize>(runTop + at, load<usize>(runTop + at) - bottomTop + q);
  }
  for (let r = 0; r < live; r++) {
    const at = <usize>r << 2;
    store<i32>(runDepth + at, depthOfIdAt(load<usize>(runTop + at) - 4));
  }
  let o = end; // the output, from the top down: the deepest id left goes just below o
  while (live > 1) {
    // The run with the deepest next id, and the deepest next id of the others.
    let best = 0;
    let bestDepth = load<i32>(runDepth);
    let second = -1;
    for (let r = 1; r < live; r++) {
      const d = load<i32>(runDepth + (<usize>r << 2));
      if (d > bestDepth) {
        best = r;
        second = bestDepth;
        bestDepth = d;
      } else if (d > second) second = d;
    }
    const at = <usize>best << 2;
    const lo = load<usize>(runLo + at);
    const hi = load<usize>(runTop + at);
    const k = deeperThan(lo, hi, second);
    const bytes = <usize>k << 2;
    o -= bytes;
    memory.copy(o, hi - bytes, bytes);
    const rest = hi - bytes;
    if (rest > lo) {
      store<usize>(runTop + at, rest);
      store<i32>(runDepth + at, depthOfIdAt(rest - 4));
    } else {
      // The run is placed: the last live run takes its slot.
      live--;
      const last = <usize>live << 2;
      store<usize>(runLo + at, load<usize>(runLo + last));
      store<usize>(runTop + at, load<usize>(runTop + last));
      store<i32>(runDepth + at, load<i32>(runDepth + last));
    }
  }
  // One run left, exactly the places below o still free: in place when it is the bottom run.
  const lo = load<usize>(runLo);
  const bytes = load<usize>(runTop) - lo;
  if (o - bytes != lo) memory.copy(o - bytes, lo, bytes);
}

/**
 * How many ids of the run at lo .. hi (in path order, its deepest one deeper than d) are deeper
 * than d: a galloping search from the deepest end, then a binary one. O(log of the answer).
 */
function deeperThan(lo: usize, hi: usize, d: i32): i32 {
  const len = <i32>((hi - lo) >> 2);
  let known = 1; // the deepest `known` ids are deeper than d
  let probe = 2;
  while (probe <= len && depthOfIdAt(hi - (<usize>probe << 2)) > d) {
    known = probe;
    probe <<= 1;
  }
  let upper = probe <= len ? probe - 1 : len; // the answer is at most this
  while (known < upper) {
    const mid = (known + upper + 1) >> 1;
    if (depthOfIdAt(hi - (<usize>mid << 2)) > d) known = mid;
    else upper = mid - 1;
  }
  return known;
}

/** The n ids at p sorted in place by insertion: O(n + inversions), no memory. */
function insertionSort(p: usize, n: i32): void {
  for (let k = 1; k < n; k++) {
    const v = load<i32>(p + (<usize>k << 2));
    const dv = depthAt(v);
    let j = k - 1;
    for (; j >= 0; j--) {
      const u = load<i32>(p + (<usize>j << 2));
      if (depthAt(u) < dv) break;
      store<i32>(p + (<usize>(j + 1) << 2), u);
    }
    store<i32>(p + (<usize>(j + 1) << 2), v);
  }
}
