// The store behind the command. The SQLite store (src/store/sqlite.ts, `sqliteStore(path)`)
// keeps chats in the --db file; on a build without it, chats live in memory for the one
// command (a notice says so) and nothing is kept.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { memoryStore } from "../store/memory.js";
import type { Store } from "../store/types.js";

type SqliteModule = { sqliteStore(path: string): Store };

/** Opens the chat database at `dbPath`. `warn` hears why chats will not be kept, if so. */
export async function openStore(dbPath: string, warn: (text: string) => void): Promise<Store> {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = ["../store/sqlite.js", "../store/sqlite.ts"].filter((p) => existsSync(join(here, p)));
  if (candidates.length > 0) {
    const spec: string = candidates[0]!;
    const sqlite = (await import(spec)) as SqliteModule;
    return sqlite.sqliteStore(dbPath);
  }
  warn(`ctxloom: this build has no SQLite store; ${dbPath} is not used and nothing is kept after this command.`);
  return memoryStore();
}
