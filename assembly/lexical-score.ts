// What the lexical query (lexical-query.ts, lexical-context.ts) computes with: ln and BM25's
// share in + - * / only (the TypeScript twin repeats them bit for bit), the heap of the best
// k, the accumulator's credit, and the scratch buffers' growth.

import { allocRaw, freeRaw } from "./alloc";

/**
 * A block of at least `bytes` replacing `ptr` of class `load(log2)` (kept when large enough); 0 when memory cannot
 * grow.
 */
export function regrow(ptr: usize, log2: usize, bytes: usize, zero: bool): usize {
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

/** BM25's share of a term of weight `w` in a document (window, segment) of count `tf` and length `dl`. */
@inline export function bm25(w: f64, tf: f64, dl: f64, avg: f64, k1: f64, b: f64): f64 {
  return w * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * (dl / avg))));
}

@inline export function worse(s: f64, id: i32, t: f64, tid: i32): bool {
  return s < t || (s == t && id > tid);
}

@inline export function swap(scores: usize, ids: usize, i: usize, j: usize): void {
  const s = load<f64>(scores + (i << 3));
  store<f64>(scores + (i << 3), load<f64>(scores + (j << 3)));
  store<f64>(scores + (j << 3), s);
  const d = load<i32>(ids + (i << 2));
  store<i32>(ids + (i << 2), load<i32>(ids + (j << 2)));
  store<i32>(ids + (j << 2), d);
}

/** The heap's score at entry `k`. */
@inline function scoreAt(scores: usize, k: usize): f64 {
  return load<f64>(scores + (k << 3));
}

/** The heap's id at entry `k`. */
@inline function idAt(ids: usize, k: usize): i32 {
  return load<i32>(ids + (k << 2));
}

/** Restores the heap of `n` entries below entry `i`. O(log n). */
export function siftDown(scores: usize, ids: usize, i: usize, n: usize): void {
  while (true) {
    const l: usize = 2 * i + 1;
    if (l >= n) return;
    let m = l;
    const r = l + 1;
    if (r < n && worse(scoreAt(scores, r), idAt(ids, r), scoreAt(scores, l), idAt(ids, l))) m = r;
    if (!worse(scoreAt(scores, m), idAt(ids, m), scoreAt(scores, i), idAt(ids, i))) return;
    swap(scores, ids, i, m);
    i = m;
  }
}

export function siftUp(scores: usize, ids: usize, i: usize): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!worse(scoreAt(scores, i), idAt(ids, i), scoreAt(scores, p), idAt(ids, p))) return;
    swap(scores, ids, i, p);
    i = p;
  }
}

/**
 * Adds `v` (> 0) to document `doc`'s slot of the accumulator, listing it as touched on its first share; returns the
 * touched count.
 */
@inline export function credit(acc: usize, touched: usize, doc: usize, v: f64, m: usize): usize {
  const slot = acc + (doc << 3);
  const before = load<f64>(slot);
  if (before == 0) {
    store<i32>(touched + (m << 2), <i32>doc);
    m++;
  }
  store<f64>(slot, before + v);
  return m;
}

