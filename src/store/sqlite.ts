// The SQLite store (Node only, on better-sqlite3): chats, their messages and embeddings in
// one file (WAL mode), shared safely by several processes. Opening and its options here; the
// operations in sqlite-store.ts.
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { unavailableHere } from "./elsewhere.js";
import { storeError } from "./sql-errors.js";
import { sqliteConnection } from "./sqlite-connection.js";
import { Database, type SqliteDatabase } from "./sqlite-driver.js";
import { filePlace } from "./sqlite-errors.js";
import { SCHEMA_VERSION, checkIntact, migrate, schemaNames, schemaVersion } from "./sqlite-schema.js";
import { SqliteStoreImpl } from "./sqlite-store.js";
import type { SqliteStore, SqliteStoreOptions } from "./sqlite-types.js";

export type { SqliteStore, SqliteStoreOptions } from "./sqlite-types.js";

const PAGE_SIZE = 8192;
const KNOWN = ["durability", "batchSize", "batchDelayMs", "busyTimeoutMs", "tablePrefix"] as const;

/**
 * A store on the SQLite file at `path` (created when absent; default "./ctxloom.db"). Node
 * only. The file is migrated to the current schema when it was written by an older release.
 * A delete or a redaction erases the old bytes from the file and its log (the file is rebuilt:
 * about 0.5 s per 50 MB, holding the write lock).
 * @throws UNSUPPORTED_RUNTIME on Deno, Workers or a browser (better-sqlite3 is a native addon
 *   for Node); INVALID_ARGUMENT for a bad path, a missing folder or bad options; STORE_CORRUPT
 *   for a file that is not a ctxloom database (or was written by a newer release); STORE_FAILED
 *   when SQLite cannot open or migrate it
 */
export function sqliteStore(path = "./ctxloom.db", options?: SqliteStoreOptions): SqliteStore {
  const elsewhere = unavailableHere("ctxloom/sqlite");
  if (elsewhere) throw elsewhere;
  if (typeof path !== "string" || path.length === 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `sqliteStore(path) takes the database file's path, e.g. "./ctxloom.db"; got ${describe(path)}.`,
    );
  }
  const o = checkOptions<SqliteStoreOptions>(options, "sqliteStore(path, options)", KNOWN);
  const durability = o.durability ?? "full";
  if (durability !== "full" && durability !== "batched") {
    throw new CtxloomError("INVALID_ARGUMENT", `durability must be "full" or "batched"; got ${describe(durability)}.`);
  }
  const prefix = o.tablePrefix ?? "";
  if (o.tablePrefix !== undefined && (typeof prefix !== "string" || !/^[a-z_][a-z0-9_]{0,40}$/i.test(prefix))) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `tablePrefix must be letters, digits and underscores (at most 41); got ${describe(o.tablePrefix)}.`,
    );
  }
  const names = schemaNames(prefix);
  const settings = {
    prefix,
    durability,
    batchSize: o.batchSize === undefined ? 1000 : checkInteger(o.batchSize, "batchSize", 1, 1_000_000),
    batchDelayMs: o.batchDelayMs === undefined ? 5 : checkInteger(o.batchDelayMs, "batchDelayMs", 0, 60_000),
    busyTimeoutMs: o.busyTimeoutMs === undefined ? 5000 : checkInteger(o.busyTimeoutMs, "busyTimeoutMs", 0, 600_000),
  };
  const file = path === ":memory:" ? undefined : resolve(path);
  if (file !== undefined) checkPlace(path, file);
  let db: SqliteDatabase;
  try {
    db = new Database(path, { timeout: settings.busyTimeoutMs });
  } catch (error) {
    throw storeError(filePlace(path), "opening the database", error);
  }
  const connection = sqliteConnection(db);
  try {
    // Nothing is written to the file before it is known to be ctxloom's (or empty), of a
    // version this release reads, and, when opening is about to write to it, intact.
    const version = schemaVersion(connection, path, names);
    if (db.pragma("page_count", { simple: true }) === 0) {
      // A new file: 8 KiB pages keep most messages' text in the row, off overflow pages.
      db.pragma(`page_size = ${PAGE_SIZE}`);
    } else if (version < SCHEMA_VERSION || db.pragma("journal_mode", { simple: true }) !== "wal") {
      checkIntact(db, path);
    }
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    migrate(db, connection, path, names);
    return new SqliteStoreImpl(db, path, file, settings);
  } catch (error) {
    db.close();
    throw storeError(filePlace(path), "opening the database", error);
  }
}

/** INVALID_ARGUMENT when the path's folder is missing or the path is a folder: SQLite's own errors say less. */
function checkPlace(path: string, file: string): void {
  const kind = (p: string) => {
    try {
      return statSync(p).isDirectory() ? "folder" : "file";
    } catch {
      return "none";
    }
  };
  if (kind(dirname(file)) !== "folder") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The folder of the SQLite store ${path} (${dirname(file)}) does not exist; ` +
        `create it first, or give another path.`,
    );
  }
  if (kind(file) === "folder") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The SQLite store's path ${path} is a folder; give the path of a file in it, e.g. ${path}/ctxloom.db.`,
    );
  }
}
