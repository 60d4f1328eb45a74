// Byte-pair merges of one piece, counting the tokens it becomes. Same result as tiktoken's
// merge loop (repeatedly merge the adjacent pair of lowest rank, the leftmost on a tie):
// short pieces run that loop as is; longer ones keep the pairs in a binary heap, so a piece
// of n bytes costs O(n log n) (a run of 100k letters is one piece).
//
// Work area (at `work`, sized by the caller through ensureWork):
//   short loop: starts u32[SHORT + 1] | ranks u32[SHORT + 1]
//   heap:       next u32[n] | prev i32[n] | rank u32[n] | heap u64[3n]   (node = its start byte)

import { reach } from "./layout";
import { NONE, rankOf } from "./ranks";

export const SHORT: u32 = 64;
let work: usize = 0;
let workLimit: usize = 0;
/** Merge work done since the last reset: pair scans of the short loop, heap sift steps. */
export let steps: u32 = 0;
export function resetSteps(): void {
  steps = 0;
}
/** Set when a merge could not get memory; the count is then invalid. */
export let failed: bool = false;

export function setWork(at: usize, end: usize): void {
  work = at;
  workLimit = end;
  failed = false;
}

/** End of the work area the merges have reached. */
export function workEnd(): usize {
  return workLimit;
}

/** Bytes of work area a piece of n bytes needs. */
@inline function workBytes(n: u32): usize {
  return <usize>n * 36 + 64;
}

/** Tokens the n bytes at p become (n >= 1). */
export function pieceTokens(p: usize, n: u32): u32 {
  if (n == 1) return 1;
  if (rankOf(p, n) != NONE) return 1;
  if (n <= SHORT) return shortMerge(p, n);
  return heapMerge(p, n);
}

function shortMerge(p: usize, n: u32): u32 {
  const s = work;
  const r = work + ((<usize>SHORT + 1) << 2);
  let m = n + 1;
  for (let i: u32 = 0; i <= n; i++) {
    store<u32>(s + (<usize>i << 2), i);
    store<u32>(r + (<usize>i << 2), i + 1 < n ? rankOf(p + i, 2) : NONE);
  }
  while (m > 1) {
    let min = NONE;
    let at: i32 = -1;
    steps += m;
    for (let i: u32 = 0; i + 1 < m; i++) {
      const v = load<u32>(r + (<usize>i << 2));
      if (v < min) {
        min = v;
        at = <i32>i;
      }
    }
    if (at < 0) break;
    const a = <u32>at;
    // Both arrays close the gap (loops: a few words, where memory.copy is a call out of the module).
    for (let k = a + 1; k + 1 < m; k++) store<u32>(s + (<usize>k << 2), load<u32>(s + (<usize>(k + 1) << 2)));
    for (let k = a; k + 1 < m; k++) store<u32>(r + (<usize>k << 2), load<u32>(r + (<usize>(k + 1) << 2)));
    m--;
    const sa = load<u32>(s + (<usize>a << 2));
    store<u32>(r + (<usize>a << 2), a + 2 < m ? rankOf(p + sa, load<u32>(s + (<usize>(a + 2) << 2)) - sa) : NONE);
    if (a > 0) {
      const sb = load<u32>(s + (<usize>(a - 1) << 2));
      store<u32>(r + (<usize>(a - 1) << 2), a + 1 < m ? rankOf(p + sb, load<u32>(s + (<usize>(a + 1) << 2)) - sb) : NONE);
    }
  }
  return m - 1;
}

// --- heap merge ---

let heap: usize = 0;
let heapLen: u32 = 0;

@inline function push(key: u64): void {
  let i = heapLen++;
  while (i > 0) {
    steps++;
    const up = (i - 1) >> 1;
    const k = load<u64>(heap + (<usize>up << 3));
    if (k <= key) break;
    store<u64>(heap + (<usize>i << 3), k);
    i = up;
  }
  store<u64>(heap + (<usize>i << 3), key);
}

@inline function pop(): u64 {
  const top = load<u64>(heap);
  const last = load<u64>(heap + (<usize>--heapLen << 3));
  const n = heapLen;
  let i: u32 = 0;
  for (;;) {
    steps++;
    let c: u32 = 2 * i + 1;
    if (c >= n) break;
    let k = load<u64>(heap + (<usize>c << 3));
    if (c + 1 < n) {
      const k2 = load<u64>(heap + (<usize>(c + 1) << 3));
      if (k2 < k) {
        k = k2;
        c++;
      }
    }
    if (last <= k) break;
    store<u64>(heap + (<usize>i << 3), k);
    i = c;
  }
  if (n > 0) store<u64>(heap + (<usize>i << 3), last);
  return top;
}

function heapMerge(p: usize, n: u32): u32 {
  if (work + workBytes(n) > workLimit) {
    if (!reach(work + workBytes(n))) {
      failed = true;
      return 0;
    }
    workLimit = work + workBytes(n);
  }
  const next = work;
  const prev = next + (<usize>n << 2);
  const rank = prev + (<usize>n << 2);
  heap = (rank + (<usize>n << 2) + 7) & ~7;
  heapLen = 0;
  for (let i: u32 = 0; i < n; i++) {
    store<u32>(next + (<usize>i << 2), i + 1);
    store<i32>(prev + (<usize>i << 2), <i32>i - 1);
    const r = i + 1 < n ? rankOf(p + i, 2) : NONE;
    store<u32>(rank + (<usize>i << 2), r);
    if (r != NONE) push((<u64>r << 32) | i);
  }
  let tokens = n;
  while (heapLen > 0) {
    const key = pop();
    const i = <u32>key;
    const r = <u32>(key >> 32);
    if (load<u32>(rank + (<usize>i << 2)) != r) continue; // stale: a pair's rank at a node never repeats
    const j = load<u32>(next + (<usize>i << 2));
    const k = load<u32>(next + (<usize>j << 2));
    store<u32>(next + (<usize>i << 2), k);
    if (k < n) store<i32>(prev + (<usize>k << 2), <i32>i);
    store<u32>(rank + (<usize>j << 2), NONE);
    tokens--;
    const ri = k < n ? rankOf(p + i, load<u32>(next + (<usize>k << 2)) - i) : NONE;
    store<u32>(rank + (<usize>i << 2), ri);
    if (ri != NONE) push((<u64>ri << 32) | i);
    const h = load<i32>(prev + (<usize>i << 2));
    if (h >= 0) {
      const rh = rankOf(p + <u32>h, k - <u32>h);
      store<u32>(rank + (<usize>h << 2), rh);
      if (rh != NONE) push((<u64>rh << 32) | <u32>h);
    }
  }
  return tokens;
}
