// What SQLite's failures mean for a user of the store: a CtxloomError with a stable code,
// the database's path, and what to do.
import { CtxloomError } from "../errors.js";

/** SQLite's extended result code of an error (better-sqlite3's SqliteError carries it), or undefined. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** STORE_CORRUPT for a file that is not a ctxloom database or that ctxloom cannot read back. */
export function corrupt(path: string, what: string, cause?: unknown): CtxloomError {
  return new CtxloomError(
    "STORE_CORRUPT",
    `The SQLite store ${path} cannot be used: ${what}. ctxloom changed nothing in it; ` +
      `restore the file from a backup, or give sqliteStore() another path.`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Turns any failure of a store operation into a CtxloomError (CtxloomErrors pass through):
 * STORE_CORRUPT for a damaged or foreign file, STORE_FAILED for everything that a retry,
 * more space or other permissions can fix. `what` names the operation ("appending a message").
 */
export function storeError(path: string, what: string, error: unknown): CtxloomError {
  if (error instanceof CtxloomError) return error;
  const code = sqliteCode(error) ?? "";
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return corrupt(path, `SQLite says "${detail}" while ${what}`, error);
  }
  let advice: string;
  if (code === "SQLITE_FULL") {
    advice = "the disk, or the database's size limit (PRAGMA max_page_count), is full. Free space and retry";
  } else if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_PERM" || code === "SQLITE_AUTH") {
    advice = "the file (or its folder, where SQLite writes its -wal and -shm files) is read-only. Give this process write permission, or open a copy";
  } else if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    advice = "another connection held the database's write lock longer than busyTimeoutMs. Retry, or raise busyTimeoutMs";
  } else if (code.startsWith("SQLITE_CANTOPEN")) {
    advice = "SQLite cannot open the file. Check that the path names a file (not a folder) this process may read and write";
  } else {
    advice = "retry; if it keeps failing, check the disk and the file";
  }
  return new CtxloomError(
    "STORE_FAILED",
    `The SQLite store ${path} failed while ${what} (${code || "error"}: ${detail}); nothing was changed: ${advice}.`,
    { cause: error },
  );
}
