/**
 * Corpus statistics of a scope's vectors for the built-in embedder: how many vectors have
 * each coordinate set (a coordinate stands for the words and word parts hashed to it). A
 * query is weighted by their idf, squared (idf_j = ln(1 + N / (df_j + 0.5))), so that what is
 * rare in this scope decides its similarity and what every message shares does not: on the
 * tuning conversations it took the built-in embedder's recall@10 from 13% to 22% at 384
 * dimensions (and 42% at 4,096; see bench/results/recall-quality.md). Kept as vectors come and
 * go: O(dimension) each; 4 bytes a coordinate per scope.
 */
export class CorpusStats {
  readonly #df: Int32Array;
  #rows = 0;

  constructor(dimension: number) {
    this.#df = new Int32Array(dimension);
  }

  get rows(): number {
    return this.#rows;
  }

  /** Counts a vector in (`sign` 1) or out (-1). */
  count(vector: ArrayLike<number>, sign: 1 | -1): void {
    for (let j = 0; j < this.#df.length; j++) if (vector[j] !== 0) this.#df[j]! += sign;
    this.#rows += sign;
  }

  clear(): void {
    this.#df.fill(0);
    this.#rows = 0;
  }

  /** The query weighted: q_j * idf_j^2. */
  weigh(query: Float32Array): Float32Array {
    const out = new Float32Array(query.length);
    for (let j = 0; j < query.length; j++) {
      if (query[j] === 0) continue;
      const idf = Math.log(1 + this.#rows / (this.#df[j]! + 0.5));
      out[j] = query[j]! * idf * idf;
    }
    return out;
  }
}
