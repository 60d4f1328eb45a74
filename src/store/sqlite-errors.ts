// Where the SQLite store's data is, for its errors (sql-errors.ts words them): a file, with
// what a user does about a full disk, a read-only file or a lock held too long.
import type { CtxloomError } from "../errors.js";
import { corruptIn, type SqlPlace } from "./sql-errors.js";

/** The place of the SQLite store on the file at `path` (as given). */
export function filePlace(path: string): SqlPlace {
  return {
    label: `The SQLite store ${path}`,
    where: path,
    restore: "restore the file from a backup, or give sqliteStore() another path",
    advice(code) {
      if (code === "SQLITE_FULL")
        return "the disk, or the database's size limit (PRAGMA max_page_count), is full. Free space and retry";
      if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_PERM" || code === "SQLITE_AUTH") {
        return (
          "the file (or its folder, where SQLite writes its -wal and -shm files) is read-only. Give this " +
          "process write permission, or open a copy"
        );
      }
      if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
        return (
          "another connection held the database's write lock longer than busyTimeoutMs. Retry, or raise " +
          "busyTimeoutMs"
        );
      }
      if (code.startsWith("SQLITE_CANTOPEN"))
        return (
          "SQLite cannot open the file. Check that the path names a file (not a folder) this process may read " +
          "and write"
        );
      return "retry; if it keeps failing, check the disk and the file";
    },
  };
}

/** STORE_CORRUPT for a file that is not a ctxloom database or that ctxloom cannot read back. */
export const corrupt = (path: string, what: string, cause?: unknown): CtxloomError =>
  corruptIn(filePlace(path), what, cause);
