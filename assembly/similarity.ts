// Embedding matrices and their top-k search: one index per recall scope.
//
//   index header (one per handle, 32 bytes, in the index table)
//   +-------+------+-----+------+-----+--------+---------+---------+
//   | block | log2 | cap | rows | dim | stride | stride8 | spare   |
//   +-------+------+-----+------+-----+--------+---------+---------+
//
//   index block (1 << log2 bytes, cap = C rows)
//   +-----------+-------------+-----------------------+--------------------------+
//   | keys i32*C| scales f32*C| codes i8 * C*stride8  | matrix f32 * C*stride    |
//   +-----------+-------------+-----------------------+--------------------------+
//                                                     ^ 16-byte aligned
//
// matrix   the rows, L2-normalized at insert, `stride` floats a row (dim rounded up to 16,
//          zero padded): the dot product runs four f32x4 accumulators over 16 floats a step.
// codes    an int8 copy of each row (per-row scale = max |x| / 127), `stride8` bytes a row
//          (dim rounded up to 32, zero padded; 0 when the index is not quantized): a scan of
//          a quarter of the bytes picks candidates that the exact f32 dot product re-ranks.
//          Rows are stored in blocks of four, interleaved by 8 bytes, so that the scan reads
//          four rows as one sequential stream and each query load serves all four:
//
//            block b (rows 4b .. 4b+3, 4 * stride8 bytes)
//            +---------+---------+---------+---------+---------+-----
//            | row 4b  | row 4b+1| row 4b+2| row 4b+3| row 4b  | ...
//            | bytes   | bytes   | bytes   | bytes   | bytes   |
//            | 0..7    | 0..7    | 0..7    | 0..7    | 8..15   |
//            +---------+---------+---------+---------+---------+-----
//
//          so byte j of row r is at codes + (r >> 2) * 4 * stride8 + (j >> 3) * 32 + (r & 3) * 8
//          + (j & 7). The capacity is a multiple of 4: every block is whole.
// keys     the caller's integer key of each row: ties of score go to the lower key, so the
//          result never depends on row order (removal moves the last row into the hole).
//
// Summation order is part of the contract: `dot` below adds lane-wise products into four
// accumulators in a fixed order, then (a0 + a1) + (a2 + a3), then (l0 + l1) + (l2 + l3).
// The TypeScript twin (src/engine/similarity-js.ts) repeats exactly these f32 operations,
// so both engines return bitwise identical scores.

import { allocRaw, freeRaw, takeHandle, dropHandle, entryOf } from "./alloc";

const HEADER_BYTES: usize = 32;
export const X_BLOCK: usize = 0;
export const X_LOG2: usize = 4;
export const X_CAP: usize = 8;
export const X_ROWS: usize = 12;
export const X_DIM: usize = 16;
export const X_STRIDE: usize = 20;
export const X_STRIDE8: usize = 24;

const MIN_LOG2: i32 = 12;
const MAX_ROWS: i32 = 1 << 26;

const indexes = memory.data<i32>([0, 0, 0, -1]); // see alloc.ts's handle tables

@inline export function headerOf(x: i32): usize {
  return entryOf(indexes, HEADER_BYTES, x);
}

@inline export function hget(h: usize, field: usize): i32 {
  return load<i32>(h + field);
}

/** Bytes a row takes in a block: key, scale, codes, floats. */
@inline function rowBytes(stride: i32, stride8: i32): usize {
  return 8 + <usize>stride8 + (<usize>stride << 2);
}

/** Rows a block of 1 << log2 bytes holds (16 bytes kept for the matrix's alignment), a multiple of 4. */
@inline function capacityOf(log2: i32, stride: i32, stride8: i32): i32 {
  return <i32>min<usize>(((<usize>1 << log2) - 16) / rowBytes(stride, stride8), MAX_ROWS) & ~3;
}

@inline export function keysOf(block: usize): usize {
  return block;
}

@inline export function scalesOf(block: usize, cap: i32): usize {
  return block + (<usize>cap << 2);
}

@inline export function codesOf(block: usize, cap: i32): usize {
  return block + (<usize>cap << 3);
}

/** Where row `r`'s first 8 codes are (its next 8 are 32 bytes further, and so on). */
@inline export function codeRowOf(codes: usize, r: i32, stride8: i32): usize {
  return codes + <usize>(r >> 2) * (<usize>stride8 << 2) + (<usize>(r & 3) << 3);
}

/** Bytes between a row's consecutive 8-byte chunks of codes: 8 when contiguous (a query), 32 in a block. */
export const PITCH_ROW: usize = 8;
export const PITCH_BLOCK: usize = 32;

@inline export function matrixOf(block: usize, cap: i32, stride8: i32): usize {
  return (codesOf(block, cap) + <usize>cap * <usize>stride8 + 15) & ~15;
}

/** A new empty index of `dim` floats a row (`quantized`: with the int8 copy); -1 when memory cannot grow. O(1). */
export function createIndex(dim: i32, quantized: bool): i32 {
  const x = takeHandle(indexes, HEADER_BYTES);
  if (x < 0) return -1;
  const h = headerOf(x);
  const stride = (dim + 15) & ~15;
  const stride8 = quantized ? (dim + 31) & ~31 : 0;
  store<u32>(h + X_BLOCK, 0);
  store<i32>(h + X_LOG2, 0);
  store<i32>(h + X_CAP, 0);
  store<i32>(h + X_ROWS, 0);
  store<i32>(h + X_DIM, dim);
  store<i32>(h + X_STRIDE, stride);
  store<i32>(h + X_STRIDE8, stride8);
  return x;
}

/** Frees an index's block; the handle may be reused. O(1). */
export function dropIndex(x: i32): void {
  const h = headerOf(x);
  const block = <usize>load<u32>(h + X_BLOCK);
  if (block != 0) freeRaw(block, hget(h, X_LOG2));
  dropHandle(indexes, HEADER_BYTES, x);
}

/** Forgets every row (the block stays for reuse). O(1). */
export function clearIndex(x: i32): void {
  store<i32>(headerOf(x) + X_ROWS, 0);
}

export function indexRows(x: i32): i32 {
  return hget(headerOf(x), X_ROWS);
}

/** Address of the index table (the wrapper reads row counts and keys through its views). */
export function indexTable(): usize {
  return entryOf(indexes, HEADER_BYTES, 0);
}

/** Address of the block of an index (it moves when the index grows). */
export function indexBlock(x: i32): usize {
  return <usize>load<u32>(headerOf(x) + X_BLOCK);
}

/**
 * Grows an index until it holds `n` rows; false when memory cannot grow (nothing changed).
 * O(rows) when it moves: the four regions are copied to a block twice as large.
 */
export function reserveRows(x: i32, n: i32): bool {
  const h = headerOf(x);
  const cap = hget(h, X_CAP);
  if (n <= cap) return true;
  if (n > MAX_ROWS) return false;
  const stride = hget(h, X_STRIDE);
  const stride8 = hget(h, X_STRIDE8);
  let k = max(hget(h, X_LOG2) + 1, MIN_LOG2);
  while (k <= 31 && capacityOf(k, stride, stride8) < n) k++;
  if (k > 31) return false; // more than 2 GiB: past what one block of wasm32 memory can be
  const to = allocRaw(k);
  if (to == 0) return false;
  const from = <usize>load<u32>(h + X_BLOCK);
  const cap2 = capacityOf(k, stride, stride8);
  if (from != 0) {
    const rows = <usize>hget(h, X_ROWS);
    memory.copy(keysOf(to), keysOf(from), rows << 2);
    memory.copy(scalesOf(to, cap2), scalesOf(from, cap), rows << 2);
    memory.copy(codesOf(to, cap2), codesOf(from, cap), ((rows + 3) & ~3) * <usize>stride8); // whole blocks
    memory.copy(matrixOf(to, cap2, stride8), matrixOf(from, cap, stride8), (rows * <usize>stride) << 2);
    freeRaw(from, hget(h, X_LOG2));
  }
  store<u32>(h + X_BLOCK, <u32>to);
  store<i32>(h + X_LOG2, k);
  store<i32>(h + X_CAP, cap2);
  return true;
}

/** The canonical f32 dot product over `stride` floats (a multiple of 16); see the order above. */
@inline export function dot(a: usize, b: usize, stride: i32): f32 {
  let a0 = f32x4.splat(0);
  let a1 = f32x4.splat(0);
  let a2 = f32x4.splat(0);
  let a3 = f32x4.splat(0);
  const end = a + (<usize>stride << 2);
  while (a < end) {
    a0 = f32x4.add(a0, f32x4.mul(v128.load(a), v128.load(b)));
    a1 = f32x4.add(a1, f32x4.mul(v128.load(a, 16), v128.load(b, 16)));
    a2 = f32x4.add(a2, f32x4.mul(v128.load(a, 32), v128.load(b, 32)));
    a3 = f32x4.add(a3, f32x4.mul(v128.load(a, 48), v128.load(b, 48)));
    a += 64;
    b += 64;
  }
  const s = f32x4.add(f32x4.add(a0, a1), f32x4.add(a2, a3));
  return (f32x4.extract_lane(s, 0) + f32x4.extract_lane(s, 1)) + (f32x4.extract_lane(s, 2) + f32x4.extract_lane(s, 3));
}

/**
 * Writes `src` (dim floats) to `row` (stride floats) L2-normalized: divided by its largest
 * magnitude first, so that neither huge nor tiny values overflow the sum of squares; a zero
 * vector stays zero. The padding is zeroed. O(stride).
 */
export function normalizeInto(row: usize, src: usize, dim: i32, stride: i32): void {
  let m: f32 = 0;
  for (let j = 0; j < dim; j++) m = max(m, abs(load<f32>(src + (<usize>j << 2))));
  for (let j = dim; j < stride; j++) store<f32>(row + (<usize>j << 2), 0);
  if (m == 0) {
    for (let j = 0; j < dim; j++) store<f32>(row + (<usize>j << 2), 0);
    return;
  }
  for (let j = 0; j < dim; j++) store<f32>(row + (<usize>j << 2), load<f32>(src + (<usize>j << 2)) / m);
  const inv: f32 = <f32>1 / sqrt<f32>(dot(row, row, stride));
  for (let j = 0; j < dim; j++) {
    const p = row + (<usize>j << 2);
    store<f32>(p, load<f32>(p) * inv);
  }
}

/** Address of code `j` of a row whose first 8 codes are at `codes`, chunks `pitch` bytes apart. */
@inline function codeAt(codes: usize, pitch: usize, j: i32): usize {
  return codes + (<usize>(j >> 3) * pitch) + <usize>(j & 7);
}

/**
 * Writes the int8 codes of a normalized row (8-byte chunks `pitch` bytes apart, see the block
 * layout above) and returns its scale (max |x| / 127). O(stride8).
 */
export function quantizeInto(codes: usize, pitch: usize, row: usize, dim: i32, stride8: i32): f32 {
  let m: f32 = 0;
  for (let j = 0; j < dim; j++) m = max(m, abs(load<f32>(row + (<usize>j << 2))));
  for (let j = 0; j < stride8; j += 8) store<u64>(codeAt(codes, pitch, j), 0);
  if (m == 0) return 0;
  const inv: f32 = <f32>127 / m;
  for (let j = 0; j < dim; j++) {
    // Rounded half away from zero in f64, where t + 0.5 is exact: the twin does the same.
    const t = <f64>(load<f32>(row + (<usize>j << 2)) * inv);
    const q = t < 0 ? -Math.floor(-t + 0.5) : Math.floor(t + 0.5);
    store<i8>(codeAt(codes, pitch, j), <i8>min(max(<i32>q, -127), 127));
  }
  return m / <f32>127;
}

/**
 * Appends `n` rows: `n * dim` floats at `src`, then their `n` keys (i32). Rows are
 * normalized (and quantized) on the way in. Returns the new row count, or -1 when memory
 * cannot grow (nothing changed). O(n * stride).
 */
export function addRows(x: i32, n: i32, src: usize): i32 {
  const h = headerOf(x);
  const rows = hget(h, X_ROWS);
  if (!reserveRows(x, rows + n)) return -1;
  const dim = hget(h, X_DIM);
  const stride = hget(h, X_STRIDE);
  const stride8 = hget(h, X_STRIDE8);
  const cap = hget(h, X_CAP);
  const block = <usize>load<u32>(h + X_BLOCK);
  const matrix = matrixOf(block, cap, stride8);
  const keySrc = src + (<usize>n * <usize>dim << 2);
  for (let i = 0; i < n; i++) {
    const r = <usize>(rows + i);
    const row = matrix + ((r * <usize>stride) << 2);
    normalizeInto(row, src + ((<usize>i * <usize>dim) << 2), dim, stride);
    store<i32>(keysOf(block) + (r << 2), load<i32>(keySrc + (<usize>i << 2)));
    if (stride8 != 0) {
      const codes = codeRowOf(codesOf(block, cap), <i32>r, stride8);
      store<f32>(scalesOf(block, cap) + (r << 2), quantizeInto(codes, PITCH_BLOCK, row, dim, stride8));
    }
  }
  store<i32>(h + X_ROWS, rows + n);
  return rows + n;
}

/** Removes row `r` by moving the last row into it; returns the moved row's key, or -1 when `r` was last. O(stride). */
export function removeRow(x: i32, r: i32): i32 {
  const h = headerOf(x);
  const last = hget(h, X_ROWS) - 1;
  store<i32>(h + X_ROWS, last);
  if (r == last) return -1;
  const block = <usize>load<u32>(h + X_BLOCK);
  const cap = hget(h, X_CAP);
  const stride = <usize>hget(h, X_STRIDE);
  const stride8 = <usize>hget(h, X_STRIDE8);
  const matrix = matrixOf(block, cap, <i32>stride8);
  const key = load<i32>(keysOf(block) + (<usize>last << 2));
  store<i32>(keysOf(block) + (<usize>r << 2), key);
  store<f32>(scalesOf(block, cap) + (<usize>r << 2), load<f32>(scalesOf(block, cap) + (<usize>last << 2)));
  const to = codeRowOf(codesOf(block, cap), r, <i32>stride8);
  const from = codeRowOf(codesOf(block, cap), last, <i32>stride8);
  for (let j: usize = 0; j < stride8; j += 8) store<u64>(to + (j << 2), load<u64>(from + (j << 2)));
  memory.copy(matrix + ((<usize>r * stride) << 2), matrix + ((<usize>last * stride) << 2), stride << 2);
  return key;
}

/** Copies row `r` (dim normalized floats) to `out`. O(dim). */
export function readRow(x: i32, r: i32, out: usize): void {
  const h = headerOf(x);
  const block = <usize>load<u32>(h + X_BLOCK);
  const row = matrixOf(block, hget(h, X_CAP), hget(h, X_STRIDE8)) + ((<usize>r * <usize>hget(h, X_STRIDE)) << 2);
  memory.copy(out, row, <usize>hget(h, X_DIM) << 2);
}
