// The one schema of the SQLite-dialect stores: a SQLite file (better-sqlite3) and a Durable
// Object's storage hold the same tables, named with a prefix ("" in a file of its own,
// "ctxloom_" by default in a Durable Object, which the application shares), and record their
// version in a table of their own. A new database gets this schema whole; an older one is
// brought to it by its store's own steps (the releases before the kit laid out their tables
// differently), then by the kit's, in one transaction.

/**
 * Version 3 is where both stores met: the SQLite file's layout since append keys, and the
 * Durable Object's since it moved to it (its versions 1 and 2 had their own). A later version
 * adds a step to KIT_STEPS, run by both: 4 added users' working memories, 5 long chats' numbers
 * apart from their texts.
 */
export const SCHEMA_VERSION = 5;

/** Table names: `prefix` before each table's, `versions` the table of applied versions. */
export interface SchemaNames {
  prefix: string;
  versions: string;
}

/** Every table at SCHEMA_VERSION: version 3's, then each kit step's. */
export function schemaSql(names: SchemaNames): string {
  return [kitV3Sql(names), ...KIT_STEPS.map((step) => step.sql(names))].join("\n");
}

/**
 * The tables of version 3 (frozen: a step after it changes them, and the Durable Object's
 * releases before the kit move into them). Codes: role 0 system, 1 user, 2 assistant, 3 tool; priority
 * 0 low, 1 normal, 2 high, 3 critical; kind 0 message, 1 summary. JSON columns hold text,
 * vectors float32 little-endian (vectors.ts).
 *
 * Messages are clustered by (chat, id) (WITHOUT ROWID): a chat's messages sit together and
 * load in one range scan. The small columns come first and `content` (then the rare fields)
 * after, so that reading the small ones never follows a long text's overflow pages. `key` is
 * the append's (unique per chat): a retry of an append that did land finds its message.
 */
export function kitV3Sql({ prefix: p, versions }: SchemaNames): string {
  return `
    CREATE TABLE ${versions} (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL);
    CREATE TABLE ${p}users (
      id TEXT PRIMARY KEY,
      created INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE ${p}chats (
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
    CREATE INDEX ${p}chats_by_update ON ${p}chats (user, updated DESC, created DESC);
    CREATE TABLE ${p}messages (
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
      covers_first INTEGER,
      covers_last INTEGER,
      parts TEXT,
      key TEXT,
      PRIMARY KEY (chat, id)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX ${p}messages_by_key ON ${p}messages (chat, key) WHERE key IS NOT NULL;
    CREATE TABLE ${p}embeddings (
      chat INTEGER NOT NULL,
      message INTEGER NOT NULL,
      embedder TEXT NOT NULL,
      dimension INTEGER NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (chat, embedder, dimension, message)
    );`;
}

/** Columns every table must have at SCHEMA_VERSION (a check that the database is what it claims). */
const COLUMNS: Record<string, string[]> = {
  users: ["id", "created"],
  chats: ["key", "user", "id", "title", "model", "system", "options", "head", "created", "updated", "message_count"],
  messages: [
    "chat",
    "id",
    "parent",
    "role",
    "priority",
    "tokens",
    "kind",
    "created",
    "name",
    "tool_call_id",
    "tool_calls",
    "content",
    "covers_first",
    "covers_last",
    "parts",
    "key",
  ],
  embeddings: ["chat", "message", "embedder", "dimension", "vector"],
  memory: ["user", "scope", "revision", "path", "kind", "author", "chat", "at", "json_schema", "content"],
  message_numbers: ["chat", "chunk", "data"],
};

/**
 * The kit's steps after version 3, by the version they make, as released: a step is never edited.
 *
 * 4: users' working memories, every record of every revision: a memory is the user's own (scope
 * "") or a chat's (scope: its id). Clustered by (user, scope, revision, path): a memory's newest
 * revision is the last key of its range; the index by path finds each document's newest record.
 * Codes: kind 0 text, 1 object, 2 deleted; author 0 app, 1 model.
 *
 * 5: a chat's numbers apart from its texts, so that a paged open (sql-paged.ts) reads 17 bytes a
 * message instead of its row: per chunk of 1,024 messages (ids chunk * 1024 on), one BLOB of
 * their times, parents, tokens and codes (sql-numbers.ts). Written when a chunk is full, so a
 * database of version 4 gets them as its long chats are opened, not by this step.
 */
const KIT_STEPS: readonly { version: number; sql: (names: SchemaNames) => string }[] = [
  {
    version: 4,
    sql: ({ prefix: p }) => `
      CREATE TABLE ${p}memory (
        user TEXT NOT NULL,
        scope TEXT NOT NULL,
        revision INTEGER NOT NULL,
        path TEXT NOT NULL,
        kind INTEGER NOT NULL,
        author INTEGER NOT NULL,
        chat TEXT,
        at REAL NOT NULL,
        json_schema TEXT,
        content TEXT NOT NULL,
        PRIMARY KEY (user, scope, revision, path)
      ) WITHOUT ROWID;
      CREATE INDEX ${p}memory_by_path ON ${p}memory (user, scope, path, revision);`,
  },
  {
    version: 5,
    sql: ({ prefix: p }) => `
      CREATE TABLE ${p}message_numbers (
        chat INTEGER NOT NULL,
        chunk INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (chat, chunk)
      ) WITHOUT ROWID;`,
  },
];

/** The part of a connection the schema needs. */
export interface SchemaConnection {
  get(sql: string, ...params: unknown[]): unknown[] | undefined;
  all(sql: string, ...params: unknown[]): unknown[][];
  run(sql: string, ...params: unknown[]): void;
  exec(sql: string): void;
}

/**
 * The schema version of the database (0 when it has no version table), read without writing.
 * `problem` receives what is wrong with a table that names no valid version or a newer one.
 */
export function schemaVersion(db: SchemaConnection, names: SchemaNames, problem: (what: string) => Error): number {
  if (db.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", names.versions) === undefined) return 0;
  const version = db.get(`SELECT max(version) FROM ${names.versions}`)?.[0];
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw problem(`its ${names.versions} table names no valid version (${String(version)})`);
  }
  if (version > SCHEMA_VERSION) {
    throw problem(
      `a newer ctxloom wrote it (schema version ${version}; this release reads up to ${SCHEMA_VERSION}). Upgrade ` +
        `ctxloom`,
    );
  }
  return version;
}

/**
 * Brings the database to SCHEMA_VERSION inside `locked` (a transaction that holds the write
 * lock, so a store in another process waits): creates the schema in a database without one,
 * runs `legacy(from)` for a version before 3 (the store's own steps, which record the
 * versions they make), then the kit's steps; then checks the columns. Returns the version the
 * database had before (0 for a new one).
 */
export function migrate(
  db: SchemaConnection,
  names: SchemaNames,
  locked: (fn: () => void) => void,
  legacy: (from: number) => void,
  problem: (what: string) => Error,
): number {
  let from = schemaVersion(db, names, problem);
  if (from < SCHEMA_VERSION) {
    locked(() => {
      from = schemaVersion(db, names, problem); // another process may have migrated meanwhile
      const record = (version: number) =>
        db.run(`INSERT INTO ${names.versions} (version, applied) VALUES (?, ?)`, version, Date.now());
      if (from === 0) {
        db.exec(schemaSql(names));
        record(SCHEMA_VERSION);
        return;
      }
      if (from < 3) legacy(from);
      for (const step of KIT_STEPS) {
        if (step.version <= Math.max(from, 3)) continue;
        db.exec(step.sql(names));
        record(step.version);
      }
    });
  }
  checkColumns(db, names, problem);
  return from;
}

/** Throws `problem` naming the first table that lacks one of the schema's columns. */
export function checkColumns(db: SchemaConnection, names: SchemaNames, problem: (what: string) => Error): void {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const have = new Set(db.all(`PRAGMA table_info(${names.prefix}${table})`).map((c) => c[1]));
    const lacking = columns.filter((c) => !have.has(c));
    if (lacking.length > 0) throw problem(`its ${names.prefix}${table} table lacks the columns ${lacking.join(", ")}`);
  }
}
