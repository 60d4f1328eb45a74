// The SQLite file's schema history and its checks: the kit's schema (sql-schema.ts) is what a
// new file gets; a file of an older release is brought to it by the steps it was released
// with (MIGRATIONS), recorded in ctxloom_schema, in one transaction under the write lock,
// before anything else touches it.
import type { SqlConnection } from "./sql-connection.js";
import {
  SCHEMA_VERSION,
  migrate as migrateSchema,
  schemaVersion as versionOf,
  type SchemaNames,
} from "./sql-schema.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { corrupt } from "./sqlite-errors.js";

/** A file of its own: tables without a prefix, versions in ctxloom_schema. */
export const FILE_NAMES: SchemaNames = { prefix: "", versions: "ctxloom_schema" };

/** The names of a store's tables: a file's own (FILE_NAMES) without a prefix; with one, as a Durable Object's. */
export const schemaNames = (prefix: string): SchemaNames =>
  prefix === "" ? FILE_NAMES : { prefix, versions: `${prefix}schema` };

/**
 * The steps of the releases before the kit after their first (whose tables a new file no
 * longer needs: it gets the kit's schema whole), oldest first, as released: a step is never
 * edited. Version 3 is the kit's schema (sql-schema.ts).
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 2,
    sql: `
      ALTER TABLE messages ADD COLUMN covers_first INTEGER;
      ALTER TABLE messages ADD COLUMN covers_last INTEGER;
      ALTER TABLE messages ADD COLUMN parts TEXT;
      CREATE TABLE embeddings (
        chat INTEGER NOT NULL,
        message INTEGER NOT NULL,
        embedder TEXT NOT NULL,
        dimension INTEGER NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (chat, embedder, dimension, message)
      );`,
  },
  {
    // The key an append was made with (chat.append's, or the Loom's own), unique per chat: a
    // retry of an append that did land finds its message instead of adding it twice.
    version: 3,
    sql: `
      ALTER TABLE messages ADD COLUMN key TEXT;
      CREATE UNIQUE INDEX messages_by_key ON messages (chat, key) WHERE key IS NOT NULL;`,
  },
];

/**
 * The schema version of the file (0 for an empty one), read without writing. STORE_CORRUPT
 * for a foreign database (any table, index, view or trigger without ctxloom_schema: ctxloom
 * never adds its tables to another program's database) or a newer one.
 */
export function schemaVersion(db: SqlConnection, path: string, names: SchemaNames = FILE_NAMES): number {
  const all = db.column("SELECT name FROM sqlite_schema") as string[];
  if (!all.includes(names.versions)) {
    // Tables of ctxloom's prefixed stores (a "<prefix>schema" table and what is named after it) are not another
    // program's.
    const prefixes = all
      .filter((n) => /^[a-z_][a-z0-9_]{0,40}schema$/i.test(n) && n !== FILE_NAMES.versions)
      .map((n) => n.slice(0, -"schema".length));
    const ours = (n: string) => prefixes.some((p) => n.startsWith(p) || n.startsWith(`sqlite_autoindex_${p}`));
    // A prefixed store may share the file with anything but tables of its own prefix made by no ctxloom store.
    const foreign =
      names.prefix === "" ? all.filter((n) => !ours(n)) : all.filter((n) => n.startsWith(names.prefix) && !ours(n));
    if (foreign.length > 0) {
      const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? ", ..." : "");
      throw corrupt(
        path,
        `it is another program's database (it holds ${shown} and no ${names.versions} table); ctxloom opens only ` +
          `its own databases and empty files`,
      );
    }
  }
  return versionOf(db, names, (what) => corrupt(path, what));
}

/**
 * STORE_CORRUPT unless SQLite's quick_check finds the file intact. It reads every page (the
 * cost grows with the file), so it runs only before the first write to an existing file:
 * a migration, or the switch to WAL.
 */
export function checkIntact(db: SqliteDatabase, path: string): void {
  const found = db.prepare("PRAGMA quick_check(3)").pluck().all() as string[];
  if (found.length !== 1 || found[0] !== "ok")
    throw corrupt(path, `SQLite's quick_check found it damaged (${found.join("; ")})`);
}

/**
 * Brings the file to SCHEMA_VERSION under the write lock (BEGIN IMMEDIATE), in one
 * transaction: the kit's schema in an empty file, the released steps in an older one; then
 * checks the columns. Returns the version the file had before (0 for a new one).
 */
export function migrate(
  database: SqliteDatabase,
  db: SqlConnection,
  path: string,
  names: SchemaNames = FILE_NAMES,
): number {
  schemaVersion(db, path, names); // a foreign or newer file is refused before the lock is taken
  const locked = (fn: () => void): void => {
    db.exec("BEGIN IMMEDIATE");
    try {
      fn();
      db.exec("COMMIT");
    } catch (error) {
      if (database.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
  const legacy = (from: number): void => {
    if (names !== FILE_NAMES)
      throw corrupt(path, `its ${names.versions} table says version ${from}, which no release wrote under a prefix`);
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      db.exec(m.sql);
      db.run(`INSERT INTO ${FILE_NAMES.versions} (version, applied) VALUES (?, ?)`, m.version, Date.now());
    }
  };
  return migrateSchema(db, names, locked, legacy, (what) => corrupt(path, what));
}

export { SCHEMA_VERSION };
