// Sorting a selection's ids into path order: by summarized depth (selectInto in evict.ts).

@inline function depthAt(vdepth: usize, x: i32): i32 {
  return load<i32>(vdepth + (<usize>x << 2));
}

/**
 * Sorts n i32 ids at p by their depth in the column at `vdepth` (summarized depth), ascending
 * (entries of one path: distinct depths): in place, no allocation. The selection collects them as a few runs, each newest first (the
 * forced ones, then one per priority level), and usually one run holds nearly all: the newest
 * user turn comes first, then the rest of the window. Each run is reversed, then an insertion
 * sort merges them in O(n + inversions): O(n) for that usual shape. An insertion sort that
 * moves more than about 4n ids (levels interleaved all along the window) hands over to a
 * heapsort: O(n log n) at worst.
 */
export function sortByDepth(p: usize, n: i32, vdepth: usize): void {
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && depthAt(vdepth, load<i32>(p + (<usize>j << 2))) < depthAt(vdepth, load<i32>(p + (<usize>(j - 1) << 2)))) j++;
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
    const dv = depthAt(vdepth, v);
    let j = k - 1;
    while (j >= 0) {
      const u = load<i32>(p + (<usize>j << 2));
      if (depthAt(vdepth, u) < dv) break;
      store<i32>(p + (<usize>(j + 1) << 2), u); // the hole moves down to j
      j--;
      if (--moves < 0) {
        store<i32>(p + (<usize>(j + 1) << 2), v); // a permutation again, then the heapsort
        heapSort(p, n, vdepth);
        return;
      }
    }
    store<i32>(p + (<usize>(j + 1) << 2), v);
  }
}

function heapSort(p: usize, n: i32, vdepth: usize): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(p, i, n, vdepth);
  for (let end = n - 1; end > 0; end--) {
    const top = load<i32>(p);
    store<i32>(p, load<i32>(p + (<usize>end << 2)));
    store<i32>(p + (<usize>end << 2), top);
    siftDown(p, 0, end, vdepth);
  }
}

@inline function siftDown(p: usize, i: i32, n: i32, vdepth: usize): void {
  const v = load<i32>(p + (<usize>i << 2));
  const dv = depthAt(vdepth, v);
  while (true) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && depthAt(vdepth, load<i32>(p + (<usize>(c + 1) << 2))) > depthAt(vdepth, load<i32>(p + (<usize>c << 2)))) c++;
    const cv = load<i32>(p + (<usize>c << 2));
    if (depthAt(vdepth, cv) <= dv) break;
    store<i32>(p + (<usize>i << 2), cv);
    i = c;
  }
  store<i32>(p + (<usize>i << 2), v);
}
