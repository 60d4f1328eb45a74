// The checks of what an EmbeddingIndex (embedding-index.ts) takes: vectors (of its dimension,
// finite numbers) packed as floats, and a search's options with their defaults.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";

const SEARCH_KEYS = ["k", "minScore", "exclude", "candidates"] as const;
const MAX_KEY = 2 ** 31 - 1;

export interface SearchOptions {
  /** How many hits at most (default 10). */
  k?: number;
  /** Leave out hits scoring below this cosine similarity, from -1 to 1 (default: none). */
  minScore?: number;
  /** Keys never returned (messages already in the window, say). */
  exclude?: Iterable<number>;
  /**
   * Quantized index: how many int8 candidates are re-ranked exactly (default max(100, 10 k));
   * 0 scans the f32 rows exactly. Not allowed on an index that is not quantized.
   */
  candidates?: number;
}

/** Vectors checked (`count` of `dim` finite numbers) and packed as floats row after row. @throws INVALID_ARGUMENT */
export function packVectors(
  vectors: Float32Array | readonly ArrayLike<number>[],
  count: number,
  dim: number,
  what: string,
): Float32Array {
  let packed: Float32Array;
  if (vectors instanceof Float32Array) {
    if (vectors.length !== count * dim) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}: a packed Float32Array must hold ${count} x ${dim} floats; got ${vectors.length}.`,
      );
    }
    packed = vectors;
  } else {
    if (!Array.isArray(vectors) || vectors.length !== count) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what} needs ${count} vectors (one per key); got ` +
          `${Array.isArray(vectors) ? vectors.length : describe(vectors)}.`,
      );
    }
    packed = new Float32Array(count * dim);
    vectors.forEach((v, i) => {
      if (v === null || typeof v !== "object" || v.length !== dim) {
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `${what}: vector ${i} must have ${dim} numbers (the index's dimension); got ${v?.length ?? describe(v)}.`,
        );
      }
      for (let j = 0; j < dim; j++) packed[i * dim + j] = typeof v[j] === "number" ? v[j]! : NaN;
    });
  }
  for (let i = 0; i < packed.length; i++) {
    if (!Number.isFinite(packed[i]!)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}: vector ${Math.floor(i / dim)} has ${packed[i]} at position ${i % dim}; every number must be ` +
          `finite (in f32 range).`,
      );
    }
  }
  return packed;
}

/** A search's options checked, with their defaults (`quantized`: the index's). @throws INVALID_ARGUMENT */
export function checkSearchOptions(
  options: SearchOptions | undefined,
  quantized: boolean,
): { k: number; minScore: number; candidates: number; exclude: Set<number> | undefined } {
  const o = checkOptions<SearchOptions>(options, "EmbeddingIndex.search options", SEARCH_KEYS);
  const k = o.k === undefined ? 10 : checkInteger(o.k, "search k", 0, MAX_KEY);
  let minScore = -Infinity;
  if (o.minScore !== undefined) {
    if (typeof o.minScore !== "number" || Number.isNaN(o.minScore) || o.minScore < -1 || o.minScore > 1) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `search minScore must be a number from -1 to 1; got ${describe(o.minScore)}.`,
      );
    }
    minScore = o.minScore;
  }
  let candidates = quantized ? Math.max(100, 10 * k) : 0;
  if (o.candidates !== undefined) {
    candidates = checkInteger(o.candidates, "search candidates", 0, MAX_KEY);
    if (candidates > 0 && !quantized) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        "search candidates needs an index created with { quantized: true }; leave it out for an exact search.",
      );
    }
  }
  const exclude = o.exclude === undefined ? undefined : checkExclude(o.exclude);
  return { k, minScore, candidates, exclude };
}

/** Keys a search leaves out: any iterable of them. @throws INVALID_ARGUMENT */
function checkExclude(value: unknown): Set<number> {
  if (
    value === null ||
    typeof value !== "object" ||
    typeof (value as Iterable<number>)[Symbol.iterator] !== "function"
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `search exclude must be an iterable of keys (an array or a Set); got ${describe(value)}.`,
    );
  }
  return value instanceof Set ? (value as Set<number>) : new Set(value as Iterable<number>);
}
