// The SQLite store's schema and its migrations. A database records every migration it went
// through in ctxloom_schema; opening a database of an older version migrates it, in one
// transaction, before anything else touches it.
import type { SqliteDatabase } from "./sqlite-driver.js";
import { corrupt } from "./sqlite-errors.js";

/**
 * Every schema version, oldest first. A migration is never edited once released: a new
 * version appends one. Codes: role 0 system, 1 user, 2 assistant, 3 tool; priority 0 low,
 * 1 normal, 2 high, 3 critical; kind 0 message, 1 summary. JSON columns hold text.
 *
 * Messages are clustered by (chat, id) (WITHOUT ROWID): a chat's messages sit together and
 * load in one range scan. The small columns come first and `content` last, so that reading
 * them never follows a long text's overflow pages.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        created INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE chats (
        key INTEGER PRIMARY KEY,
        user TEXT NOT NULL,
        id TEXT NOT NULL,
        title TEXT NOT NULL,
        model TEXT NOT NULL,
        system TEXT,
        options TEXT NOT NULL,
        head INTEGER,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        message_count INTEGER NOT NULL,
        UNIQUE (user, id)
      );
      CREATE INDEX chats_by_update ON chats (user, updated DESC, created DESC);
      CREATE TABLE messages (
        chat INTEGER NOT NULL,
        id INTEGER NOT NULL,
        parent INTEGER,
        role INTEGER NOT NULL,
        priority INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        created INTEGER NOT NULL,
        name TEXT,
        tool_call_id TEXT,
        tool_calls TEXT,
        content TEXT NOT NULL,
        PRIMARY KEY (chat, id)
      ) WITHOUT ROWID;`,
  },
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

/** The schema version this release writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Columns every table must have at SCHEMA_VERSION (a check that the file is what it claims). */
const COLUMNS: Record<string, string[]> = {
  users: ["id", "created"],
  chats: ["key", "user", "id", "title", "model", "system", "options", "head", "created", "updated", "message_count"],
  messages: [
    "chat", "id", "parent", "role", "priority", "tokens", "kind", "created", "name", "tool_call_id", "tool_calls", "content",
    "covers_first", "covers_last", "parts", "key",
  ],
  embeddings: ["chat", "message", "embedder", "dimension", "vector"],
};

/**
 * The schema version of the database (0 for an empty one), read without writing.
 * STORE_CORRUPT for a foreign database (any table, index, view or trigger without
 * ctxloom_schema: ctxloom never adds its tables to another program's database) or a newer one.
 */
export function schemaVersion(db: SqliteDatabase, path: string): number {
  const names = db.prepare("SELECT name FROM sqlite_schema").pluck().all() as string[];
  if (!names.includes("ctxloom_schema")) {
    if (names.length > 0) {
      const shown = names.slice(0, 5).join(", ") + (names.length > 5 ? ", ..." : "");
      throw corrupt(path, `it is another program's database (it holds ${shown} and no ctxloom_schema table); ctxloom opens only its own databases and empty files`);
    }
    return 0;
  }
  const version = db.prepare("SELECT max(version) FROM ctxloom_schema").pluck().get();
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw corrupt(path, `its ctxloom_schema table names no valid version (${String(version)})`);
  }
  if (version > SCHEMA_VERSION) {
    throw corrupt(path, `a newer ctxloom wrote it (schema version ${version}; this release reads up to ${SCHEMA_VERSION}). Upgrade ctxloom`);
  }
  return version;
}

/**
 * STORE_CORRUPT unless SQLite's quick_check finds the file intact. It reads every page (the
 * cost grows with the file), so it runs only before the first write to an existing file:
 * a migration, or the switch to WAL.
 */
export function checkIntact(db: SqliteDatabase, path: string): void {
  const found = db.prepare("PRAGMA quick_check(3)").pluck().all() as string[];
  if (found.length !== 1 || found[0] !== "ok") throw corrupt(path, `SQLite's quick_check found it damaged (${found.join("; ")})`);
}

/**
 * Brings the database to SCHEMA_VERSION: creates the schema in an empty
 * database and migrates an older one, in one transaction; then checks the columns.
 * Returns the version the file had before (0 for a new database).
 */
export function migrate(db: SqliteDatabase, path: string): number {
  let from = schemaVersion(db, path);
  if (from < SCHEMA_VERSION) {
    // Under the write lock, read again: another process may have migrated meanwhile.
    db.exec("BEGIN IMMEDIATE");
    try {
      from = schemaVersion(db, path);
      if (from === 0) db.exec("CREATE TABLE ctxloom_schema (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)");
      const record = db.prepare("INSERT INTO ctxloom_schema (version, applied) VALUES (?, ?)");
      for (const m of MIGRATIONS) {
        if (m.version <= from) continue;
        db.exec(m.sql);
        record.run(m.version, Date.now());
      }
      db.exec("COMMIT");
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
    const lacking = columns.filter((c) => !have.has(c));
    if (lacking.length > 0) throw corrupt(path, `its ${table} table lacks the columns ${lacking.join(", ")}`);
  }
  return from;
}
