// The ctxloom/sqlite entry point on Deno, Cloudflare Workers and browsers (the package's
// `deno`, `workerd` and `browser` export conditions choose it): better-sqlite3 is a native
// addon only Node loads, so sqliteStore() throws UNSUPPORTED_RUNTIME, naming the runtime and
// the stores that run there, instead of failing later with advice that does not apply.
import { CtxloomError } from "./errors.js";
import { unavailableHere } from "./store/elsewhere.js";
import type { SqliteStore, SqliteStoreOptions } from "./store/sqlite-types.js";

export type { SqliteStore, SqliteStoreOptions } from "./store/sqlite-types.js";
export type { SqliteDatabase, SqliteStatement } from "./store/sqlite-driver.js";

/** @throws UNSUPPORTED_RUNTIME always: this runtime cannot load better-sqlite3. */
export function sqliteStore(path?: string, options?: SqliteStoreOptions): SqliteStore {
  void path;
  void options;
  throw (
    unavailableHere("ctxloom/sqlite") ??
    new CtxloomError(
      "UNSUPPORTED_RUNTIME",
      "ctxloom/sqlite runs on Node only (better-sqlite3 is a native addon for Node); on this runtime, use the " +
        "memory store or a Store of your own.",
    )
  );
}
