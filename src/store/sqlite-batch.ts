// The SQLite store's write transaction: every write runs in one that holds SQLite's write lock
// (BEGIN IMMEDIATE), so the conditional append checks the chat's size under the lock and
// writers in several processes serialize. "full" commits each write before it resolves;
// "batched" keeps the transaction open for a batch (group commit), during which this
// connection's view of each chat it touched is authoritative: nobody else can write.
import { CtxloomError, describe } from "../errors.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { storeError } from "./sqlite-errors.js";
import type { Statements } from "./sqlite-statements.js";
import type { Durability } from "./sqlite.js";

/** A chat as the open write transaction sees it: authoritative while this connection holds the write lock. */
export interface ChatState {
  key: number;
  size: number;
  head: number | null;
  updated: number;
  /** Its chats row is written at commit (or before a read). */
  dirty: boolean;
}

/**
 * This process's batches by database file. A store about to take the write lock first commits
 * the open batches of the others on the same file: they could not commit while it waits.
 */
const openFiles = new Map<string, Set<WriteBatch>>();

export class WriteBatch {
  readonly database: SqliteDatabase;
  readonly path: string;
  readonly durability: Durability;
  readonly #file: string | undefined;
  readonly #batchSize: number;
  readonly #batchDelayMs: number;
  readonly #st: Statements;
  /** Chats the open write transaction touched; null when no write transaction is open. */
  #chats: Map<string, ChatState> | null = null;
  /** Writes in the open transaction. */
  #writes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when a failed commit lost acknowledged "batched" writes: every later call reports it. */
  #lost: CtxloomError | undefined;
  #closed = false;

  constructor(db: SqliteDatabase, path: string, file: string | undefined, settings: { durability: Durability; batchSize: number; batchDelayMs: number }, st: Statements) {
    this.database = db;
    this.path = path;
    this.durability = settings.durability;
    this.#batchSize = settings.durability === "full" ? 1 : settings.batchSize;
    this.#batchDelayMs = settings.batchDelayMs;
    this.#file = file;
    this.#st = st;
    if (file !== undefined) openFiles.set(file, (openFiles.get(file) ?? new Set()).add(this));
  }

  /** True when the open transaction touched (or created) this chat. */
  touched(userId: string, chatId: string): boolean {
    return this.#chats?.has(`${userId}\u0000${chatId}`) ?? false;
  }

  /** Forgets a chat the open transaction deleted. */
  forget(userId: string, chatId: string): void {
    this.#chats?.delete(`${userId}\u0000${chatId}`);
  }

  async flush(): Promise<void> {
    this.#usable();
    if (this.#chats) this.#commit("flushing");
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#chats && !this.#lost) this.#commit("closing");
    } finally {
      this.#closed = true;
      clearTimeout(this.#timer);
      if (this.#chats && this.database.inTransaction) this.#st.rollback.run();
      const peers = this.#file === undefined ? undefined : openFiles.get(this.#file);
      peers?.delete(this);
      if (peers?.size === 0) openFiles.delete(this.#file!);
      this.database.close();
    }
  }

  #usable(): void {
    if (this.#closed) throw new CtxloomError("STORE_FAILED", `The SQLite store ${this.path} was closed; open it again with sqliteStore().`);
    if (this.#lost) throw this.#lost;
  }

  /** The chat's state in the open write transaction; UNKNOWN_CHAT when the user has no such chat. */
  state(userId: string, chatId: string): ChatState {
    const found = this.find(userId, chatId);
    if (found) return found;
    throw new CtxloomError("UNKNOWN_CHAT", `User ${describe(userId)} has no chat ${describe(chatId)} in ${this.path}.`);
  }

  find(userId: string, chatId: string): ChatState | undefined {
    const key = `${userId}\u0000${chatId}`;
    let c = this.#chats?.get(key);
    if (c) return c;
    const row = this.#st.chatState.get(userId, chatId) as [number, number, number | null, number] | undefined;
    if (!row) return undefined;
    c = { key: row[0], size: row[1], head: row[2], updated: row[3], dirty: false };
    this.#chats?.set(key, c);
    return c;
  }

  /** Runs a write in the open transaction (opening one), then commits when the batch is due. */
  write<T>(what: string, fn: () => T): T {
    this.#usable();
    if (!this.#chats) this.#begin(what);
    let result: T;
    try {
      result = fn();
    } catch (error) {
      if (!this.database.inTransaction) {
        // SQLite rolled the whole transaction back (a full disk does that).
        this.#failed(what, error);
      } else if (this.durability === "full" || this.#writes === 0) {
        this.#rollback();
      }
      throw this.#lost ?? storeError(this.path, what, error);
    }
    this.#writes++;
    if (this.#writes >= this.#batchSize) this.#commit(what);
    else this.#timer ??= setTimeout(() => this.#commitLater(), this.#batchDelayMs);
    return result;
  }

  /** Runs a read; in an open write transaction, after writing the chats rows it changed. */
  read<T>(what: string, fn: () => T): T {
    this.#usable();
    try {
      if (this.#chats) this.#saveChats();
      return fn();
    } catch (error) {
      if (this.#chats && !this.database.inTransaction) this.#failed(what, error);
      throw this.#lost ?? storeError(this.path, what, error);
    }
  }

  #begin(what: string): void {
    for (const peer of this.#file === undefined ? [] : openFiles.get(this.#file) ?? []) {
      if (peer !== this && peer.#chats) peer.#commitLater();
    }
    try {
      this.#st.begin.run();
    } catch (error) {
      throw storeError(this.path, what, error);
    }
    this.#chats = new Map();
    this.#writes = 0;
  }

  #saveChats(): void {
    for (const c of this.#chats!.values()) {
      if (!c.dirty) continue;
      this.#st.saveChatState.run(c.size, c.head, c.updated, c.key);
      c.dirty = false;
    }
  }

  #commit(what: string): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#saveChats();
      this.#st.commit.run();
    } catch (error) {
      if (this.database.inTransaction) this.#st.rollback.run();
      this.#failed(what, error);
      throw this.#lost ?? storeError(this.path, what, error);
    }
    this.#chats = null;
    this.#writes = 0;
  }

  /** A timed commit: a failure has no caller, so the next call (or flush, or close) reports it. */
  #commitLater(): void {
    if (!this.#chats || this.#closed) return;
    try {
      this.#commit("committing a batch");
    } catch {}
  }

  #rollback(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.database.inTransaction) this.#st.rollback.run();
    this.#chats = null;
    this.#writes = 0;
  }

  /** The open transaction is gone: with acknowledged writes in it ("batched"), the store stops. */
  #failed(what: string, error: unknown): void {
    const lost = this.durability === "batched" ? this.#writes : 0;
    this.#rollback();
    if (lost > 0) {
      const cause = storeError(this.path, what, error);
      this.#lost = new CtxloomError(
        "STORE_FAILED",
        `The SQLite store ${this.path} could not commit ${lost} acknowledged write(s) of a batch, which are lost ` +
          `(${cause.message}). Close the Loom and open it again: it reloads what the file holds.`,
        { cause: error },
      );
    }
  }
}
