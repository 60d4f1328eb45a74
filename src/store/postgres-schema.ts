/**
 * The PostgreSQL schema of ctxloom, by version. Every table name starts with the store's
 * prefix (default "ctxloom_") so that ctxloom can share a database with the application.
 *
 *   <p>schema   version (one row)
 *   <p>chats    (user_id, id) PK, title, model, system, options jsonb, head, message_count, created_at, updated_at
 *   <p>messages (user_id, chat_id, id) PK, parent, role, content, priority, tokens, name, tool_calls jsonb,
 *               tool_call_id, kind, covers_first, covers_last, parts jsonb, created_at
 *   <p>embeddings (user_id, chat_id, embedder, dimension, message_id) PK, vector bytea (f32, little-endian)
 *
 * Chat ids are scoped to their user (an import keeps the exported id), so every key holds both.
 *
 * `message_count` is the chat's next message id: the conditional append bumps it in the
 * same statement that inserts the row, so two writers can never take the same id.
 */
export const SCHEMA_VERSION = 1;

export function migrations(p: string): string[][] {
  return [
    // version 1
    [
      `CREATE TABLE IF NOT EXISTS ${p}chats (
        user_id text NOT NULL,
        id text NOT NULL,
        title text NOT NULL,
        model text NOT NULL,
        system text,
        options jsonb NOT NULL DEFAULT '{}',
        head integer,
        message_count integer NOT NULL DEFAULT 0,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        PRIMARY KEY (user_id, id)
      )`,
      `CREATE INDEX IF NOT EXISTS ${p}chats_user ON ${p}chats (user_id, updated_at DESC)`,
      `CREATE TABLE IF NOT EXISTS ${p}messages (
        user_id text NOT NULL,
        chat_id text NOT NULL,
        id integer NOT NULL,
        parent integer,
        role text NOT NULL,
        content text NOT NULL,
        priority text NOT NULL,
        tokens integer NOT NULL,
        name text,
        tool_calls jsonb,
        tool_call_id text,
        kind text NOT NULL DEFAULT 'message',
        covers_first integer,
        covers_last integer,
        parts jsonb,
        created_at double precision NOT NULL,
        PRIMARY KEY (user_id, chat_id, id),
        FOREIGN KEY (user_id, chat_id) REFERENCES ${p}chats (user_id, id) ON DELETE CASCADE
      )`,
      `CREATE TABLE IF NOT EXISTS ${p}embeddings (
        user_id text NOT NULL,
        chat_id text NOT NULL,
        message_id integer NOT NULL,
        embedder text NOT NULL,
        dimension integer NOT NULL,
        vector bytea NOT NULL,
        PRIMARY KEY (user_id, chat_id, embedder, dimension, message_id),
        FOREIGN KEY (user_id, chat_id) REFERENCES ${p}chats (user_id, id) ON DELETE CASCADE
      )`,
    ],
  ];
}
