// Sorting a selection's ids into path order: by summarized depth (selectInto in select.ts).

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

/**
 * Sorts n i32 ids at p by summarized depth, ascending (entries of one path: distinct
 * depths), in place, no allocation: the column at `vdepth`, or from tree depth `top` on
 * (when not -1: the head's covered turn) the tree depth in the column at `meta`, counted
 * from `base`. The selection collects them as a few runs, each newest first (the
 * forced ones, then one per priority level), and usually one run holds nearly all: the newest
 * user turn comes first, then the rest of the window. Each run is reversed, then an insertion
 * sort merges them in O(n + inversions): O(n) for that usual shape. An insertion sort that
 * moves more than about 4n ids (levels interleaved all along the window) hands over to a
 * heapsort: O(n log n) at worst.
 */
export function sortByDepth(p: usize, n: i32, vdepth: usize, meta: usize, top: i32, base: i32): void {
  cVdepth = vdepth;
  cMeta = meta;
  turnTop = top;
  turnBase = base;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && depthAt(load<i32>(p + (<usize>j << 2))) < depthAt(load<i32>(p + (<usize>(j - 1) << 2)))) j++;
    for (let a = i, b = j - 1; a < b; a++, b--) {
      const t = load<i32>(p + (<usize>a << 2));
      store<i32>(p + (<usize>a << 2), load<i32>(p + (<usize>b << 2)));
      store<i32>(p + (<usize>b << 2), t);
    }
    i = j;
  }
  let moves: i64 = 4 * <i64>n + 64;
  for (let k = 1; k < n; k++) {
    const v = load<i32>(p + (<usize>k << 2));
    const dv = depthAt(v);
    let j = k - 1;
    while (j >= 0) {
      const u = load<i32>(p + (<usize>j << 2));
      if (depthAt(u) < dv) break;
      store<i32>(p + (<usize>(j + 1) << 2), u); // the hole moves down to j
      j--;
      if (--moves < 0) {
        store<i32>(p + (<usize>(j + 1) << 2), v); // a permutation again, then the heapsort
        heapSort(p, n);
        return;
      }
    }
    store<i32>(p + (<usize>(j + 1) << 2), v);
  }
}

function heapSort(p: usize, n: i32): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(p, i, n);
  for (let end = n - 1; end > 0; end--) {
    const top = load<i32>(p);
    store<i32>(p, load<i32>(p + (<usize>end << 2)));
    store<i32>(p + (<usize>end << 2), top);
    siftDown(p, 0, end);
  }
}

@inline function siftDown(p: usize, i: i32, n: i32): void {
  const v = load<i32>(p + (<usize>i << 2));
  const dv = depthAt(v);
  while (true) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && depthAt(load<i32>(p + (<usize>(c + 1) << 2))) > depthAt(load<i32>(p + (<usize>c << 2)))) c++;
    const cv = load<i32>(p + (<usize>c << 2));
    if (depthAt(cv) <= dv) break;
    store<i32>(p + (<usize>i << 2), cv);
    i = c;
  }
  store<i32>(p + (<usize>i << 2), v);
}
