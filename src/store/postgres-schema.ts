/**
 * The PostgreSQL schema of ctxloom, by version. Every table name starts with the store's
 * prefix (default "ctxloom_") so that ctxloom can share a database with the application.
 *
 *   <p>schema   version (one row)
 *   <p>chats    (user_id, id) PK, title, model, system, options json, head, message_count, created_at, updated_at
 *   <p>messages (user_id, chat_id, id) PK, parent, role, content, priority, tokens, name, tool_calls json,
 *               tool_call_id, kind, covers_first, covers_last, parts json, created_at,
 *               key (the append's; unique per chat where set: index <p>messages_key)
 *   <p>embeddings (user_id, chat_id, embedder, dimension, message_id) PK, vector bytea (f32, little-endian)
 *   <p>memory   (user_id, scope, revision, path) PK, kind, author, chat_id, at, json_schema, content: users' working
 *               memories' records (scope "" for a user's own, a chat's id for its own; index <p>memory_by_path)
 *   <p>memory_heads (user_id, scope) PK, revision: each memory's revision, the row a write compares-and-sets
 *
 * Chat ids are scoped to their user (an import keeps the exported id), so every key holds both.
 * Texts and ids hold U+0000 as U+0001 "0" and U+0001 as U+0001 "1" (postgres-rows.ts); JSON
 * columns are `json`, not `jsonb`, which refuses "\u0000" (version 2 made them so).
 *
 * `message_count` is the chat's next message id: the conditional append bumps it in the
 * same statement that inserts the row, so two writers can never take the same id.
 */
import type { Pool } from "pg";
import { CtxloomError } from "../errors.js";
import { checkin, checkout } from "./postgres-append.js";
import { memoryTables } from "./postgres-memory.js";

export const SCHEMA_VERSION = 4;

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
    // version 2: every text round-trips. JSON columns become json (jsonb refuses "\u0000"); a
    // U+0001 already stored becomes U+0001 "1", as texts and ids now hold it. The ids change in
    // one statement, so that the foreign keys hold at its end.
    [
      `ALTER TABLE ${p}messages ALTER COLUMN tool_calls TYPE json USING tool_calls::json, ALTER COLUMN parts TYPE ` +
        `json USING parts::json`,
      `ALTER TABLE ${p}chats ALTER COLUMN options DROP DEFAULT, ALTER COLUMN options TYPE json USING options::json,
        ALTER COLUMN options SET DEFAULT '{}'`,
      `UPDATE ${p}messages SET ${escaped("content", "name", "tool_call_id")} WHERE ` +
        `${holdingSoh("content", "name", "tool_call_id")}`,
      `UPDATE ${p}chats SET ${escaped("title", "model", "system")} WHERE ${holdingSoh("title", "model", "system")}`,
      `WITH chats AS (UPDATE ${p}chats SET ${escaped("user_id", "id")} WHERE ${holdingSoh("user_id", "id")}),
        messages AS (UPDATE ${p}messages SET ${escaped("user_id", "chat_id")} WHERE ${holdingSoh("user_id", "chat_id")})
        UPDATE ${p}embeddings SET ${escaped("user_id", "chat_id", "embedder")} WHERE ${holdingSoh("user_id", "chat_id", "embedder")}`,
    ],
    // version 3: the key an append was made with, unique per chat, so that a retry of an append
    // whose answer was lost finds its message instead of adding it twice.
    [
      `ALTER TABLE ${p}messages ADD COLUMN key text`,
      `CREATE UNIQUE INDEX ${p}messages_key ON ${p}messages (user_id, chat_id, key) WHERE key IS NOT NULL`,
    ],
    // version 4: users' working memories (postgres-memory.ts).
    memoryTables(p),
  ];
}

const escaped = (...columns: string[]) => columns.map((c) => `${c} = replace(${c}, chr(1), chr(1) || '1')`).join(", ");
const holdingSoh = (...columns: string[]) => columns.map((c) => `strpos(${c}, chr(1)) > 0`).join(" OR ");

/**
 * Creates or migrates the tables of prefix `p`, one version a transaction, under an advisory lock (instances starting
 * together migrate once).
 */
export async function migrate(pool: Pool, prefix: string): Promise<void> {
  const client = await checkout(pool);
  try {
    // Instances starting together migrate one at a time.
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [`${prefix}migrate`]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${prefix}schema (version integer NOT NULL)`);
    const row = (await client.query(`SELECT version FROM ${prefix}schema`)).rows[0] as { version: number } | undefined;
    const version = row?.version ?? 0;
    if (version > SCHEMA_VERSION) {
      throw new CtxloomError(
        "STORE_CORRUPT",
        `The database's ctxloom tables (${prefix}*) are at schema version ${version}, newer than this release's ` +
          `${SCHEMA_VERSION}; upgrade ctxloom.`,
      );
    }
    const steps = migrations(prefix);
    for (let v = version; v < SCHEMA_VERSION; v++) {
      await client.query("BEGIN");
      for (const statement of steps[v]!) await client.query(statement);
      await client.query(
        row || v > version
          ? `UPDATE ${prefix}schema SET version = $1`
          : `INSERT INTO ${prefix}schema (version) VALUES ($1)`,
        [v + 1],
      );
      await client.query("COMMIT");
    }
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`${prefix}migrate`]).catch(() => undefined);
    checkin(client);
  }
}
