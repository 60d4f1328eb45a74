// The SQLite store's write transaction: every write runs in one that holds SQLite's write lock
// (BEGIN IMMEDIATE), so the conditional append checks the chat's size under the lock and
// writers in several processes serialize. "full" commits each write before it resolves;
// "batched" keeps the transaction open for a batch (group commit), during which this
// connection's view of each chat it touched is authoritative: nobody else can write.
import { CtxloomError } from "../errors.js";
import { ChatStates, type ChatState, type SqlConnection, type Transactions } from "./sql-connection.js";
import { storeError, type SqlPlace } from "./sql-errors.js";
import type { Statements } from "./sql-statements.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { filePlace } from "./sqlite-errors.js";
import type { Durability } from "./sqlite-types.js";

/**
 * This process's batches by database file. A store about to take the write lock first commits
 * the open batches of the others on the same file: they could not commit while it waits.
 */
const openFiles = new Map<string, Set<WriteBatch>>();

export class WriteBatch implements Transactions {
  readonly database: SqliteDatabase;
  readonly path: string;
  readonly durability: Durability;
  readonly #file: string | undefined;
  readonly #batchSize: number;
  readonly #batchDelayMs: number;
  readonly #db: SqlConnection;
  readonly #place: SqlPlace;
  /** Chats the open write transaction touched; closed when no write transaction is open. */
  readonly #chats: ChatStates;
  readonly #atomic: <T>(fn: () => T) => T;
  /** Writes in the open transaction. */
  #writes = 0;
  /** When the open transaction began (performance.now()): a write that finds it batchDelayMs old commits it. */
  #began = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when a failed commit lost acknowledged "batched" writes: every later call reports it. */
  #lost: CtxloomError | undefined;
  #closed = false;

  constructor(
    database: SqliteDatabase,
    db: SqlConnection,
    path: string,
    file: string | undefined,
    settings: { durability: Durability; batchSize: number; batchDelayMs: number },
    st: Statements,
  ) {
    this.database = database;
    this.path = path;
    this.durability = settings.durability;
    this.#batchSize = settings.durability === "full" ? 1 : settings.batchSize;
    this.#batchDelayMs = settings.batchDelayMs;
    this.#file = file;
    this.#db = db;
    this.#place = filePlace(path);
    this.#chats = new ChatStates(db, st, path);
    // Inside the open write transaction, better-sqlite3's transaction() is a savepoint.
    this.#atomic = database.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
    if (file !== undefined) openFiles.set(file, (openFiles.get(file) ?? new Set()).add(this));
  }

  atomic<T>(fn: () => T): T {
    return this.#atomic(fn);
  }

  touched(userId: string, chatId: string): boolean {
    return this.#chats.touched(userId, chatId);
  }

  forget(userId: string, chatId: string): void {
    this.#chats.forget(userId, chatId);
  }

  async flush(): Promise<void> {
    this.#usable();
    if (this.#chats.open) this.#commit("flushing");
  }

  /** Commits and releases the file; rejects with the loss of a batch that could not commit (once closed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#lost) throw this.#lost; // (a timed commit that failed had no caller to tell)
      if (this.#chats.open) this.#commit("closing");
    } finally {
      this.#closed = true;
      clearTimeout(this.#timer);
      if (this.#chats.open && this.database.inTransaction) this.#db.run("ROLLBACK");
      const peers = this.#file === undefined ? undefined : openFiles.get(this.#file);
      peers?.delete(this);
      if (peers?.size === 0) openFiles.delete(this.#file!);
      this.database.close();
    }
  }

  #usable(): void {
    if (this.#closed)
      throw new CtxloomError(
        "STORE_FAILED",
        `The SQLite store ${this.path} was closed; open it again with sqliteStore().`,
      );
    if (this.#lost) throw this.#lost;
  }

  state(userId: string, chatId: string): ChatState {
    return this.#chats.state(userId, chatId);
  }

  find(userId: string, chatId: string): ChatState | undefined {
    return this.#chats.find(userId, chatId);
  }

  /** Runs a write in the open transaction (opening one), then commits when the batch is due. */
  write<T>(what: string, fn: () => T): T {
    this.#usable();
    if (!this.#chats.open) this.#begin(what);
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
      throw this.#lost ?? storeError(this.#place, what, error);
    }
    this.#writes++;
    // Due by count, or by age: a loop of awaited writes never lets the timer run (promises
    // settle before timers), so each write looks at the clock itself.
    if (this.#writes >= this.#batchSize || performance.now() - this.#began >= this.#batchDelayMs) this.#commit(what, 1);
    else this.#timer ??= setTimeout(() => this.#commitLater(), this.#batchDelayMs);
    return result;
  }

  /** Runs a read; in an open write transaction, after writing the chats rows it changed. */
  read<T>(what: string, fn: () => T): T {
    this.#usable();
    try {
      if (this.#chats.open) this.#chats.save();
      return fn();
    } catch (error) {
      if (this.#chats.open && !this.database.inTransaction) this.#failed(what, error);
      throw this.#lost ?? storeError(this.#place, what, error);
    }
  }

  /**
   * Runs `fn` outside any transaction (what VACUUM and a checkpoint need): commits the open
   * batch first, then runs it at once, with no await between, so no write slips in.
   */
  outside<T>(what: string, fn: () => T): T {
    this.#usable();
    if (this.#chats.open) this.#commit(what);
    try {
      return fn();
    } catch (error) {
      throw storeError(this.#place, what, error);
    }
  }

  #begin(what: string): void {
    for (const peer of this.#file === undefined ? [] : (openFiles.get(this.#file) ?? [])) {
      if (peer !== this && peer.#chats.open) peer.#commitLater();
    }
    try {
      this.#db.run("BEGIN IMMEDIATE");
    } catch (error) {
      throw storeError(this.#place, what, error);
    }
    this.#chats.begin();
    this.#writes = 0;
    this.#began = performance.now();
  }

  /** Commits the open transaction; `unacknowledged` of its writes (the caller's own) were not acknowledged yet. */
  #commit(what: string, unacknowledged = 0): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#chats.save();
      this.#db.run("COMMIT");
    } catch (error) {
      if (this.database.inTransaction) this.#db.run("ROLLBACK");
      this.#failed(what, error, unacknowledged);
      throw this.#lost ?? storeError(this.#place, what, error);
    }
    this.#chats.end();
    this.#writes = 0;
  }

  /** A timed commit: a failure has no caller, so the next call (or flush, or close) reports it. */
  #commitLater(): void {
    if (!this.#chats.open || this.#closed) return;
    try {
      this.#commit("committing a batch");
    } catch {}
  }

  #rollback(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.database.inTransaction) this.#db.run("ROLLBACK");
    this.#chats.end();
    this.#writes = 0;
  }

  /** The open transaction is gone: with acknowledged writes in it ("batched"), the store stops. */
  #failed(what: string, error: unknown, unacknowledged = 0): void {
    const lost = this.durability === "batched" ? this.#writes - unacknowledged : 0;
    this.#rollback();
    if (lost > 0) {
      const cause = storeError(this.#place, what, error);
      this.#lost = new CtxloomError(
        "STORE_FAILED",
        `The SQLite store ${this.path} could not commit ${lost} acknowledged write(s) of a batch, which are lost ` +
          `(${cause.message}). Close the Loom and open it again: it reloads what the file holds.`,
        { cause: error },
      );
    }
  }
}
