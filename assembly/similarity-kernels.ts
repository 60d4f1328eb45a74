// The int8 scan kernel of similarity-search.ts: the four rows of a block of codes (see the
// block layout in similarity.ts) scored in one pass over its 4 * stride8 bytes. And the read
// pass, the benchmark's floor for the exact scan.
//
//   a step (64 bytes of the block: 16 codes of each of the four rows)
//   +--------+--------+--------+--------+--------+--------+--------+--------+
//   | r0 0..7| r1 0..7| r2 0..7| r3 0..7| r0 8..15| r1 ... | r2 ... | r3 ... |
//   +--------+--------+--------+--------+--------+--------+--------+--------+
//     each 8-byte chunk is widened to i16 by its load and multiplied pairwise with the same
//     8 query codes (already i16): i32x4.dot_i16x8_s adds the pairs into i32 lanes.
//
// The sums are exact in i32 (at most 127 * 127 * stride8), so their order is free; the
// result is bitwise the TypeScript twin's integer dot product of each row.

import { headerOf, hget, matrixOf, X_BLOCK, X_CAP, X_ROWS, X_STRIDE, X_STRIDE8 } from "./similarity";

/** Pairwise lane sums of two vectors: [x0 + x1, x2 + x3, y0 + y1, y2 + y3]. */
@inline function pairSums(x: v128, y: v128): v128 {
  return i32x4.add(i32x4.shuffle(x, y, 0, 2, 4, 6), i32x4.shuffle(x, y, 1, 3, 5, 7));
}

/**
 * The int8 dot products of a block's four rows (`block`, 4 * stride8 bytes, stride8 a
 * multiple of 16) with the query's codes widened to i16 (`q16`, 2 * stride8 bytes): lane i
 * is row i's. O(stride8) loads of 8 bytes per row, one query load per two chunks of the four rows.
 */
@inline export function dot8x4(block: usize, q16: usize, stride8: i32): v128 {
  let x0 = i32x4.splat(0);
  let x1 = i32x4.splat(0);
  let x2 = i32x4.splat(0);
  let x3 = i32x4.splat(0);
  const end = block + (<usize>stride8 << 2);
  while (block < end) {
    const q0 = v128.load(q16);
    const q1 = v128.load(q16, 16);
    x0 = i32x4.add(
      x0,
      i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(block), q0), i32x4.dot_i16x8_s(v128.load8x8_s(block, 32), q1)),
    );
    x1 = i32x4.add(
      x1,
      i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(block, 8), q0), i32x4.dot_i16x8_s(v128.load8x8_s(block, 40), q1)),
    );
    x2 = i32x4.add(
      x2,
      i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(block, 16), q0), i32x4.dot_i16x8_s(v128.load8x8_s(block, 48), q1)),
    );
    x3 = i32x4.add(
      x3,
      i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(block, 24), q0), i32x4.dot_i16x8_s(v128.load8x8_s(block, 56), q1)),
    );
    block += 64;
    q16 += 32;
  }
  return pairSums(pairSums(x0, x1), pairSums(x2, x3));
}

/**
 * Reads every byte of an index's f32 matrix with v128 loads, in the order of topK's exact
 * scan (four quarters, a row of each in turn), and does nothing else: the floor that a scan
 * bound by memory cannot beat (the benchmark compares topK with it). O(rows * stride).
 */
export function readPass(x: i32): i32 {
  const h = headerOf(x);
  const block = <usize>load<u32>(h + X_BLOCK);
  const matrix = matrixOf(block, hget(h, X_CAP), hget(h, X_STRIDE8));
  const rows = hget(h, X_ROWS);
  const rowBytes = <usize>hget(h, X_STRIDE) << 2;
  const span = <usize>(rows >> 2) * rowBytes;
  let a0 = i32x4.splat(0);
  let a1 = i32x4.splat(0);
  let a2 = i32x4.splat(0);
  let a3 = i32x4.splat(0);
  let row = matrix;
  const end = matrix + span;
  while (row < end) {
    for (let i = 0; i < 4; i++) {
      let p = row + <usize>i * span;
      const stop = p + rowBytes;
      while (p < stop) {
        a0 = i32x4.add(a0, v128.load(p));
        a1 = i32x4.add(a1, v128.load(p, 16));
        a2 = i32x4.add(a2, v128.load(p, 32));
        a3 = i32x4.add(a3, v128.load(p, 48));
        p += 64;
      }
    }
    row += rowBytes;
  }
  let p = matrix + 4 * span;
  const last = matrix + <usize>rows * rowBytes;
  while (p < last) {
    a0 = i32x4.add(a0, v128.load(p));
    a1 = i32x4.add(a1, v128.load(p, 16));
    a2 = i32x4.add(a2, v128.load(p, 32));
    a3 = i32x4.add(a3, v128.load(p, 48));
    p += 64;
  }
  const s = i32x4.add(i32x4.add(a0, a1), i32x4.add(a2, a3));
  return i32x4.extract_lane(s, 0) ^ i32x4.extract_lane(s, 1) ^ i32x4.extract_lane(s, 2) ^ i32x4.extract_lane(s, 3);
}
