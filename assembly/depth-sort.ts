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

/** The most runs a selection records (the forced CRITICAL ones, the user turn, three levels). */
export const MAX_RUNS = 8;
const runPos = memory.data(MAX_RUNS * 4); // per live run: index of its next id (the deepest not yet placed)
const runEnd = memory.data(MAX_RUNS * 4); // per live run: index past its last id
const runDepth = memory.data(MAX_RUNS * 4); // per live run: the depth at runPos
/** The merge's scratch (see bufferOf): as large as the largest selection sorted yet. */
const scratch = memory.data(8, 8);

/**
 * Sorts n ids at p into path order, by summarized depth ascending (entries of one path:
 * distinct depths; the column at `vdepth`, or from tree depth `top` on, when not -1, the head's
 * covered turn: the tree depth in the column at `meta`, counted from `base`). The selection
 * collects them as `nRuns` runs, each newest first (deepest first): run r starts at index `starts[r]` (i32s at
 * `starts`, ascending) and ends where the next one starts. The runs are merged from the deepest end into scratch: each
 * id costs one depth read and a comparison with the other runs' next ids, and once one run is left, its ids are copied
 * reversed with no depth read at all (the usual selection: the newest user turn, then the window). O(n * runs). Where
 * memory cannot grow for the scratch, the runs reversed are merged in place by insertion.
 */
export function sortRuns(
  p: usize, n: i32, starts: usize, nRuns: i32, vdepth: usize, meta: usize, top: i32, base: i32,
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
    store<i32>(runPos + (<usize>live << 2), s);
    store<i32>(runEnd + (<usize>live << 2), e);
    store<i32>(runDepth + (<usize>live << 2), depthAt(load<i32>(p + (<usize>s << 2))));
    live++;
  }
  if (live <= 1) {
    reverse(p, 0, n);
    return;
  }
  const q = bufferOf(scratch, <usize>n << 2);
  if (q == 0) {
    insertionSort(p, n, starts, nRuns);
    return;
  }
  let o = n - 1; // the next place, from the end: the deepest id left goes there
  while (live > 1) {
    let best = 0;
    let bestDepth = load<i32>(runDepth);
    for (let r = 1; r < live; r++) {
      const d = load<i32>(runDepth + (<usize>r << 2));
      if (d > bestDepth) {
        best = r;
        bestDepth = d;
      }
    }
    const at = <usize>best << 2;
    const i = load<i32>(runPos + at);
    store<i32>(q + (<usize>o << 2), load<i32>(p + (<usize>i << 2)));
    o--;
    const e = load<i32>(runEnd + at);
    if (i + 1 < e) {
      store<i32>(runPos + at, i + 1);
      store<i32>(runDepth + at, depthAt(load<i32>(p + (<usize>(i + 1) << 2))));
    } else {
      // The run is placed: the last live run takes its slot.
      live--;
      const last = <usize>live << 2;
      store<i32>(runPos + at, load<i32>(runPos + last));
      store<i32>(runEnd + at, load<i32>(runEnd + last));
      store<i32>(runDepth + at, load<i32>(runDepth + last));
    }
  }
  // One run left, exactly the o + 1 places still free: its ids, shallowest last, reversed.
  for (let i = load<i32>(runPos), e = load<i32>(runEnd); i < e; i++, o--) {
    store<i32>(q + (<usize>o << 2), load<i32>(p + (<usize>i << 2)));
  }
  memory.copy(p, q, <usize>n << 2);
}

@inline function reverse(p: usize, from: i32, to: i32): void {
  for (let a = from, b = to - 1; a < b; a++, b--) {
    const t = load<i32>(p + (<usize>a << 2));
    store<i32>(p + (<usize>a << 2), load<i32>(p + (<usize>b << 2)));
    store<i32>(p + (<usize>b << 2), t);
  }
}

/** The runs reversed, then merged in place by insertion: O(n + inversions), no memory. */
function insertionSort(p: usize, n: i32, starts: usize, nRuns: i32): void {
  for (let r = 0; r < nRuns; r++) {
    reverse(p, load<i32>(starts + (<usize>r << 2)), r + 1 < nRuns ? load<i32>(starts + (<usize>(r + 1) << 2)) : n);
  }
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
