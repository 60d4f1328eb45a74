/**
 * A similarity row's arithmetic in plain TypeScript, as the core (assembly/similarity.ts) does it: row strides, the
 * f32 dot product of its four accumulators, L2 normalization and int8 quantization, bitwise the SIMD code's results.
 * Every f32 operation is repeated with Math.fround after each step, in the core's order.
 */

const f = Math.fround;

/** Floats a row takes: the dimension rounded up to 16 (four f32x4 accumulators a step). */
export const strideOf = (dimension: number): number => (dimension + 15) & ~15;
/** Bytes an int8 row takes: the dimension rounded up to 32. */
export const stride8Of = (dimension: number): number => (dimension + 31) & ~31;

/**
 * The canonical dot product of two rows of `stride` floats (a multiple of 16): four
 * accumulators of four lanes, lanes summed (a0 + a1) + (a2 + a3), then (l0 + l1) + (l2 + l3).
 */
export function dotF32(a: Float32Array, ai: number, b: Float32Array, bi: number, stride: number): number {
  let a0 = 0,
    a1 = 0,
    a2 = 0,
    a3 = 0,
    a4 = 0,
    a5 = 0,
    a6 = 0,
    a7 = 0;
  let a8 = 0,
    a9 = 0,
    a10 = 0,
    a11 = 0,
    a12 = 0,
    a13 = 0,
    a14 = 0,
    a15 = 0;
  for (let j = 0; j < stride; j += 16) {
    const x = ai + j;
    const y = bi + j;
    a0 = f(a0 + f(a[x]! * b[y]!));
    a1 = f(a1 + f(a[x + 1]! * b[y + 1]!));
    a2 = f(a2 + f(a[x + 2]! * b[y + 2]!));
    a3 = f(a3 + f(a[x + 3]! * b[y + 3]!));
    a4 = f(a4 + f(a[x + 4]! * b[y + 4]!));
    a5 = f(a5 + f(a[x + 5]! * b[y + 5]!));
    a6 = f(a6 + f(a[x + 6]! * b[y + 6]!));
    a7 = f(a7 + f(a[x + 7]! * b[y + 7]!));
    a8 = f(a8 + f(a[x + 8]! * b[y + 8]!));
    a9 = f(a9 + f(a[x + 9]! * b[y + 9]!));
    a10 = f(a10 + f(a[x + 10]! * b[y + 10]!));
    a11 = f(a11 + f(a[x + 11]! * b[y + 11]!));
    a12 = f(a12 + f(a[x + 12]! * b[y + 12]!));
    a13 = f(a13 + f(a[x + 13]! * b[y + 13]!));
    a14 = f(a14 + f(a[x + 14]! * b[y + 14]!));
    a15 = f(a15 + f(a[x + 15]! * b[y + 15]!));
  }
  const s0 = f(f(a0 + a4) + f(a8 + a12));
  const s1 = f(f(a1 + a5) + f(a9 + a13));
  const s2 = f(f(a2 + a6) + f(a10 + a14));
  const s3 = f(f(a3 + a7) + f(a11 + a15));
  return f(f(s0 + s1) + f(s2 + s3));
}

/** Writes `src[si .. si+dim)` L2-normalized to `row[ri ..]` (zero padded to `stride`), exactly as the core does. */
export function normalizeInto(
  row: Float32Array,
  ri: number,
  src: Float32Array,
  si: number,
  dim: number,
  stride: number,
): void {
  let m = 0;
  for (let j = 0; j < dim; j++) m = Math.max(m, Math.abs(src[si + j]!));
  row.fill(0, ri, ri + stride);
  if (m === 0) return;
  for (let j = 0; j < dim; j++) row[ri + j] = src[si + j]! / m; // the store rounds to f32
  const inv = f(1 / f(Math.sqrt(dotF32(row, ri, row, ri, stride))));
  for (let j = 0; j < dim; j++) row[ri + j] = row[ri + j]! * inv;
}

/** Writes the int8 codes of a normalized row and returns its scale, exactly as the core does. */
export function quantizeInto(
  codes: Int8Array,
  ci: number,
  row: Float32Array,
  ri: number,
  dim: number,
  stride8: number,
): number {
  let m = 0;
  for (let j = 0; j < dim; j++) m = Math.max(m, Math.abs(row[ri + j]!));
  codes.fill(0, ci, ci + stride8);
  if (m === 0) return 0;
  const inv = f(127 / m);
  for (let j = 0; j < dim; j++) {
    const t = f(row[ri + j]! * inv);
    const q = t < 0 ? -Math.floor(-t + 0.5) : Math.floor(t + 0.5);
    codes[ci + j] = Math.min(Math.max(q, -127), 127);
  }
  return f(m / 127);
}
