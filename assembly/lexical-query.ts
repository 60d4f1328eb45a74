// BM25 over an index of lexical.ts: one call scores a query's terms and returns the top k.
//
//   score(d) = sum over the query's terms t, in the order given, of
//              qtf * idf(t) * (tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * (dl / avgdl)))
//   idf(t)   = ln(1 + (N - df + 0.5) / (df + 0.5))        (never negative)
//
// N the documents indexed, df those holding t, tf its count in d (saturated at 255), dl the
// length of d, avgdl the mean length, qtf the term's count in the query. Everything is f64,
// in exactly this order, and ln is computed below with + - * / only (a runtime's Math.log
// may differ in the last bit): the TypeScript twin (src/engine/lexical-js.ts) repeats the
// same operations, so both engines return bitwise identical scores.
//
// Term at a time: each posting adds its term's share to the document's slot of a dense
// accumulator (f64 per id, shared by every index, grown to the largest); a slot's first
// share (always > 0) puts the id on the touched list. A heap of k then keeps the best
// touched documents (its root the worst: lower score, or equal score and higher id) and is
// sorted best first, score descending, id ascending: a total order, so the answer does not
// depend on the order of postings. Slots are zeroed again as they are read.

import { allocRaw, freeRaw } from "./alloc";
import { lexicalHeader, findTerm, L_LENS, L_LENS_LOG2, L_LIVE, L_TOTAL, T_DF, T_POSTINGS } from "./lexical";

let input: usize = 0;
let work: usize = 0; // the result: scores f64 * k, then ids i32 * k
let acc: usize = 0; // f64 per id, zero between queries
let touched: usize = 0; // i32 per id
// The classes (log2 of the bytes) of the four buffers, where regrow writes them.
const inputLog2 = memory.data(4);
const workLog2 = memory.data(4);
const accLog2 = memory.data(4);
const touchedLog2 = memory.data(4);

/** A block of at least `bytes` replacing `ptr` of class `load(log2)` (kept when large enough); 0 when memory cannot grow. */
function regrow(ptr: usize, log2: usize, bytes: usize, zero: bool): usize {
  const have = load<i32>(log2);
  if (ptr != 0 && bytes <= (<usize>1 << have)) return ptr;
  let k = max(have, 12);
  while ((<usize>1 << k) < bytes) k++;
  if (k > 31) return 0;
  const next = allocRaw(k);
  if (next == 0) return 0;
  if (ptr != 0) freeRaw(ptr, have);
  if (zero) memory.fill(next, 0, <usize>1 << k);
  store<i32>(log2, k);
  return next;
}

/** Makes room for `bytes` in the input buffer (a document's terms, ids to remove, a query); its address, or 0 when memory cannot grow. */
export function lexicalInput(bytes: usize): usize {
  const next = regrow(input, inputLog2, bytes, false);
  if (next != 0) input = next;
  return next;
}

/** Address of the last query's result: scores (f64 * k), then ids (i32 * k). */
export function lexicalResults(): usize {
  return work;
}

const LN2: f64 = 0.6931471805599453;
const SQRT2: f64 = 1.4142135623730951;

/**
 * ln(x) for x >= 1 with + - * / only: x = m * 2^e (halvings are exact), m in (sqrt(2)/2,
 * sqrt(2)], ln m = 2s(1 + s^2/3 + s^4/5 + ... + s^22/23) with s = (m - 1) / (m + 1)
 * (|s| < 0.172: the terms left out are below 1e-19). Within a few ulps of ln.
 */
export function lnBm25(x: f64): f64 {
  let e: f64 = 0;
  while (x >= 2) {
    x *= 0.5;
    e += 1;
  }
  if (x > SQRT2) {
    x *= 0.5;
    e += 1;
  }
  const s = (x - 1) / (x + 1);
  const z = s * s;
  let p: f64 = 0.043478260869565216; // 1/23
  p = p * z + 0.047619047619047616; // 1/21
  p = p * z + 0.05263157894736842; // 1/19
  p = p * z + 0.058823529411764705; // 1/17
  p = p * z + 0.06666666666666667; // 1/15
  p = p * z + 0.07692307692307693; // 1/13
  p = p * z + 0.09090909090909091; // 1/11
  p = p * z + 0.1111111111111111; // 1/9
  p = p * z + 0.14285714285714285; // 1/7
  p = p * z + 0.2; // 1/5
  p = p * z + 0.3333333333333333; // 1/3
  p = p * z + 1;
  return e * LN2 + 2 * s * p;
}

@inline function worse(s: f64, id: i32, t: f64, tid: i32): bool {
  return s < t || (s == t && id > tid);
}

@inline function swap(scores: usize, ids: usize, i: usize, j: usize): void {
  const s = load<f64>(scores + (i << 3));
  store<f64>(scores + (i << 3), load<f64>(scores + (j << 3)));
  store<f64>(scores + (j << 3), s);
  const d = load<i32>(ids + (i << 2));
  store<i32>(ids + (i << 2), load<i32>(ids + (j << 2)));
  store<i32>(ids + (j << 2), d);
}

/** Restores the heap of `n` entries below entry `i`. O(log n). */
function siftDown(scores: usize, ids: usize, i: usize, n: usize): void {
  while (true) {
    const l: usize = 2 * i + 1;
    if (l >= n) return;
    let m = l;
    if (l + 1 < n && worse(load<f64>(scores + ((l + 1) << 3)), load<i32>(ids + ((l + 1) << 2)), load<f64>(scores + (l << 3)), load<i32>(ids + (l << 2)))) m = l + 1;
    if (!worse(load<f64>(scores + (m << 3)), load<i32>(ids + (m << 2)), load<f64>(scores + (i << 3)), load<i32>(ids + (i << 2)))) return;
    swap(scores, ids, i, m);
    i = m;
  }
}

function siftUp(scores: usize, ids: usize, i: usize): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!worse(load<f64>(scores + (i << 3)), load<i32>(ids + (i << 2)), load<f64>(scores + (p << 3)), load<i32>(ids + (p << 2)))) return;
    swap(scores, ids, i, p);
    i = p;
  }
}

/**
 * The `k` documents scoring best for the `n` query terms at `src` (n hashes u32, then n
 * counts u32; a count of 0 skips its term), best first; returns how many (the result at
 * `lexicalResults()`), or -1 when memory cannot grow. k1 >= 0, 0 <= b <= 1.
 * O(postings of the query's terms + touched * log k).
 */
export function lexicalQuery(x: i32, n: i32, src: usize, k: i32, k1: f64, b: f64): i32 {
  const h = lexicalHeader(x);
  const next = regrow(work, workLog2, <usize>k * 12, false);
  if (next == 0) return -1;
  work = next;
  const live = load<i32>(h + L_LIVE);
  if (k == 0 || live == 0) return 0;
  const ids = <usize>1 << load<i32>(h + L_LENS_LOG2) >> 2;
  const a = regrow(acc, accLog2, ids << 3, true);
  if (a == 0) return -1;
  acc = a;
  const t = regrow(touched, touchedLog2, ids << 2, false);
  if (t == 0) return -1;
  touched = t;

  const docs = <f64>live;
  const avgdl = <f64>load<u64>(h + L_TOTAL) / docs;
  const c1 = k1 + 1;
  const c0 = 1 - b;
  const lens = <usize>load<u32>(h + L_LENS);
  const counts = src + (<usize>n << 2);
  let m: usize = 0;
  for (let i = 0; i < n; i++) {
    const qtf = load<u32>(counts + (<usize>i << 2));
    if (qtf == 0) continue;
    const r = findTerm(h, load<u32>(src + (<usize>i << 2)));
    if (r == 0) continue;
    const df = load<i32>(r + T_DF);
    if (df == 0) continue;
    const w = <f64>qtf * lnBm25(1 + (docs - <f64>df + 0.5) / (<f64>df + 0.5));
    const postings = <usize>load<u32>(r + T_POSTINGS);
    for (let j = 0; j < df; j++) {
      const p = load<u32>(postings + (<usize>j << 2));
      const doc = <usize>(p >>> 8);
      const tf = <f64>(p & 0xff);
      const dl = <f64>(load<u32>(lens + (doc << 2)) - 1);
      const share = w * ((tf * c1) / (tf + k1 * (c0 + b * (dl / avgdl))));
      const slot = acc + (doc << 3);
      const before = load<f64>(slot);
      if (before == 0) {
        store<i32>(touched + (m << 2), <i32>doc);
        m++;
      }
      store<f64>(slot, before + share);
    }
  }

  const scores = work;
  const out = work + (<usize>k << 3);
  const cap = <usize>k;
  let count: usize = 0;
  for (let i: usize = 0; i < m; i++) {
    const doc = load<i32>(touched + (i << 2));
    const slot = acc + (<usize>doc << 3);
    const s = load<f64>(slot);
    store<f64>(slot, 0);
    if (count < cap) {
      store<f64>(scores + (count << 3), s);
      store<i32>(out + (count << 2), doc);
      siftUp(scores, out, count);
      count++;
    } else if (!worse(s, doc, load<f64>(scores), load<i32>(out))) {
      store<f64>(scores, s);
      store<i32>(out, doc);
      siftDown(scores, out, 0, count);
    }
  }
  for (let e = count; e > 1; ) {
    e--;
    swap(scores, out, 0, e);
    siftDown(scores, out, 0, e);
  }
  return <i32>count;
}
