import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { checkEmbedder, embedTexts, type Embedder } from "./embedder.js";
import { EmbeddingIndex } from "./embedding-index.js";
import { hashingEmbedder, isHashingEmbedder } from "./hashing.js";
import { CorpusStats } from "./corpus.js";
import { namedDates } from "./dates.js";
import { LexicalScope } from "./lexical-scope.js";
import {
  checkRecallOptions,
  rankingWant,
  recallExchanges,
  scopeGraph,
  type RecallMessage,
  type RecallOptions,
  type RecallResult,
} from "./policy.js";
import { RANKING, rankMessages, type RankScope, type Ranked, type Ranking } from "./rank.js";
import {
  checkItems,
  type MemoryItem,
  type RecallIndexOptions,
  type RecallQuery,
  type StoredVector,
} from "./memory-items.js";

export type { MemoryItem, RecallIndexOptions, RecallQuery, StoredVector } from "./memory-items.js";

const KNOWN = ["embedder", "quantized", "ranking", "terms", "segments"] as const;

/**
 * What recall knows of one scope (a chat, or a user's chats through a KeyMap), in its two
 * channels: the embeddings of user prompts and assistant answers (two indexes on the engine,
 * filled through an embedder, with corpus statistics for the built-in one) and the lexical
 * index of their texts. `rank` matches a query against every message of both; `recall` runs
 * the recall policy over the ranking.
 */
export class RecallIndex {
  readonly embedder: Embedder;
  readonly prompts: EmbeddingIndex;
  readonly answers: EmbeddingIndex;
  readonly lexical: LexicalScope;
  /** Per-coordinate document frequencies, for the built-in embedder (null for others). */
  readonly #corpus: CorpusStats | null;
  readonly #ranking: Readonly<Ranking>;

  private constructor(
    embedder: Embedder,
    prompts: EmbeddingIndex,
    answers: EmbeddingIndex,
    lexical: LexicalScope,
    ranking: Readonly<Ranking>,
  ) {
    this.#ranking = ranking;
    this.embedder = embedder;
    this.prompts = prompts;
    this.answers = answers;
    this.lexical = lexical;
    this.#corpus = isHashingEmbedder(embedder) ? new CorpusStats(embedder.dimension) : null;
  }

  /** An empty memory on `engine`. Throws INVALID_ARGUMENT, OUT_OF_MEMORY. */
  static create(engine: Engine, options?: RecallIndexOptions): RecallIndex {
    const o = checkOptions<RecallIndexOptions>(options, "RecallIndex options", KNOWN);
    const embedder = o.embedder === undefined ? hashingEmbedder() : checkEmbedder(o.embedder);
    const made: { drop(): void }[] = [];
    try {
      const index = () =>
        EmbeddingIndex.create(engine, { dimension: embedder.dimension, quantized: o.quantized ?? false });
      const prompts = index();
      made.push(prompts);
      const answers = index();
      made.push(answers);
      const lexical = LexicalScope.create(engine, o.terms, o.segments);
      return new RecallIndex(embedder, prompts, answers, lexical, { ...RANKING, ...o.ranking });
    } catch (error) {
      for (const m of made) m.drop();
      throw error;
    }
  }

  /**
   * Embeds and stores user and assistant messages (one embed call for all), and indexes their
   * texts; system and tool messages and empty texts are skipped. Returns the vectors as the
   * embedder gave them (to persist with the store's putEmbeddings; `restore` takes them back
   * without embedding, `index` indexes the texts).
   * Throws INVALID_ARGUMENT (a bad item, a key already stored), EMBEDDER_FAILED,
   * OUT_OF_MEMORY; on any of them nothing is stored.
   */
  async add(items: readonly MemoryItem[], signal?: AbortSignal): Promise<StoredVector[]> {
    const kept = checkItems(
      items,
      "RecallIndex.add",
      (item) => typeof item.content === "string",
      "content: string",
      (key) => this.has(key),
    ).filter((item) => item.content.trim() !== "");
    const vectors = await embedTexts(
      this.embedder,
      kept.map((item) => item.content),
      signal,
    );
    const dim = this.embedder.dimension;
    const out = kept.map((item, i) => ({
      key: item.key,
      role: item.role,
      vector: vectors.slice(i * dim, (i + 1) * dim),
    }));
    this.#insert(out);
    this.index(kept);
    return out;
  }

  /**
   * Indexes the texts of user and assistant messages in the lexical channel (those indexed
   * already are skipped): a scope rebuilt from its messages when recall first reads them.
   * Throws OUT_OF_MEMORY. O(words).
   */
  index(items: readonly MemoryItem[]): void {
    for (const item of items) {
      if ((item.role === "user" || item.role === "assistant") && item.content.trim() !== "") {
        this.lexical.add({ key: item.key, text: item.content, name: item.name, prev: item.prev, time: item.time });
      }
    }
  }

  /**
   * Stores vectors computed earlier by this memory's embedder (from the store's
   * loadEmbeddings), without calling it. Throws INVALID_ARGUMENT (a bad item or vector, a key
   * already stored), OUT_OF_MEMORY; on any of them nothing is stored.
   */
  restore(items: readonly StoredVector[]): void {
    const dim = this.embedder.dimension;
    this.#insert(
      checkItems(
        items,
        "RecallIndex.restore",
        (item) => item.vector instanceof Float32Array && item.vector.length === dim,
        `vector: Float32Array(${dim})`,
        (key) => this.has(key),
      ),
    );
  }

  /** Adds checked vectors to the two indexes, both or neither, and counts them in the corpus. */
  #insert(items: readonly StoredVector[]): void {
    const user = items.filter((item) => item.role === "user");
    const assistant = items.filter((item) => item.role === "assistant");
    this.prompts.add(
      user.map((item) => item.key),
      user.map((item) => item.vector),
    );
    try {
      this.answers.add(
        assistant.map((item) => item.key),
        assistant.map((item) => item.vector),
      );
    } catch (error) {
      this.prompts.remove(user.map((item) => item.key));
      throw error;
    }
    if (this.#corpus) for (const item of [...user, ...assistant]) this.#corpus.count(item.vector, 1);
  }

  /** Whether a message key is remembered. */
  has(key: number): boolean {
    return this.prompts.has(key) || this.answers.has(key);
  }

  /** Forgets these keys in both channels (those not remembered are ignored). */
  forget(keys: readonly number[]): void {
    for (const index of [this.prompts, this.answers]) {
      const held = keys.filter((k) => index.has(k));
      if (this.#corpus) for (const k of held) this.#corpus.count(index.vector(k), -1);
      index.remove(held);
    }
    this.lexical.remove(keys);
  }

  /** Forgets everything (clear memory). */
  clear(): void {
    this.prompts.clear();
    this.answers.clear();
    this.lexical.clear();
    this.#corpus?.clear();
  }

  /** Frees the indexes; later calls throw INVALID_ARGUMENT. */
  drop(): void {
    this.prompts.drop();
    this.answers.drop();
    this.lexical.drop();
  }

  /** The query vector as the dense channel compares it: weighted by the scope's idf for the built-in embedder. */
  #weighed(vector: Float32Array): Float32Array | null {
    const q = this.#corpus ? this.#corpus.weigh(vector) : vector;
    return q.some((x) => x !== 0) ? q : null;
  }

  /**
   * The messages of `scope` that match the query, best first (see rank.ts): lexical
   * candidates re-ranked by their vectors, with their neighbours' share. The scope says
   * which keys may come back; `want` how many at least, when that many match.
   */
  rank(query: RecallQuery, scope: RankScope, want: number, minScore?: number): Ranked[] {
    const vector = query.vector && this.#weighed(query.vector);
    const R = this.#ranking;
    return rankMessages(
      {
        lexical: (k) => this.lexical.query(query.text, k, { k1: R.k1, b: R.b, window: R.window, segment: R.segment }),
        lexicalSize: this.lexical.size,
        dense: (keys) => {
          const out = new Float64Array(keys.length).fill(NaN);
          if (!vector) return out;
          for (const index of [this.prompts, this.answers]) {
            const at = keys.flatMap((k, i) => (index.has(k) ? [i] : []));
            if (at.length === 0) continue;
            const scores = index.score(
              vector,
              at.map((i) => keys[i]!),
            );
            at.forEach((i, j) => (out[i] = scores[j]!));
          }
          return out;
        },
        denseSearch: (k) => {
          if (!vector) return null;
          const hits = [...this.prompts.search(vector, { k }), ...this.answers.search(vector, { k })];
          return hits.sort((a, b) => b.score - a.score || a.key - b.key).slice(0, k);
        },
        denseFindsOwn: this.#corpus === null,
        holds: (key) => this.has(key) || this.lexical.has(key),
        flags: (key) => this.lexical.flags(key),
        time: (key) => this.lexical.time(key),
      },
      scope,
      {
        want,
        minScore,
        ranking: this.#corpus ? R : { ...R, dense: R.embedder },
        dates: R.dates > 0 ? namedDates(query.text) : [],
      },
    );
  }

  /**
   * The exchanges of `messages` to recall for the text `query` (see recallExchanges). A
   * query whose embedding is all zeros (only stop words) recalls the recent exchanges alone.
   * Throws INVALID_ARGUMENT (an empty query, bad options or messages), EMBEDDER_FAILED.
   */
  async recall(
    query: string,
    messages: readonly RecallMessage[],
    options?: RecallOptions,
    signal?: AbortSignal,
  ): Promise<RecallResult> {
    if (typeof query !== "string" || query.trim() === "") {
      throw new CtxloomError("INVALID_ARGUMENT", `A recall query must be a non-empty text; got ${describe(query)}.`);
    }
    const o = checkRecallOptions(options); // before the embedder is paid for
    const vector = await embedTexts(this.embedder, [query], signal);
    const ranked = this.rank({ text: query, vector }, scopeGraph(messages), rankingWant(o), o.minScore);
    return recallExchanges({ messages, ranked, answers: this.answers }, o);
  }
}
