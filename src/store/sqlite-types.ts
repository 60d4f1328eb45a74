// The SQLite store's public types, apart from its code: the store (sqlite.ts), its operations
// (sqlite-store.ts) and its write transaction (sqlite-batch.ts) all take them from here.
import type { SqliteDatabase } from "./sqlite-driver.js";
import type { Durability, ErasedUser, PruneBatch, PruneQuery, Store } from "./types.js";

export type { Durability } from "./types.js";

/** Options of `sqliteStore()`. */
export interface SqliteStoreOptions {
  /** Default "full". */
  durability?: Durability;
  /** "batched": commit at this many writes (default 1000). */
  batchSize?: number;
  /**
   * "batched": a batch commits at the first write this long after its first one, or by a timer then, in ms (default 5).
   */
  batchDelayMs?: number;
  /** How long a write waits for another connection's write lock before failing with STORE_FAILED (default 5000 ms). */
  busyTimeoutMs?: number;
  /**
   * Prefix of the table and index names, so that several stores share one file, each with chats
   * of its own: letters, digits and underscores (at most 41), as PostgreSQL's and D1's. Default
   * none: the tables are `chats`, `messages`... and the file is ctxloom's alone. A file may hold
   * stores of several prefixes (and the one without) side by side.
   */
  tablePrefix?: string;
}

/** A Store's methods, each answering with a promise (what `SqliteStore` is made of). */
export type Promised<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[K];
};

/** A Store on a SQLite file. Every method answers with a promise (a failure rejects with a CtxloomError). */
export interface SqliteStore extends Promised<Store> {
  /** The database file, as given. */
  readonly path: string;
  /** How its writes commit: "full" (each before it answers) or "batched" (see SqliteStoreOptions). */
  readonly durability: Durability;
  /**
   * The better-sqlite3 connection, for backups, pragmas and your own tables. Do not write to
   * ctxloom's tables (users, chats, messages, embeddings, ctxloom_schema..., or those names after your
   * `tablePrefix`) through it. With "batched"
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
