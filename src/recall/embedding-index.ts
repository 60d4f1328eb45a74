import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { similarityFor, type SimilarityIndex } from "../engine/similarity.js";
import { MAX_DIMENSION } from "./embedder.js";
import { checkSearchOptions, packVectors, type SearchOptions } from "./vector-checks.js";

export type { SearchOptions } from "./vector-checks.js";

export interface EmbeddingIndexOptions {
  /** Floats a vector has (the embedder's dimension). */
  dimension: number;
  /** Keep an int8 copy of every row: searches scan a quarter of the bytes, then re-rank exactly (default false). */
  quantized?: boolean;
}

/** A search hit: a row's key and its cosine similarity with the query. */
export interface Hit {
  key: number;
  score: number;
}

const CREATE_KEYS = ["dimension", "quantized"] as const;
const MAX_KEY = 2 ** 31 - 1;

/**
 * One embedding matrix (a recall scope) on an engine: rows keyed by integers (message ids, or
 * the keys a KeyMap hands out), normalized at insert, searched by cosine similarity. On the
 * WASM engine it lives in the core's memory and is scanned with SIMD; on the JS engine in
 * Float32Arrays, with the same answers bit for bit. Every call validates its arguments and a
 * rejected call changes nothing.
 */
export class EmbeddingIndex {
  readonly dimension: number;
  readonly quantized: boolean;
  readonly #sim: SimilarityIndex;
  #handle: number;
  readonly #rows = new Map<number, number>(); // key -> row

  private constructor(sim: SimilarityIndex, handle: number, dimension: number, quantized: boolean) {
    this.#sim = sim;
    this.#handle = handle;
    this.dimension = dimension;
    this.quantized = quantized;
  }

  /** A new empty index on `engine`. Throws INVALID_ARGUMENT, OUT_OF_MEMORY. */
  static create(engine: Engine, options: EmbeddingIndexOptions): EmbeddingIndex {
    const o = checkOptions<EmbeddingIndexOptions>(options, "EmbeddingIndex options", CREATE_KEYS);
    const dimension = checkInteger(o.dimension, "EmbeddingIndex dimension", 1, MAX_DIMENSION);
    if (o.quantized !== undefined && typeof o.quantized !== "boolean") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `EmbeddingIndex quantized must be true or false; got ${describe(o.quantized)}.`,
      );
    }
    const sim = similarityFor(engine);
    const quantized = o.quantized ?? false;
    return new EmbeddingIndex(sim, sim.createIndex(dimension, quantized), dimension, quantized);
  }

  #live(): number {
    if (this.#handle < 0) {
      throw new CtxloomError("INVALID_ARGUMENT", "This EmbeddingIndex was dropped; create a new one.");
    }
    return this.#handle;
  }

  /** Rows in the index. */
  get size(): number {
    return this.#rows.size;
  }

  has(key: number): boolean {
    return this.#rows.has(key);
  }

  /** Keys of every row (no order promised). */
  keys(): number[] {
    return [...this.#rows.keys()];
  }

  /**
   * Adds rows: `keys[i]` gets `vectors[i]` (an array of `dimension` finite numbers), or row i
   * of a packed Float32Array of keys.length * dimension floats. Keys are integers from 0 to
   * 2^31 - 1, new to the index and distinct. Throws INVALID_ARGUMENT (nothing added),
   * OUT_OF_MEMORY (nothing added). O(rows * dimension).
   */
  add(keys: readonly number[], vectors: Float32Array | readonly ArrayLike<number>[]): void {
    const handle = this.#live();
    if (!Array.isArray(keys))
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `EmbeddingIndex.add keys must be an array of integers; got ${describe(keys)}.`,
      );
    const fresh = new Set<number>();
    for (const key of keys) {
      checkInteger(key, "An embedding key", 0, MAX_KEY);
      if (this.#rows.has(key) || fresh.has(key)) {
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `Embedding key ${key} is already in the index (or twice in this call); ` +
            `remove it first to replace its vector.`,
        );
      }
      fresh.add(key);
    }
    const packed = packVectors(vectors, keys.length, this.dimension, "EmbeddingIndex.add");
    this.#sim.addRows(handle, packed, Int32Array.from(keys));
    const base = this.#rows.size;
    keys.forEach((key, i) => this.#rows.set(key, base + i));
  }

  /**
   * Makes room for `rows` rows in all, so that a bulk load grows memory once. Throws INVALID_ARGUMENT, OUT_OF_MEMORY
   * (nothing changed).
   */
  reserve(rows: number): void {
    const handle = this.#live();
    this.#sim.reserveRows(handle, checkInteger(rows, "EmbeddingIndex.reserve rows", 0, MAX_KEY));
  }

  /**
   * Removes the rows of `keys` (every key must be in the index). Throws INVALID_ARGUMENT (nothing removed). O(keys *
   * dimension).
   */
  remove(keys: readonly number[]): void {
    const handle = this.#live();
    if (!Array.isArray(keys))
      throw new CtxloomError("INVALID_ARGUMENT", `EmbeddingIndex.remove keys must be an array; got ${describe(keys)}.`);
    for (const key of keys) {
      if (!this.#rows.has(key))
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `Embedding key ${describe(key)} is not in the index; nothing was removed.`,
        );
    }
    for (const key of new Set(keys)) {
      const row = this.#rows.get(key)!;
      this.#rows.delete(key);
      const moved = this.#sim.removeRow(handle, row);
      if (moved >= 0) this.#rows.set(moved, row);
    }
  }

  /** Removes every row; the memory stays for reuse. */
  clear(): void {
    this.#sim.clearIndex(this.#live());
    this.#rows.clear();
  }

  /** Frees the index; any later call throws INVALID_ARGUMENT. */
  drop(): void {
    if (this.#handle < 0) return;
    this.#sim.dropIndex(this.#handle);
    this.#handle = -1;
    this.#rows.clear();
  }

  /** The stored (normalized) vector of `key`. Throws INVALID_ARGUMENT for a key not in the index. */
  vector(key: number): Float32Array {
    const handle = this.#live();
    const row = this.#rows.get(key);
    if (row === undefined)
      throw new CtxloomError("INVALID_ARGUMENT", `Embedding key ${describe(key)} is not in the index.`);
    const out = new Float32Array(this.dimension);
    this.#sim.readRow(handle, row, out);
    return out;
  }

  /**
   * The cosine similarity of `query` with the rows of `keys`, in that order: the scores
   * `search` gives them, the same bits. O(keys * dimension), no scan: recall re-ranks its
   * candidates with it. Throws INVALID_ARGUMENT for a key not in the index or a bad query.
   */
  score(query: Float32Array | ArrayLike<number>, keys: readonly number[]): Float32Array {
    const handle = this.#live();
    const q = this.#query(query);
    if (!Array.isArray(keys))
      throw new CtxloomError("INVALID_ARGUMENT", `EmbeddingIndex.score keys must be an array; got ${describe(keys)}.`);
    const rows = new Int32Array(keys.length);
    keys.forEach((key, i) => {
      const row = this.#rows.get(key);
      if (row === undefined)
        throw new CtxloomError("INVALID_ARGUMENT", `Embedding key ${describe(key)} is not in the index.`);
      rows[i] = row;
    });
    return Float32Array.from(this.#sim.scoreRows(handle, q, rows));
  }

  /** A query checked and packed: `dimension` finite numbers, not all zero. @throws INVALID_ARGUMENT */
  #query(query: Float32Array | ArrayLike<number>): Float32Array {
    if (query === null || typeof query !== "object" || query.length !== this.dimension) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `A search query must have ${this.dimension} numbers (the index's dimension); got ` +
          `${(query as { length?: number } | null)?.length ?? describe(query)}.`,
      );
    }
    const q = packVectors(query instanceof Float32Array ? query : [query], 1, this.dimension, "EmbeddingIndex.search");
    if (q.every((x) => x === 0)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        "A search query of all zeros has no direction (an empty text?); give a query with content.",
      );
    }
    return q;
  }

  /**
   * The rows most similar to `query` (cosine similarity), best first; equal scores in key
   * order. One pass over the matrix. Throws INVALID_ARGUMENT for a query of the wrong
   * dimension, with non-finite numbers or all zeros, or bad options.
   */
  search(query: Float32Array | ArrayLike<number>, options?: SearchOptions): Hit[] {
    const handle = this.#live();
    const { k, minScore, candidates, exclude } = checkSearchOptions(options, this.quantized);
    const q = this.#query(query);
    // Excluded rows still score: ask for as many more as could be dropped.
    let extra = 0;
    if (exclude) for (const key of exclude) if (this.#rows.has(key)) extra++;
    const want = Math.min(k + extra, this.#rows.size);
    const hits = this.#sim.search(handle, q, want, want > 0 ? candidates && Math.max(candidates, want) : 0, minScore);
    const out: Hit[] = [];
    for (let i = 0; i < hits.count && out.length < k; i++) {
      const key = hits.keys[i]!;
      if (!exclude?.has(key)) out.push({ key, score: hits.scores[i]! });
    }
    return out;
  }
}
