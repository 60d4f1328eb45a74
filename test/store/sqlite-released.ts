// The SQLite file's schema as each version was released, frozen here: the migrations must
// read such files (test/store/sqlite-files.test.ts, test/store/kit.test.ts).

/** Version 1. */
export const V1 = `
  CREATE TABLE ctxloom_schema (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL);
  INSERT INTO ctxloom_schema VALUES (1, 1700000000000);
  CREATE TABLE users (id TEXT PRIMARY KEY, created INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE chats (key INTEGER PRIMARY KEY, user TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, model TEXT NOT NULL,
    system TEXT, options TEXT NOT NULL, head INTEGER, created INTEGER NOT NULL, updated INTEGER NOT NULL,
    message_count INTEGER NOT NULL, UNIQUE (user, id));
  CREATE INDEX chats_by_update ON chats (user, updated DESC, created DESC);
  CREATE TABLE messages (chat INTEGER NOT NULL, id INTEGER NOT NULL, parent INTEGER, role INTEGER NOT NULL,
    priority INTEGER NOT NULL, tokens INTEGER NOT NULL, kind INTEGER NOT NULL, created INTEGER NOT NULL, name TEXT,
    tool_call_id TEXT, tool_calls TEXT, content TEXT NOT NULL, PRIMARY KEY (chat, id)) WITHOUT ROWID;`;

/** Version 2, on top of V1. */
export const V2 = `
  INSERT INTO ctxloom_schema VALUES (2, 1700000000000);
  ALTER TABLE messages ADD COLUMN covers_first INTEGER;
  ALTER TABLE messages ADD COLUMN covers_last INTEGER;
  ALTER TABLE messages ADD COLUMN parts TEXT;
  CREATE TABLE embeddings (chat INTEGER NOT NULL, message INTEGER NOT NULL, embedder TEXT NOT NULL, dimension INTEGER NOT NULL,
    vector BLOB NOT NULL, PRIMARY KEY (chat, embedder, dimension, message));`;

/** Version 3 (append keys), on top of V2: the kit's schema. */
export const V3 = `
  INSERT INTO ctxloom_schema VALUES (3, 1700000000000);
  ALTER TABLE messages ADD COLUMN key TEXT;
  CREATE UNIQUE INDEX messages_by_key ON messages (chat, key) WHERE key IS NOT NULL;`;

/** Version 4 (users' working memories), on top of V3. */
export const V4 = `
  INSERT INTO ctxloom_schema VALUES (4, 1700000000000);
  CREATE TABLE memory (user TEXT NOT NULL, scope TEXT NOT NULL, revision INTEGER NOT NULL, path TEXT NOT NULL, kind INTEGER NOT NULL,
    author INTEGER NOT NULL, chat TEXT, at REAL NOT NULL, json_schema TEXT, content TEXT NOT NULL,
    PRIMARY KEY (user, scope, revision, path)) WITHOUT ROWID;
  CREATE INDEX memory_by_path ON memory (user, scope, path, revision);`;
