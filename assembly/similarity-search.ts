// Top-k search over an index of similarity.ts: one call scans the whole matrix.
//
//   work buffer (grown by doubling, reused by every search)
//   +--------------------------+------------------------------+------------+-------------+
//   | result: scores f32 * k,  | candidates: scores f32 * c,  | query f32  | query codes |
//   |  keys i32 * k, rows i32*k|  keys i32 * c, rows i32 * c  |  * stride  | i8 * stride8|
//   +--------------------------+------------------------------+------------+-------------+
//
// A heap keeps the best rows seen: its root is the worst of them (lower score, or equal
// score and higher key), so a row enters only when it beats the root. The result is then
// heap-sorted best first: score descending, key ascending. That order is total (keys are
// unique), so the answer does not depend on the order rows were scanned in.

import { allocRaw, freeRaw } from "./alloc";
import {
  headerOf, hget, keysOf, scalesOf, codesOf, matrixOf, dot, normalizeInto, quantizeInto,
  X_BLOCK, X_CAP, X_ROWS, X_DIM, X_STRIDE, X_STRIDE8, PITCH_ROW,
} from "./similarity";
import { dot8x4 } from "./similarity-kernels";

export { readPass } from "./similarity-kernels"; // the benchmark's floor, exported with the search

let work: usize = 0;
let workLog2: i32 = 0;
let input: usize = 0;
let inputLog2: i32 = 0;

/**
 * A buffer of at least `bytes` (a power of two, at least 4 KiB), replacing `ptr` of class `log2`; 0 when memory cannot
 * grow.
 */
function regrow(ptr: usize, log2: i32, bytes: usize): usize {
  if (ptr != 0 && bytes <= (<usize>1 << log2)) return ptr;
  let k = max(log2, 12);
  while ((<usize>1 << k) < bytes) k++;
  if (k > 31) return 0;
  const next = allocRaw(k);
  if (next == 0) return 0;
  if (ptr != 0) freeRaw(ptr, log2);
  lastLog2 = k;
  return next;
}

let lastLog2: i32 = 0;

/**
 * Makes room for `bytes` in the input buffer (rows to add, a query); returns its address, or 0 when memory cannot grow.
 */
export function reserveInput(bytes: usize): usize {
  const next = regrow(input, inputLog2, bytes);
  if (next != 0 && next != input) {
    input = next;
    inputLog2 = lastLog2;
  }
  return next;
}

/** Makes the work buffer hold at least `bytes`; false when memory cannot grow (the buffer is then unchanged). */
function growWork(bytes: usize): bool {
  const next = regrow(work, workLog2, bytes);
  if (next == 0) return false;
  if (next != work) {
    work = next;
    workLog2 = lastLog2;
  }
  return true;
}

/** Address of the last search's result: scores (f32 * k), then keys (i32 * k). */
export function resultsAddress(): usize {
  return work;
}

@inline function worse(s: f32, key: i32, t: f32, tkey: i32): bool {
  return s < t || (s == t && key > tkey);
}

@inline function swap(scores: usize, keys: usize, rows: usize, i: usize, j: usize): void {
  const s = load<f32>(scores + i);
  store<f32>(scores + i, load<f32>(scores + j));
  store<f32>(scores + j, s);
  const k = load<i32>(keys + i);
  store<i32>(keys + i, load<i32>(keys + j));
  store<i32>(keys + j, k);
  const r = load<i32>(rows + i);
  store<i32>(rows + i, load<i32>(rows + j));
  store<i32>(rows + j, r);
}

/** Restores the heap below slot `i` (byte offsets, 4 a slot) of a heap of `n` slots. O(log n). */
function siftDown(scores: usize, keys: usize, rows: usize, i: usize, n: usize): void {
  const end = n << 2;
  while (true) {
    const l = (i << 1) + 4;
    if (l >= end) return;
    let m = l;
    const r = l + 4;
    if (r < end && worse(load<f32>(scores + r), load<i32>(keys + r), load<f32>(scores + l), load<i32>(keys + l))) m = r;
    if (!worse(load<f32>(scores + m), load<i32>(keys + m), load<f32>(scores + i), load<i32>(keys + i))) return;
    swap(scores, keys, rows, i, m);
    i = m;
  }
}

function siftUp(scores: usize, keys: usize, rows: usize, i: usize): void {
  while (i > 0) {
    const p = (((i >> 2) - 1) >> 1) << 2;
    if (!worse(load<f32>(scores + i), load<i32>(keys + i), load<f32>(scores + p), load<i32>(keys + p))) return;
    swap(scores, keys, rows, i, p);
    i = p;
  }
}

/** Offers a row to a heap holding `n` of `cap` slots; returns the new count. O(log cap) when it enters. */
@inline function offer(scores: usize, keys: usize, rows: usize, n: i32, cap: i32, s: f32, key: i32, row: i32): i32 {
  if (n < cap) {
    const i = <usize>n << 2;
    store<f32>(scores + i, s);
    store<i32>(keys + i, key);
    store<i32>(rows + i, row);
    siftUp(scores, keys, rows, i);
    return n + 1;
  }
  if (worse(s, key, load<f32>(scores), load<i32>(keys))) return n;
  store<f32>(scores, s);
  store<i32>(keys, key);
  store<i32>(rows, row);
  siftDown(scores, keys, rows, 0, <usize>n);
  return n;
}

/**
 * Offers row `r` scoring `s` unless it is below `minScore` or the full heap's root beats it;
 * returns the new count. O(1) when it does not enter, O(log cap) when it does.
 */
@inline function consider(
  scores: usize, keys: usize, rows: usize, n: i32, cap: i32, s: f32, minScore: f32, keyCol: usize, r: i32,
): i32 {
  if (s < minScore) return n;
  const key = load<i32>(keyCol + (<usize>r << 2));
  if (n == cap && worse(s, key, load<f32>(scores), load<i32>(keys))) return n;
  return offer(scores, keys, rows, n, cap, s, key, r);
}

/** `consider` for the four rows from `r` on (scores in `s4`), those below `rows` only. */
@inline function considerBlock(
  scores: usize, keys: usize, rowsOut: usize, n: i32, cap: i32, s4: v128, keyCol: usize, r: i32, rows: i32,
): i32 {
  n = consider(scores, keys, rowsOut, n, cap, f32x4.extract_lane(s4, 0), -Infinity, keyCol, r);
  if (r + 1 < rows) n = consider(scores, keys, rowsOut, n, cap, f32x4.extract_lane(s4, 1), -Infinity, keyCol, r + 1);
  if (r + 2 < rows) n = consider(scores, keys, rowsOut, n, cap, f32x4.extract_lane(s4, 2), -Infinity, keyCol, r + 2);
  if (r + 3 < rows) n = consider(scores, keys, rowsOut, n, cap, f32x4.extract_lane(s4, 3), -Infinity, keyCol, r + 3);
  return n;
}

/** Sorts a heap best first (score descending, key ascending). O(n log n). */
function sortHeap(scores: usize, keys: usize, rows: usize, n: i32): void {
  for (let m = n - 1; m > 0; m--) {
    swap(scores, keys, rows, 0, <usize>m << 2);
    siftDown(scores, keys, rows, 0, <usize>m);
  }
}

/**
 * The `k` rows most similar to the query at `q` (dim floats, normalized here), best first,
 * skipping scores below `minScore`; returns how many (results at `resultsAddress()`), or -1
 * when memory cannot grow. With `c > 0` on a quantized index the int8 codes pick the `c`
 * best candidates, which the exact f32 dot product re-ranks. O(rows * stride) in one call.
 */
export function topK(x: i32, q: usize, k: i32, c: i32, minScore: f32): i32 {
  const h = headerOf(x);
  const rows = hget(h, X_ROWS);
  const dim = hget(h, X_DIM);
  const stride = hget(h, X_STRIDE);
  const stride8 = hget(h, X_STRIDE8);
  const approximate = stride8 != 0 && c > 0 && c < rows;
  if (!approximate) c = 0;
  const resultBytes = <usize>k * 12;
  const candidateBytes = <usize>c * 12;
  const queryAt = (resultBytes + candidateBytes + 15) & ~15;
  const bytes = queryAt + (<usize>stride << 2) + <usize>stride8 * 3; // the query's codes, then widened to i16
  if (!growWork(bytes)) return -1;
  const qf = work + queryAt;
  normalizeInto(qf, q, dim, stride);
  if (k == 0 || rows == 0) return 0;

  const block = <usize>load<u32>(h + X_BLOCK);
  const cap = hget(h, X_CAP);
  const matrix = matrixOf(block, cap, stride8);
  const keyCol = keysOf(block);
  const rowBytes = <usize>stride << 2;
  const scores = work;
  const keys = work + (<usize>k << 2);
  const rowsOut = work + (<usize>k << 3);
  let n = 0;
  if (!approximate) {
    // The matrix is read as four sequential streams (its quarters), a row of each in turn:
    // more misses in flight than one stream. `floor` is the score a row must reach to be
    // looked at: minScore, then the full heap's root.
    const quarter = rows >> 2;
    const span = <usize>quarter * rowBytes;
    let floor = minScore;
    let row = matrix;
    for (let r = 0; r < quarter; r++) {
      const s0 = dot(row, qf, stride);
      const s1 = dot(row + span, qf, stride);
      const s2 = dot(row + 2 * span, qf, stride);
      const s3 = dot(row + 3 * span, qf, stride);
      row += rowBytes;
      if (max(max(s0, s1), max(s2, s3)) < floor) continue;
      n = consider(scores, keys, rowsOut, n, k, s0, minScore, keyCol, r);
      n = consider(scores, keys, rowsOut, n, k, s1, minScore, keyCol, r + quarter);
      n = consider(scores, keys, rowsOut, n, k, s2, minScore, keyCol, r + 2 * quarter);
      n = consider(scores, keys, rowsOut, n, k, s3, minScore, keyCol, r + 3 * quarter);
      if (n == k) floor = load<f32>(scores);
    }
    row = matrix + 4 * span;
    for (let r = quarter << 2; r < rows; r++) {
      n = consider(scores, keys, rowsOut, n, k, dot(row, qf, stride), minScore, keyCol, r);
      row += rowBytes;
    }
  } else {
    const q8 = qf + rowBytes;
    quantizeInto(q8, PITCH_ROW, qf, dim, stride8);
    const q16 = q8 + <usize>stride8;
    for (let j = 0; j < stride8; j++) store<i16>(q16 + (<usize>j << 1), <i16>load<i8>(q8 + <usize>j));
    const cScores = work + resultBytes;
    const cKeys = cScores + (<usize>c << 2);
    const cRows = cScores + (<usize>c << 3);
    const scaleCol = scalesOf(block, cap);
    const step = <usize>stride8 << 2;
    // Blocks of four rows, read as two sequential streams (the halves), a block of each in
    // turn; in the last block, lanes past `rows` are stale and skipped.
    const blocks = (rows + 3) >> 2;
    const half = blocks >> 1;
    const span = <usize>half * step;
    let code = codesOf(block, cap);
    let floor: f32 = -Infinity;
    let m = 0;
    for (let b = 0; b < half; b++) {
      const r = b << 2;
      const s4 = f32x4.mul(f32x4.convert_i32x4_s(dot8x4(code, q16, stride8)), v128.load(scaleCol + (<usize>r << 2)));
      const scales = v128.load(scaleCol + (<usize>r << 2) + (<usize>half << 4));
      const t4 = f32x4.mul(f32x4.convert_i32x4_s(dot8x4(code + span, q16, stride8)), scales);
      code += step;
      const f4 = f32x4.splat(floor);
      if (i32x4.all_true(v128.and(f32x4.lt(s4, f4), f32x4.lt(t4, f4)))) continue;
      m = considerBlock(cScores, cKeys, cRows, m, c, s4, keyCol, r, rows);
      m = considerBlock(cScores, cKeys, cRows, m, c, t4, keyCol, r + (half << 2), rows);
      if (m == c) floor = load<f32>(cScores);
    }
    if (blocks & 1) {
      const r = (blocks - 1) << 2;
      const scales = v128.load(scaleCol + (<usize>r << 2));
      const s4 = f32x4.mul(f32x4.convert_i32x4_s(dot8x4(code + span, q16, stride8)), scales);
      m = considerBlock(cScores, cKeys, cRows, m, c, s4, keyCol, r, rows);
    }
    for (let i = 0; i < m; i++) {
      const r = load<i32>(cRows + (<usize>i << 2));
      const s = dot(matrix + <usize>r * rowBytes, qf, stride);
      if (s < minScore) continue;
      n = offer(scores, keys, rowsOut, n, k, s, load<i32>(cKeys + (<usize>i << 2)), r);
    }
  }
  sortHeap(scores, keys, rowsOut, n);
  return n;
}

/**
 * Scores the `n` rows listed at `list` (i32 row numbers, each below the index's row count)
 * against the query at `q` (dim floats, normalized here) with the dot product topK ranks by,
 * the same bits; writes the scores (f32 * n) at `resultsAddress()`. Returns n, or -1 when
 * memory cannot grow. O(n * stride): recall re-ranks a few candidates without a scan.
 */
export function scoreRows(x: i32, q: usize, list: usize, n: i32): i32 {
  const h = headerOf(x);
  const dim = hget(h, X_DIM);
  const stride = hget(h, X_STRIDE);
  const queryAt = ((<usize>n << 2) + 15) & ~15;
  if (!growWork(queryAt + (<usize>stride << 2))) return -1;
  const qf = work + queryAt;
  normalizeInto(qf, q, dim, stride);
  const block = <usize>load<u32>(h + X_BLOCK);
  const matrix = matrixOf(block, hget(h, X_CAP), hget(h, X_STRIDE8));
  const rowBytes = <usize>stride << 2;
  for (let i = 0; i < n; i++) {
    const r = load<i32>(list + (<usize>i << 2));
    store<f32>(work + (<usize>i << 2), dot(matrix + <usize>r * rowBytes, qf, stride));
  }
  return n;
}
