// What a RecallIndex (memory.ts) takes: its options, the messages it remembers, their vectors as an
// embedder made them, a query as the channels take it, and the one check of items to add or restore.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import type { Embedder } from "./embedder.js";
import type { TermOptions } from "./lexical-terms.js";
import type { RecallMessage } from "./policy.js";
import type { Ranking } from "./rank.js";
import type { SegmentOptions } from "./segments.js";

export interface RecallIndexOptions {
  /** What turns texts into vectors (default: hashingEmbedder(), 384 dimensions). */
  embedder?: Embedder;
  /** Keep int8 copies: searches scan a quarter of the bytes and re-rank exactly (default false). */
  quantized?: boolean;
  /** The ranking's parameters, for measurements (default RANKING). */
  ranking?: Partial<Ranking>;
  /** How texts become terms, for measurements (default: stop words out, Snowball stems). */
  terms?: TermOptions;
  /** How messages are grouped into segments, for measurements. */
  segments?: SegmentOptions;
}

/**
 * A message to remember: its key in the scope, role and text (and its author's name, the key of its parent, its time,
 * if any).
 */
export interface MemoryItem {
  key: number;
  role: RecallMessage["role"];
  content: string;
  name?: string;
  /** The key of the message it follows (its parent). */
  prev?: number;
  /** When it was written (ms since the epoch). */
  time?: number;
}

/** A query as the channels take it: its text (lexical) and its embedding (dense; null when it has none). */
export interface RecallQuery {
  text: string;
  vector: Float32Array | null;
}

/** A message's vector as its embedder made it: what `add` returns and `restore` takes. */
export interface StoredVector {
  key: number;
  role: RecallMessage["role"];
  vector: Float32Array;
}

/**
 * Checks items (keys new and distinct, none that `has` holds, the field `ok` tests) and keeps the user and assistant
 * ones. @throws INVALID_ARGUMENT
 */
export function checkItems<T extends { key: number; role: string }>(
  items: readonly T[],
  what: string,
  ok: (item: T) => boolean,
  field: string,
  has: (key: number) => boolean,
): T[] {
  if (!Array.isArray(items))
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes an array of { key, role, ${field} }; got ${describe(items)}.`,
    );
  const seen = new Set<number>();
  return items.filter((item, i) => {
    if (item === null || typeof item !== "object" || !ok(item)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what} item ${i} must be { key, role, ${field} }; got ${describe(item)}.`,
      );
    }
    checkInteger(item.key, `${what} item ${i} key`, 0, 2 ** 31 - 1);
    if (has(item.key) || seen.has(item.key)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `Message key ${item.key} is already remembered (or twice in this call); forget it first to replace it.`,
      );
    }
    seen.add(item.key);
    return item.role === "user" || item.role === "assistant";
  });
}
