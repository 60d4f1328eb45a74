// The store behind the command: the SQLite file named by --db (default ./ctxloom.db), so a
// program using the library on the same file sees what the command did.
import { sqliteStore } from "../store/sqlite.js";
import type { Store } from "../store/types.js";

/** Opens the chat database at `dbPath` (created when missing). */
export async function openStore(dbPath: string, _warn?: (text: string) => void): Promise<Store> {
  return sqliteStore(dbPath);
}
