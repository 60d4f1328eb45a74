// better-sqlite3, loaded when ctxloom/sqlite is imported. It is an optional peer dependency:
// loading it through createRequire (not a static import) lets a missing or broken install
// surface as a CtxloomError that says how to fix it, rather than as Node's resolution error.
import { createRequire } from "node:module";
import { CtxloomError } from "../errors.js";
import { unavailableHere } from "./elsewhere.js";

/** The parts of better-sqlite3's Statement that the store uses. */
export interface SqliteStatement {
  /** Runs the statement; how many rows it changed and the last row id inserted. */
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  /** The first row, or undefined. */
  get(...params: unknown[]): unknown;
  /** Every row. */
  all(...params: unknown[]): unknown[];
  /** Rows as arrays of column values (no object per row). */
  raw(toggle?: boolean): this;
  /** Only the first column of each row. */
  pluck(toggle?: boolean): this;
}

/** The parts of a better-sqlite3 Database that the store uses (`store.database` is one). */
export interface SqliteDatabase {
  /** The database file's path. */
  readonly name: string;
  /** False once closed. */
  readonly open: boolean;
  /** True inside a transaction. */
  readonly inTransaction: boolean;
  /** A statement compiled from SQL. */
  prepare(source: string): SqliteStatement;
  /** Runs SQL of one or more statements, with no result. */
  exec(source: string): this;
  /** Reads or sets a pragma. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** `fn` wrapped in a transaction (`.immediate` takes the write lock first). */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F & { immediate: F };
  /** Closes the connection. */
  close(): this;
}

type DatabaseConstructor = new (
  path: string,
  options?: { timeout?: number; fileMustExist?: boolean },
) => SqliteDatabase;

function load(): DatabaseConstructor {
  const require = createRequire(import.meta.url);
  try {
    return require("better-sqlite3") as DatabaseConstructor;
  } catch (cause) {
    const missing =
      (cause as { code?: string }).code === "MODULE_NOT_FOUND" &&
      String((cause as Error).message).includes("'better-sqlite3'");
    throw new CtxloomError(
      "STORE_FAILED",
      missing
        ? "ctxloom/sqlite needs the better-sqlite3 package, which is not installed. Install it with `npm install " +
            "better-sqlite3` (version 11 or 12), then import ctxloom/sqlite again."
        : `ctxloom/sqlite could not load better-sqlite3 (${String(cause)}). Its native part may be built for ` +
            `another Node version: run \`npm rebuild better-sqlite3\`.`,
      { cause },
    );
  }
}

/**
 * Stands for the class where it cannot load (another runtime than Node): sqliteStore() says so before it would be
 * called.
 */
function unavailable(): never {
  throw (
    unavailableHere("ctxloom/sqlite") ?? new CtxloomError("UNSUPPORTED_RUNTIME", "ctxloom/sqlite runs on Node only.")
  );
}

/**
 * better-sqlite3's Database class, loaded on Node (on another runtime sqliteStore() throws UNSUPPORTED_RUNTIME
 * instead).
 */
export const Database: DatabaseConstructor = unavailableHere("ctxloom/sqlite")
  ? (unavailable as unknown as DatabaseConstructor)
  : load();
