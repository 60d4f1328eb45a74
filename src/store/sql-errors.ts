// What SQLite's failures mean for a user of a SQLite-dialect store (a file, a Durable Object):
// a CtxloomError with a stable code, the store's name, and what to do.
import { CtxloomError } from "../errors.js";

/** Where a store's data is, for its errors. */
export interface SqlPlace {
  /** "The SQLite store ./ctxloom.db": starts a sentence. */
  label: string;
  /** "./ctxloom.db": ends "User u has no chat c in ...". */
  where: string;
  /** What to do with data ctxloom cannot read: "restore the file from a backup, ...". */
  restore: string;
  /** Advice for SQLite's result codes this place words its own way (a full disk, a lock). */
  advice(code: string): string | undefined;
}

/**
 * SQLite's extended result code of an error, or undefined: better-sqlite3's SqliteError
 * carries it as `code`, a Durable Object's error ends its message with it.
 */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
  const found = /\b(SQLITE_[A-Z_]+)\b/.exec(error instanceof Error ? error.message : "");
  return found?.[1];
}

/** STORE_CORRUPT for data that is not ctxloom's, or that ctxloom cannot read back. */
export function corruptIn(place: SqlPlace, what: string, cause?: unknown): CtxloomError {
  return new CtxloomError(
    "STORE_CORRUPT",
    `${place.label} cannot be used: ${what}. ctxloom changed nothing in it; ${place.restore}.`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Turns any failure of a store operation into a CtxloomError (CtxloomErrors pass through):
 * STORE_CORRUPT for damaged or foreign data, STORE_FAILED for everything that a retry, more
 * space or other permissions can fix. `what` names the operation ("appending a message").
 */
export function storeError(place: SqlPlace, what: string, error: unknown): CtxloomError {
  if (error instanceof CtxloomError) return error;
  const code = sqliteCode(error) ?? "";
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return corruptIn(place, `SQLite says "${detail}" while ${what}`, error);
  }
  const advice = place.advice(code) ?? "retry; if it keeps failing, check the store";
  return new CtxloomError(
    "STORE_FAILED",
    `${place.label} failed while ${what} (${code || "error"}: ${detail}); nothing was changed: ${advice}.`,
    { cause: error },
  );
}

/**
 * SQLite's answer to a second row of a key a unique index holds (better-sqlite3's code, a Durable Object's or D1's
 * message).
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE" ||
    /UNIQUE constraint failed/.test(String((error as Error)?.message))
  );
}
