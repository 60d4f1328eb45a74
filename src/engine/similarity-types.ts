import type { EngineKind } from "./types.js";

/**
 * Embedding matrices and their top-k search, on the WASM core (SIMD) or its TypeScript twin.
 * Rows are L2-normalized at insert; a search scores rows by dot product with the normalized
 * query and returns the best `k`, score descending, ties to the lower key. Both engines
 * compute every score with the same f32 operations in the same order, so their answers are
 * bitwise identical. Callers validate arguments (src/recall/embedding-index.ts does).
 */
export interface SimilarityIndex {
  readonly kind: EngineKind;
  /**
   * A new empty index of `dimension` floats a row; `quantized` keeps an int8 copy for approximate scans. Throws
   * OUT_OF_MEMORY.
   */
  createIndex(dimension: number, quantized: boolean): number;
  /** Frees an index; its handle may be reused. */
  dropIndex(index: number): void;
  /** Forgets every row; the memory stays for reuse. O(1). */
  clearIndex(index: number): void;
  /** Makes room for `rows` rows, so that adds up to that count cannot fail. Throws OUT_OF_MEMORY (nothing changed). */
  reserveRows(index: number, rows: number): void;
  /**
   * Appends `keys.length` rows: row i is `vectors[i * dimension ...]` (finite floats),
   * normalized on the way in, with key `keys[i]`. Throws OUT_OF_MEMORY (nothing added).
   * O(rows added * dimension).
   */
  addRows(index: number, vectors: Float32Array, keys: Int32Array): void;
  /**
   * Removes row `row` by moving the last row into it; returns the moved row's key, or -1 when `row` was the last.
   * O(dimension).
   */
  removeRow(index: number, row: number): number;
  rowCount(index: number): number;
  rowKey(index: number, row: number): number;
  /** Copies a row's normalized floats into `out` (dimension floats). */
  readRow(index: number, row: number, out: Float32Array): void;
  /**
   * The `k` rows most similar to `query` (dimension finite floats, not all zero), best first,
   * scores below `minScore` left out. `candidates > 0` on a quantized index: the int8 scan
   * keeps that many candidates, re-ranked exactly. One pass over the matrix; throws OUT_OF_MEMORY.
   */
  search(index: number, query: Float32Array, k: number, candidates: number, minScore: number): SearchHits;
  /**
   * The scores `search` would give rows `rows` (each below rowCount) for `query` (dimension
   * finite floats, not all zero), in the order listed: a view valid until the next call.
   * O(rows * dimension), no scan. Throws OUT_OF_MEMORY.
   */
  scoreRows(index: number, query: Float32Array, rows: Int32Array): Float32Array;
}

/** A search's answer: views valid until the next call on the same SimilarityIndex. */
export interface SearchHits {
  count: number;
  scores: Float32Array;
  keys: Int32Array;
}
