// The merge of a long piece: the same merges in the same order as tiktoken's loop (the adjacent
// pair of lowest rank first, the leftmost on a tie), in about linear time.
//
// A rank names one byte string, so merging the pairs of rank r never makes another pair of rank
// r (the new pairs are longer strings). The pairs of a rank are therefore kept in a list per
// rank, and a queue holds the ranks that have pairs; the lowest rank's list is merged in one
// sweep, left to right (sorted first when pairs came in out of order). The only thing that
// interrupts a sweep is a merge that makes a pair of a rank below r (tables may hold such
// tokens): that rank must go first, so r goes back into the queue with what is left of its list.
// Against the binary heap of every pair this replaced, the work per merge is a few list links
// and two rank lookups, not a sift through a heap of 3n keys (10 MiB of one letter: 47 heap
// steps a byte).
//
// Memory: per rank (set up once where the work area starts, left clean by every merge):
//   lists {head, tail}[R] (u32 node or NIL) | queue u32[R] | flags u8[R]
// per piece of n bytes, one record of five u32 per node (a node is the start byte of a part;
// the fields a merge reads of one node share a cache line, which matters once the piece is
// larger than the caches and its merges land all over it):
//   next | prev | rank (of the pair the node starts) | lnext | lprev (its rank's list)

import { NONE, rankOf } from "./ranks";

const NIL: u32 = 0xffffffff;
const UNSORTED: u8 = 1;
const QUEUED: u8 = 2;

let lists: usize = 0;
let queue: usize = 0;
let flags: usize = 0;
let queued: u32 = 0;

let nodes: usize = 0;
const NODE: usize = 20;
const NEXT: usize = 0;
const PREV: usize = 4;
const RANK: usize = 8;
const LNEXT: usize = 12;
const LPREV: usize = 16;

/** List links and rank lookups of the last merges: the complexity tests read them (through merge.ts). */
export let bucketSteps: u32 = 0;
export function resetBucketSteps(): void {
  bucketSteps = 0;
}

/** Bytes of the per-rank area for `ranks` ranks. */
export function rankAreaBytes(ranks: u32): usize {
  return ((<usize>ranks * 13) + 15) & ~15;
}

/** Sets up the per-rank area at `at` (empty lists, nothing queued). */
export function setRankArea(at: usize, ranks: u32): void {
  lists = at;
  queue = lists + (<usize>ranks << 3);
  flags = queue + (<usize>ranks << 2);
  memory.fill(lists, 0xff, <usize>ranks << 3);
  memory.fill(flags, 0, ranks);
  queued = 0;
}

/** Bytes a piece of n bytes needs at `at` (bucketMerge's node arrays). */
export function nodeBytes(n: u32): usize {
  return <usize>n * NODE + 16;
}

/** Field f of node i. */
@inline function get(f: usize, i: u32): u32 {
  return load<u32>(nodes + <usize>i * NODE + f);
}
@inline function set(f: usize, i: u32, v: u32): void {
  store<u32>(nodes + <usize>i * NODE + f, v);
}
@inline function head(r: u32): u32 {
  return load<u32>(lists + (<usize>r << 3));
}
@inline function setHead(r: u32, i: u32): void {
  store<u32>(lists + (<usize>r << 3), i);
}
@inline function tail(r: u32): u32 {
  return load<u32>(lists + (<usize>r << 3), 4);
}
@inline function setTail(r: u32, i: u32): void {
  store<u32>(lists + (<usize>r << 3), i, 4);
}
@inline function queueAt(i: u32): u32 {
  return load<u32>(queue + (<usize>i << 2));
}
@inline function setQueueAt(i: u32, r: u32): void {
  store<u32>(queue + (<usize>i << 2), r);
}
@inline function flagsOf(r: u32): u8 {
  return load<u8>(flags + <usize>r);
}
@inline function setFlags(r: u32, f: u8): void {
  store<u8>(flags + <usize>r, f);
}

function enqueue(r: u32): void {
  setFlags(r, flagsOf(r) | QUEUED);
  let i = queued++;
  while (i > 0) {
    const up = (i - 1) >> 1;
    const v = queueAt(up);
    if (v <= r) break;
    setQueueAt(i, v);
    i = up;
  }
  setQueueAt(i, r);
}

function dequeue(): u32 {
  const top = queueAt(0);
  const last = queueAt(--queued);
  const n = queued;
  let i: u32 = 0;
  for (;;) {
    let c: u32 = 2 * i + 1;
    if (c >= n) break;
    let v = queueAt(c);
    if (c + 1 < n) {
      const w = queueAt(c + 1);
      if (w < v) {
        v = w;
        c++;
      }
    }
    if (last <= v) break;
    setQueueAt(i, v);
    i = c;
  }
  if (n > 0) setQueueAt(i, last);
  setFlags(top, flagsOf(top) & ~QUEUED);
  return top;
}

/** Node i joins the end of rank r's list. */
@inline function append(r: u32, i: u32): void {
  bucketSteps++;
  const t = tail(r);
  set(LNEXT, i, NIL);
  set(LPREV, i, t);
  if (t == NIL) {
    setHead(r, i);
    if ((flagsOf(r) & QUEUED) == 0) enqueue(r);
  } else {
    set(LNEXT, t, i);
    if (i < t) setFlags(r, flagsOf(r) | UNSORTED);
  }
  setTail(r, i);
}

/** Node i leaves rank r's list. */
@inline function unlink(r: u32, i: u32): void {
  const a = get(LPREV, i);
  const b = get(LNEXT, i);
  if (a == NIL) setHead(r, b);
  else set(LNEXT, a, b);
  if (b == NIL) setTail(r, a);
  else set(LPREV, b, a);
  if (a == NIL && b == NIL) setFlags(r, flagsOf(r) & ~UNSORTED);
}

/** Sorts rank r's list by position (a merge sort of the links: no extra memory). */
function sortList(r: u32): void {
  let list = head(r);
  for (let k: u32 = 1; ; k <<= 1) {
    let p = list;
    list = NIL;
    let tail = NIL;
    let merges: u32 = 0;
    while (p != NIL) {
      merges++;
      let q = p;
      let pn: u32 = 0;
      while (pn < k && q != NIL) {
        pn++;
        q = get(LNEXT, q);
      }
      let qn = k;
      while (pn > 0 || (qn > 0 && q != NIL)) {
        let e: u32;
        if (pn == 0 || (qn > 0 && q != NIL && q < p)) {
          e = q;
          q = get(LNEXT, q);
          qn--;
        } else {
          e = p;
          p = get(LNEXT, p);
          pn--;
        }
        bucketSteps++;
        if (tail == NIL) list = e;
        else set(LNEXT, tail, e);
        tail = e;
      }
      p = q;
    }
    set(LNEXT, tail, NIL);
    if (merges <= 1) break;
  }
  let before = NIL;
  for (let x = list; x != NIL; x = get(LNEXT, x)) {
    set(LPREV, x, before);
    before = x;
  }
  setHead(r, list);
  setTail(r, before);
  setFlags(r, flagsOf(r) & ~UNSORTED);
}

/**
 * Tokens the n bytes at p become (n >= 2), with the node arrays at `at` (nodeBytes(n) bytes).
 * With `ends` != 0, writes there where each token ends (byte offsets within the piece, u32 each).
 */
export function bucketMerge(p: usize, n: u32, at: usize, ends: usize): u32 {
  nodes = at;
  for (let i: u32 = 0; i < n; i++) {
    set(NEXT, i, i + 1);
    set(PREV, i, i - 1); // 0 - 1 is NIL
  }
  for (let i: u32 = 0; i + 1 < n; i++) {
    const r = rankOf(p + i, 2);
    set(RANK, i, r);
    if (r != NONE) append(r, i);
  }
  set(RANK, n - 1, NONE);
  let tokens = n;
  while (queued > 0) {
    const r = dequeue();
    if (head(r) == NIL) continue;
    if (flagsOf(r) & UNSORTED) sortList(r);
    for (;;) {
      const i = head(r);
      if (i == NIL) break;
      unlink(r, i);
      const j = get(NEXT, i);
      const k = get(NEXT, j);
      const rj = get(RANK, j);
      if (rj != NONE) unlink(rj, j); // j is gone: the pair it started goes with it
      set(NEXT, i, k);
      if (k < n) set(PREV, k, i);
      tokens--;
      bucketSteps += 2;
      const ri = k < n ? rankOf(p + i, get(NEXT, k) - i) : NONE;
      set(RANK, i, ri);
      if (ri != NONE) append(ri, i);
      let lower = ri != NONE && ri <= r;
      const h = get(PREV, i);
      if (h != NIL) {
        const old = get(RANK, h);
        if (old != NONE) unlink(old, h);
        const rh = rankOf(p + h, k - h);
        set(RANK, h, rh);
        if (rh != NONE) {
          append(rh, h);
          if (rh <= r) lower = true;
        }
      }
      if (lower) {
        // A pair of a lower rank goes first: the rest of this list waits in the queue.
        if (head(r) != NIL && (flagsOf(r) & QUEUED) == 0) enqueue(r);
        break;
      }
    }
  }
  if (ends != 0) {
    let w = ends;
    for (let i: u32 = 0; i < n; i = get(NEXT, i)) {
      store<u32>(w, get(NEXT, i));
      w += 4;
    }
  }
  return tokens;
}
