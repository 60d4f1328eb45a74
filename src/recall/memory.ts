import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { checkEmbedder, embedTexts, type Embedder } from "./embedder.js";
import { EmbeddingIndex } from "./embedding-index.js";
import { hashingEmbedder } from "./hashing.js";
import { checkRecallOptions, recallExchanges, type RecallMessage, type RecallOptions, type RecallResult } from "./policy.js";

export interface RecallMemoryOptions {
  /** What turns texts into vectors (default: hashingEmbedder(), 384 dimensions). */
  embedder?: Embedder;
  /** Keep int8 copies: searches scan a quarter of the bytes and re-rank exactly (default false). */
  quantized?: boolean;
}

/** A message to remember: its key in the scope, role and text. */
export interface MemoryItem {
  key: number;
  role: RecallMessage["role"];
  content: string;
}

/** A message's vector as its embedder made it: what `add` returns and `restore` takes. */
export interface StoredVector {
  key: number;
  role: RecallMessage["role"];
  vector: Float32Array;
}

const KNOWN = ["embedder", "quantized"] as const;

/**
 * The embeddings of one recall scope (a chat, or a user's chats through a KeyMap): user
 * prompts and assistant answers in two indexes on the engine, filled through an embedder,
 * and queried with the recall policy. The Chat calls `add` as messages arrive and `recall`
 * when it builds a context.
 */
export class RecallMemory {
  readonly embedder: Embedder;
  readonly prompts: EmbeddingIndex;
  readonly answers: EmbeddingIndex;

  private constructor(embedder: Embedder, prompts: EmbeddingIndex, answers: EmbeddingIndex) {
    this.embedder = embedder;
    this.prompts = prompts;
    this.answers = answers;
  }

  /** An empty memory on `engine`. Throws INVALID_ARGUMENT, OUT_OF_MEMORY. */
  static create(engine: Engine, options?: RecallMemoryOptions): RecallMemory {
    const o = checkOptions<RecallMemoryOptions>(options, "RecallMemory options", KNOWN);
    const embedder = o.embedder === undefined ? hashingEmbedder() : checkEmbedder(o.embedder);
    const prompts = EmbeddingIndex.create(engine, { dimension: embedder.dimension, quantized: o.quantized ?? false });
    try {
      return new RecallMemory(embedder, prompts, EmbeddingIndex.create(engine, { dimension: embedder.dimension, quantized: o.quantized ?? false }));
    } catch (error) {
      prompts.drop();
      throw error;
    }
  }

  /**
   * Embeds and stores user and assistant messages (one embed call for all); system and tool
   * messages and empty texts are skipped. Returns the vectors as the embedder gave them (to
   * persist with the store's putEmbeddings; `restore` takes them back without embedding).
   * Throws INVALID_ARGUMENT (a bad item, a key already stored), EMBEDDER_FAILED,
   * OUT_OF_MEMORY; on any of them nothing is stored.
   */
  async add(items: readonly MemoryItem[], signal?: AbortSignal): Promise<StoredVector[]> {
    const kept = this.#check(items, "RecallMemory.add", (item) => typeof item.content === "string", "content: string")
      .filter((item) => item.content.trim() !== "");
    const vectors = await embedTexts(this.embedder, kept.map((item) => item.content), signal);
    const dim = this.embedder.dimension;
    const out = kept.map((item, i) => ({ key: item.key, role: item.role, vector: vectors.slice(i * dim, (i + 1) * dim) }));
    this.#insert(out);
    return out;
  }

  /**
   * Stores vectors computed earlier by this memory's embedder (from the store's
   * loadEmbeddings), without calling it. Throws INVALID_ARGUMENT (a bad item or vector, a key
   * already stored), OUT_OF_MEMORY; on any of them nothing is stored.
   */
  restore(items: readonly StoredVector[]): void {
    const dim = this.embedder.dimension;
    this.#insert(this.#check(items, "RecallMemory.restore", (item) => item.vector instanceof Float32Array && item.vector.length === dim, `vector: Float32Array(${dim})`));
  }

  /** Checks items (keys new and distinct, the field `ok` tests) and keeps the user and assistant ones. */
  #check<T extends { key: number; role: string }>(items: readonly T[], what: string, ok: (item: T) => boolean, field: string): T[] {
    if (!Array.isArray(items)) throw new CtxloomError("INVALID_ARGUMENT", `${what} takes an array of { key, role, ${field} }; got ${describe(items)}.`);
    const seen = new Set<number>();
    return items.filter((item, i) => {
      if (item === null || typeof item !== "object" || !ok(item)) {
        throw new CtxloomError("INVALID_ARGUMENT", `${what} item ${i} must be { key, role, ${field} }; got ${describe(item)}.`);
      }
      checkInteger(item.key, `${what} item ${i} key`, 0, 2 ** 31 - 1);
      if (this.has(item.key) || seen.has(item.key)) {
        throw new CtxloomError("INVALID_ARGUMENT", `Message key ${item.key} is already remembered (or twice in this call); forget it first to replace it.`);
      }
      seen.add(item.key);
      return item.role === "user" || item.role === "assistant";
    });
  }

  /** Adds checked vectors to the two indexes, both or neither. */
  #insert(items: readonly StoredVector[]): void {
    const user = items.filter((item) => item.role === "user");
    const assistant = items.filter((item) => item.role === "assistant");
    this.prompts.add(user.map((item) => item.key), user.map((item) => item.vector));
    try {
      this.answers.add(assistant.map((item) => item.key), assistant.map((item) => item.vector));
    } catch (error) {
      this.prompts.remove(user.map((item) => item.key));
      throw error;
    }
  }

  /** Whether a message key is remembered. */
  has(key: number): boolean {
    return this.prompts.has(key) || this.answers.has(key);
  }

  /** Forgets these keys (those not remembered are ignored). */
  forget(keys: readonly number[]): void {
    this.prompts.remove(keys.filter((k) => this.prompts.has(k)));
    this.answers.remove(keys.filter((k) => this.answers.has(k)));
  }

  /** Forgets everything (clear memory). */
  clear(): void {
    this.prompts.clear();
    this.answers.clear();
  }

  /** Frees both indexes; later calls throw INVALID_ARGUMENT. */
  drop(): void {
    this.prompts.drop();
    this.answers.drop();
  }

  /**
   * The exchanges of `messages` to recall for the text `query` (see recallExchanges). A
   * query whose embedding is all zeros (only stop words) recalls the recent exchanges alone.
   * Throws INVALID_ARGUMENT (an empty query, bad options or messages), EMBEDDER_FAILED.
   */
  async recall(query: string, messages: readonly RecallMessage[], options?: RecallOptions, signal?: AbortSignal): Promise<RecallResult> {
    if (typeof query !== "string" || query.trim() === "") {
      throw new CtxloomError("INVALID_ARGUMENT", `A recall query must be a non-empty text; got ${describe(query)}.`);
    }
    checkRecallOptions(options); // before the embedder is paid for
    const vector = await embedTexts(this.embedder, [query], signal);
    const empty = vector.every((x) => x === 0);
    return recallExchanges({ messages, prompts: this.prompts, answers: this.answers, query: empty ? null : vector }, options);
  }
}
