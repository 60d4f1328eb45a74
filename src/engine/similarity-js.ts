import { CtxloomError } from "../errors.js";
import type { SearchHits, SimilarityIndex } from "./similarity-types.js";
import { dotF32, normalizeInto, quantizeInto, stride8Of, strideOf } from "./similarity-rows.js";

export { dotF32, normalizeInto, quantizeInto, stride8Of, strideOf } from "./similarity-rows.js";

// The TypeScript twin of assembly/similarity.ts and similarity-search.ts. Every f32
// operation of the core is repeated here with Math.fround after each step, in the same
// order: a product or sum of two f32 values computed in f64 and rounded once to f32 is the
// correctly rounded f32 result, so the scores are bitwise those of the SIMD code. A row's
// arithmetic (strides, dot product, normalization, quantization) lives in similarity-rows.ts.

const f = Math.fround;
const MAX_ROWS = 1 << 26;

interface Matrix {
  dim: number;
  stride: number;
  stride8: number;
  rows: number;
  keys: Int32Array;
  scales: Float32Array;
  codes: Int8Array;
  matrix: Float32Array;
}

/** Orders hits: a before b when a scores higher, or equal and a's key is lower. */
const better = (s: number, key: number, t: number, tkey: number): boolean => s > t || (s === t && key < tkey);

/**
 * The best hits seen, at most `cap`: a heap whose root is the worst kept hit (as in the core),
 * so a hit enters in O(log cap) and the common case (a full heap it does not beat) is one compare.
 */
class Best {
  scores: Float64Array;
  keys: Int32Array;
  rows: Int32Array;
  n = 0;
  constructor(readonly cap: number) {
    this.scores = new Float64Array(cap);
    this.keys = new Int32Array(cap);
    this.rows = new Int32Array(cap);
  }
  /** Whether a hit would enter. */
  admits(s: number, key: number): boolean {
    return this.n < this.cap || better(s, key, this.scores[0]!, this.keys[0]!);
  }
  #swap(i: number, j: number): void {
    const { scores, keys, rows } = this;
    [scores[i], scores[j]] = [scores[j]!, scores[i]!];
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  #down(i: number, n: number): void {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      let m = l;
      if (l + 1 < n && better(this.scores[m]!, this.keys[m]!, this.scores[l + 1]!, this.keys[l + 1]!)) m = l + 1;
      if (!better(this.scores[i]!, this.keys[i]!, this.scores[m]!, this.keys[m]!)) return;
      this.#swap(i, m);
      i = m;
    }
  }
  /** Adds a hit that `admits` accepted. */
  offer(s: number, key: number, row: number): void {
    if (this.n < this.cap) {
      let i = this.n++;
      this.scores[i] = s;
      this.keys[i] = key;
      this.rows[i] = row;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!better(this.scores[p]!, this.keys[p]!, s, key)) break;
        this.#swap(i, p);
        i = p;
      }
      return;
    }
    this.scores[0] = s;
    this.keys[0] = key;
    this.rows[0] = row;
    this.#down(0, this.n);
  }
  /** Sorts the kept hits best first. */
  sort(): void {
    for (let m = this.n - 1; m > 0; m--) {
      this.#swap(0, m);
      this.#down(0, m);
    }
  }
}

/** The similarity index in plain TypeScript: the same operations and answers as the WASM core. */
export class JsSimilarity implements SimilarityIndex {
  readonly kind = "js" as const;
  #indexes: (Matrix | undefined)[] = [];
  #free: number[] = [];

  createIndex(dimension: number, quantized: boolean): number {
    const m: Matrix = {
      dim: dimension,
      stride: strideOf(dimension),
      stride8: quantized ? stride8Of(dimension) : 0,
      rows: 0,
      keys: new Int32Array(0),
      scales: new Float32Array(0),
      codes: new Int8Array(0),
      matrix: new Float32Array(0),
    };
    const index = this.#free.pop() ?? this.#indexes.length;
    this.#indexes[index] = m;
    return index;
  }

  dropIndex(index: number): void {
    this.#indexes[index] = undefined;
    this.#free.push(index);
  }

  clearIndex(index: number): void {
    this.#m(index).rows = 0;
  }

  #m(index: number): Matrix {
    return this.#indexes[index]!;
  }

  reserveRows(index: number, rows: number): void {
    const m = this.#m(index);
    const cap = m.keys.length;
    if (rows <= cap) return;
    const next = Math.max(rows, cap * 2, 16);
    if (next > MAX_ROWS)
      throw new CtxloomError("OUT_OF_MEMORY", `An embedding index holds at most ${MAX_ROWS} rows; split the scope.`);
    let grown: Pick<Matrix, "keys" | "scales" | "codes" | "matrix">;
    try {
      grown = {
        keys: new Int32Array(next),
        scales: new Float32Array(next),
        codes: new Int8Array(next * m.stride8),
        matrix: new Float32Array(next * m.stride),
      };
    } catch (cause) {
      throw new CtxloomError(
        "OUT_OF_MEMORY",
        `Could not allocate an embedding index of ${next} rows; drop indexes you no longer need.`,
        { cause },
      );
    }
    grown.keys.set(m.keys.subarray(0, m.rows));
    grown.scales.set(m.scales.subarray(0, m.rows));
    grown.codes.set(m.codes.subarray(0, m.rows * m.stride8));
    grown.matrix.set(m.matrix.subarray(0, m.rows * m.stride));
    Object.assign(m, grown);
  }

  addRows(index: number, vectors: Float32Array, keys: Int32Array): void {
    const m = this.#m(index);
    const n = keys.length;
    this.reserveRows(index, m.rows + n);
    for (let i = 0; i < n; i++) {
      const r = m.rows + i;
      normalizeInto(m.matrix, r * m.stride, vectors, i * m.dim, m.dim, m.stride);
      m.keys[r] = keys[i]!;
      if (m.stride8 !== 0) m.scales[r] = quantizeInto(m.codes, r * m.stride8, m.matrix, r * m.stride, m.dim, m.stride8);
    }
    m.rows += n;
  }

  removeRow(index: number, row: number): number {
    const m = this.#m(index);
    const last = --m.rows;
    if (row === last) return -1;
    m.keys[row] = m.keys[last]!;
    m.scales[row] = m.scales[last]!;
    m.codes.copyWithin(row * m.stride8, last * m.stride8, (last + 1) * m.stride8);
    m.matrix.copyWithin(row * m.stride, last * m.stride, (last + 1) * m.stride);
    return m.keys[row]!;
  }

  rowCount(index: number): number {
    return this.#m(index).rows;
  }

  rowKey(index: number, row: number): number {
    return this.#m(index).keys[row]!;
  }

  readRow(index: number, row: number, out: Float32Array): void {
    const m = this.#m(index);
    out.set(m.matrix.subarray(row * m.stride, row * m.stride + m.dim));
  }

  search(index: number, query: Float32Array, k: number, candidates: number, minScore: number): SearchHits {
    const m = this.#m(index);
    const q = new Float32Array(m.stride);
    normalizeInto(q, 0, query, 0, m.dim, m.stride);
    const min = f(minScore);
    const best = new Best(k);
    const { stride, matrix, keys } = m;
    if (k > 0 && m.stride8 !== 0 && candidates > 0 && candidates < m.rows) {
      const q8 = new Int8Array(m.stride8);
      quantizeInto(q8, 0, q, 0, m.dim, m.stride8);
      const pool = new Best(candidates);
      const { codes, scales, stride8 } = m;
      for (let r = 0; r < m.rows; r++) {
        let d = 0;
        for (let j = 0, c = r * stride8; j < stride8; j++) d = (d + codes[c + j]! * q8[j]!) | 0;
        const s = f(f(d) * scales[r]!);
        if (pool.admits(s, keys[r]!)) pool.offer(s, keys[r]!, r);
      }
      for (let i = 0; i < pool.n; i++) {
        // any order: the result's order is total
        const r = pool.rows[i]!;
        const s = dotF32(matrix, r * stride, q, 0, stride);
        if (s >= min && best.admits(s, keys[r]!)) best.offer(s, keys[r]!, r);
      }
    } else if (k > 0) {
      for (let r = 0; r < m.rows; r++) {
        const s = dotF32(matrix, r * stride, q, 0, stride);
        if (s >= min && best.admits(s, keys[r]!)) best.offer(s, keys[r]!, r);
      }
    }
    best.sort();
    return {
      count: best.n,
      scores: Float32Array.from(best.scores.subarray(0, best.n)),
      keys: best.keys.subarray(0, best.n),
    };
  }

  scoreRows(index: number, query: Float32Array, rows: Int32Array): Float32Array {
    const m = this.#m(index);
    const q = new Float32Array(m.stride);
    normalizeInto(q, 0, query, 0, m.dim, m.stride);
    const out = new Float32Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = dotF32(m.matrix, rows[i]! * m.stride, q, 0, m.stride);
    return out;
  }
}
