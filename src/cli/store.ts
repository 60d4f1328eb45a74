// The store behind the command: the SQLite file named by --db (default ./ctxloom.db), so a
// program using the library on the same file sees what the command did. Loaded on first use:
// commands that keep nothing (models, --help) run without better-sqlite3.
import type { Store } from "../store/types.js";

/** Opens the chat database at `dbPath` (created when missing). @throws STORE_FAILED without better-sqlite3 */
export async function openStore(dbPath: string, _warn?: (text: string) => void): Promise<Store> {
  const { sqliteStore } = await import("../store/sqlite.js");
  return sqliteStore(dbPath);
}
