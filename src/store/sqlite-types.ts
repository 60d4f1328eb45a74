// The SQLite store's public types, apart from its code: the store (sqlite.ts), its operations
// (sqlite-store.ts) and its write transaction (sqlite-batch.ts) all take them from here.
import type { SqliteDatabase } from "./sqlite-driver.js";
import type { ErasedUser, PruneBatch, PruneQuery, Store } from "./types.js";

/**
 * "full": a write's promise resolves after its transaction committed and was synced to disk
 * (synchronous=FULL): a crash loses nothing acknowledged.
 * "batched": writes run at once inside a transaction (a batch) that commits at the first write
 * made `batchDelayMs` or more after the batch's first, at `batchSize` writes, on `flush()`, on
 * `close()`, and by a timer `batchDelayMs` after its first write (group commit: one sync for
 * many writes). A crash loses at most the open batch: the writes acknowledged last, all
 * within `batchDelayMs` of the first of them (a process that stops writing and keeps its
 * thread busy delays the timer, not what is lost), never reordered or renumbered: what
 * survives is a prefix of what was acknowledged. A batch that cannot commit (a full disk) is
 * lost the same way, and every later call, `close()` included, rejects with STORE_FAILED
 * saying how many acknowledged writes it held.
 */
export type Durability = "full" | "batched";

/** Options of `sqliteStore()`. */
export interface SqliteStoreOptions {
  /** Default "full". */
  durability?: Durability;
  /** "batched": commit at this many writes (default 1000). */
  batchSize?: number;
  /** "batched": a batch commits at the first write this long after its first one, or by a timer then, in ms (default 5). */
  batchDelayMs?: number;
  /** How long a write waits for another connection's write lock before failing with STORE_FAILED (default 5000 ms). */
  busyTimeoutMs?: number;
}

/** A Store's methods, each answering with a promise. */
type Promised<S> = { [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[K] };

/** A Store on a SQLite file. Every method answers with a promise (a failure rejects with a CtxloomError). */
export interface SqliteStore extends Promised<Store> {
  /** The database file, as given. */
  readonly path: string;
  readonly durability: Durability;
  /**
   * The better-sqlite3 connection, for backups, pragmas and your own tables. Do not write to
   * ctxloom's tables (users, chats, messages, embeddings, ctxloom_schema) through it. With "batched"
   * durability, call `flush()` first: the open batch holds the write lock.
   */
  readonly database: SqliteDatabase;
  /** See Store.eraseUser; then the file is rebuilt and its log emptied, as after a delete. */
  eraseUser(userId: string): Promise<ErasedUser>;
  /** See Store.pruneChats: the rows go; the file is not rebuilt per batch (see `vacuum`). */
  pruneChats(query: PruneQuery): Promise<PruneBatch>;
  /**
   * Rebuilds the file and empties its log (VACUUM, then a checkpoint that truncates the -wal), so
   * that no byte of what was deleted stays in them: what a prune leaves (a delete, a redaction and
   * an erasure do it themselves). It takes about 0.5 s per 50 MB, during which writes wait.
   * @throws STORE_FAILED when another connection reads the database (its log cannot be emptied)
   */
  vacuum(): Promise<void>;
}
