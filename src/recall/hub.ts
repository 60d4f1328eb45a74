import { CtxloomError, describe, fromStore } from "../errors.js";
import type { Engine } from "../engine/types.js";
import type { Message } from "../message.js";
import { checkEmbedder, type Embedder } from "./embedder.js";
import { hashingEmbedder } from "./hashing.js";
import type { StoredVector } from "./memory.js";
import type { ExchangeScope } from "./exchanges.js";
import type { EmbedderInfo, MessageSource, RecallStore } from "./port.js";
import { EmbedQueue, type EmbedItem, type EmbedQueueStats } from "./embed-queue.js";
import { blank, chatExchanges, embeddable, newUserRecall, storedRows, textOf, type UserRecall } from "./user-recall.js";

/** Recall's counters, from `loom.stats().recall`. */
export interface RecallStats extends EmbedQueueStats {
  /** The embedder's name. */
  embedder: string;
  /** The length of the embedder's vectors. */
  dimension: number;
  /** Messages whose vectors are loaded in this Loom's indexes (embedded here or restored from the store). */
  indexed: number;
  /**
   * Messages in the lexical indexes (their texts, indexed when recall first reads a chat, then as they are appended).
   */
  lexical: number;
  /** Bytes the lexical indexes hold in WASM memory (0 on the JS engine, whose heap is not counted). */
  lexicalBytes: number;
}

/**
 * A Loom's recall: the embedder, the background queue that embeds appended messages, and
 * per user the indexes of their chats (loaded from the store lazily, re-embedded when the
 * store holds no vectors of this embedder).
 */
export class RecallHub {
  readonly embedder: Embedder;
  readonly #engine: Engine;
  /** Where vectors are kept, and other chats read from (the Loom's store). */
  readonly store: RecallStore;
  readonly #users = new Map<string, UserRecall>();
  readonly queue: EmbedQueue;
  #closed = false;
  /** Whether appends are queued before recall has read their chat (see `appended`). */
  readonly #eager: boolean;

  constructor(engine: Engine, store: RecallStore, embedder: Embedder, eager = true) {
    this.#eager = eager;
    this.#engine = engine;
    this.store = store;
    this.embedder = embedder;
    this.queue = new EmbedQueue(embedder, (items, vectors) => this.#deliver(items, vectors));
  }

  /**
   * The Loom's `embed` option: an Embedder, true/undefined for the built-in one, false for none. @throws
   * INVALID_ARGUMENT
   */
  static embedderOf(embed: unknown): Embedder | null {
    if (embed === false) return null;
    if (embed === undefined || embed === true) return hashingEmbedder();
    if (embed === null || typeof embed !== "object") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `embed must be an Embedder ({ name, dimension, embed }), true, or false to turn recall off; got ` +
          `${describe(embed)}.`,
      );
    }
    return checkEmbedder(embed);
  }

  get #info(): EmbedderInfo {
    return { name: this.embedder.name, dimension: this.embedder.dimension };
  }

  /**
   * The user's scope, created on first use. @throws LOOM_CLOSED once the hub is closed (a recall under way when the
   * Loom closed)
   */
  user(userId: string): UserRecall {
    this.checkOpen();
    let u = this.#users.get(userId);
    if (!u) {
      u = newUserRecall(this.#engine, this.embedder);
      this.#users.set(userId, u);
    }
    return u;
  }

  /**
   * A message was appended: queue it (never waits). A lazy hub queues it only once recall has
   * read its chat in this Loom: before that, the chat's first recall embeds what it lacks
   * (`ensureChat`), so a server that never recalls pays nothing for it.
   */
  appended(userId: string, chatId: string, m: Message): void {
    if (this.#closed || !embeddable(m)) return;
    const read = this.#users.get(userId)?.loaded.has(chatId) === true;
    if (!this.#eager && !read) return;
    const u = this.user(userId);
    // A chat recall has read keeps its lexical index current (a few µs); others are indexed when first read.
    if (read)
      u.memory.index([
        textOf(u.keys.key(chatId, m.id), m, m.parentId === null ? undefined : u.keys.find(chatId, m.parentId)),
      ]);
    this.queue.push([
      { userId, chatId, id: m.id, key: u.keys.key(chatId, m.id), role: m.role, content: m.content, epoch: u.epoch },
    ]);
  }

  /**
   * Loads a chat's stored vectors of this embedder into the user's indexes, once, indexes its
   * texts in the lexical channel, and queues the messages that have no vector (another
   * embedder made them, or they were never embedded). Messages up to a memory clear's mark
   * are left out of both.
   */
  async ensureChat(userId: string, chatId: string, source: MessageSource): Promise<void> {
    const u = this.user(userId);
    const seen = u.loaded.get(chatId);
    if (seen !== undefined) {
      // Messages that came from other writers (refresh, catch-up) since: queue those not embedded here.
      if (source.size > seen) this.#queueMissing(u, userId, chatId, source, seen);
      return;
    }
    const epoch = u.epoch;
    const store = this.store;
    const [rows, marked] = await Promise.all([
      fromStore("loading embeddings", () => store.loadEmbeddings(userId, chatId, this.#info)),
      // A store without clear marks has none: nothing of the chat was cleared.
      typeof store.loadEmbeddingsCleared === "function"
        ? fromStore("loading a clear mark", () => store.loadEmbeddingsCleared!(userId, chatId))
        : null,
    ]);
    if (u !== this.#users.get(userId) || epoch !== u.epoch || u.loaded.has(chatId)) return;
    const mark = Math.max(u.cleared.get(chatId) ?? -1, Number.isInteger(marked) ? (marked as number) : -1);
    if (mark >= 0) u.cleared.set(chatId, mark);
    const { restored, stored } = storedRows(u, chatId, rows, source, this.embedder.dimension);
    u.memory.restore(restored);
    this.#queueMissing(u, userId, chatId, source, mark + 1, stored);
  }

  /**
   * Indexes the texts of the messages from `from` on and queues those that have no vector and are not queued; notes the
   * size seen.
   */
  #queueMissing(
    u: UserRecall,
    userId: string,
    chatId: string,
    source: MessageSource,
    from: number,
    stored?: Set<number>,
  ): void {
    const missing: EmbedItem[] = [];
    const texts = [];
    for (let id = from; id < source.size; id++) {
      const m = source.message(id);
      if (!embeddable(m)) continue;
      const key = u.keys.key(chatId, id);
      texts.push(textOf(key, m, m.parentId === null ? undefined : u.keys.find(chatId, m.parentId)));
      if (stored?.has(id)) continue;
      if (!u.memory.has(key) && !this.queue.has(userId, chatId, id))
        missing.push({ userId, chatId, id, key, role: m.role, content: m.content, epoch: u.epoch });
    }
    u.memory.index(texts);
    this.queue.push(missing);
    u.loaded.set(chatId, source.size);
  }

  /**
   * One chat's messages grouped into exchanges under the user's keys (all branches): grouped once, then as the chat
   * grows.
   */
  exchanges(userId: string, chatId: string, source: MessageSource): ExchangeScope {
    return chatExchanges(this.user(userId), chatId, source);
  }

  /** @throws LOOM_CLOSED once the hub is closed (a recall under way when the Loom closed) */
  checkOpen(): void {
    if (this.#closed)
      throw new CtxloomError(
        "LOOM_CLOSED",
        "This Loom was closed while recall was under way; open a new one with Loom.open().",
      );
  }

  /** Vectors of a batch: into the users' indexes (unless cleared or deleted meanwhile), then the store. */
  async #deliver(items: EmbedItem[], vectors: Float32Array): Promise<void> {
    const dim = this.embedder.dimension;
    const byChat = new Map<
      string,
      { userId: string; chatId: string; rows: { messageId: number; vector: Float32Array }[] }
    >();
    const restored = new Map<UserRecall, StoredVector[]>(); // one insert per user and batch
    items.forEach((item, i) => {
      const u = this.#users.get(item.userId);
      if (!u || u.epoch !== item.epoch || u.keys.pair(item.key) === undefined || u.memory.has(item.key)) return;
      const vector = vectors.slice(i * dim, (i + 1) * dim);
      if (!blank(vector)) {
        const list = restored.get(u);
        if (list) list.push({ key: item.key, role: item.role, vector });
        else restored.set(u, [{ key: item.key, role: item.role, vector }]);
      }
      const at = `${item.userId}\u0000${item.chatId}`;
      let entry = byChat.get(at);
      if (!entry) byChat.set(at, (entry = { userId: item.userId, chatId: item.chatId, rows: [] }));
      entry.rows.push({ messageId: item.id, vector });
    });
    for (const [u, list] of restored) u.memory.restore(list);
    for (const { userId, chatId, rows } of byChat.values()) {
      await fromStore("storing embeddings", () =>
        this.store.putEmbeddings({ userId, chatId, embedder: this.#info, rows }),
      );
    }
  }

  /** A chat was deleted: its vectors and queued messages go. */
  forgetChat(userId: string, chatId: string): void {
    const u = this.#users.get(userId);
    this.queue.discard((item) => item.userId === userId && item.chatId === chatId);
    if (!u) return;
    u.memory.forget(u.keys.forgetChat(chatId));
    u.others.delete(chatId);
    u.exchanges.delete(chatId);
    u.loaded.delete(chatId);
    u.cleared.delete(chatId);
  }

  /** A user was erased (`user(id).erase()`): their indexes, vectors and queued messages go. */
  forgetUser(userId: string): void {
    this.queue.discard((item) => item.userId === userId);
    this.#users.get(userId)?.memory.drop();
    this.#users.delete(userId);
  }

  /**
   * Messages were redacted (`chat.redact`): their vectors and lexical terms leave the indexes,
   * their queued embeddings (in flight too) are dropped, and the chat's texts read for other
   * chats' recall are read again. Their new text is not indexed until the chat is read anew.
   */
  forgetMessages(userId: string, chatId: string, ids: readonly number[]): void {
    const gone = new Set(ids);
    this.queue.discard((item) => item.userId === userId && item.chatId === chatId && gone.has(item.id));
    const u = this.#users.get(userId);
    if (!u) return;
    u.memory.forget(ids.map((id) => u.keys.find(chatId, id)).filter((key) => key !== undefined));
    u.others.delete(chatId);
  }

  /**
   * `chats.clearRecall()`: drops the user's vectors (indexes and store) and queued work; the
   * messages up to now are marked in the store as not to embed again.
   */
  async clear(userId: string, chats: readonly { id: string; messageCount: number }[]): Promise<void> {
    await this.reembed(userId);
    const u = this.user(userId);
    for (const chat of chats) {
      if (chat.messageCount <= 0) continue;
      u.cleared.set(chat.id, chat.messageCount - 1);
      await fromStore("marking cleared embeddings", () =>
        this.store.markEmbeddingsCleared!(userId, chat.id, chat.messageCount - 1),
      );
    }
  }

  /** `chats.reembed()`: forgets the user's vectors and marks; every chat is embedded again as recall next reads it. */
  async reembed(userId: string): Promise<void> {
    await fromStore("clearing embeddings", () => this.store.clearEmbeddings(userId));
    const u = this.user(userId);
    u.epoch++;
    this.queue.discard((item) => item.userId === userId);
    u.memory.clear();
    u.loaded.clear();
    u.cleared.clear();
  }

  stats(): RecallStats {
    let indexed = 0;
    let lexical = 0;
    let lexicalBytes = 0;
    for (const u of this.#users.values()) {
      indexed += u.memory.prompts.size + u.memory.answers.size;
      lexical += u.memory.lexical.size;
      lexicalBytes += Math.max(0, u.memory.lexical.bytes);
    }
    return {
      embedder: this.embedder.name,
      dimension: this.embedder.dimension,
      indexed,
      lexical,
      lexicalBytes,
      ...this.queue.stats(),
    };
  }

  /**
   * Stops the queue (aborting an embedder call under way) and frees the indexes; recall under way then fails with
   * LOOM_CLOSED.
   */
  close(): void {
    this.#closed = true;
    this.queue.close();
    for (const u of this.#users.values()) u.memory.drop();
    this.#users.clear();
  }
}
