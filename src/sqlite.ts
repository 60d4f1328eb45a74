// The ctxloom/sqlite entry point (Node only): the SQLite store, on better-sqlite3 (an optional
// peer dependency: importing this module without it throws a CtxloomError saying how to install it).
export { sqliteStore, type SqliteStore, type SqliteStoreOptions } from "./store/sqlite.js";
export type { Promised } from "./store/sqlite-types.js";
export type { SqliteDatabase, SqliteStatement } from "./store/sqlite-driver.js";
