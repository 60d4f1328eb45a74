// The Durable Object store's schema history before the kit: versions 1 and 2 laid the tables
// out their own way (chats and messages keyed by user and chat id strings, codes as text,
// one version row). Version 3 moves them into the kit's schema (sql-schema.ts), the SQLite
// file's: the old tables are renamed, the kit's made, the rows copied over with their codes,
// and the old tables dropped, in the one transaction the migration runs in.
import { kitV3Sql, type SchemaNames } from "./sql-schema.js";
import type { SqlConnection } from "./sql-connection.js";

/** Version 2's step as released (version 1 made tables the kit's schema now makes whole); never edited. */
const V2 = (p: string): string[] => [
  // The key an append was made with, unique per chat: a retry finds its message instead of adding it twice.
  `ALTER TABLE ${p}messages ADD COLUMN key TEXT`,
  `CREATE UNIQUE INDEX ${p}messages_key ON ${p}messages (user_id, chat_id, key) WHERE key IS NOT NULL`,
];

/** A text code as the kit's integer (-1 for a text ctxloom never wrote: reading the row then reports it). */
const code = (column: string, names: readonly string[]) =>
  `CASE ${column} ${names.map((name, i) => `WHEN '${name}' THEN ${i}`).join(" ")} ELSE -1 END`;

/** Version 2 to 3: the tables of versions 1 and 2 into the kit's, rows and all. */
function intoKit(p: string, names: SchemaNames): string[] {
  return [
    ...["chats", "messages", "embeddings"].map((t) => `ALTER TABLE ${p}${t} RENAME TO ${p}${t}_v2`),
    `DROP INDEX ${p}chats_user`,
    `DROP INDEX ${p}messages_key`,
    `DROP TABLE ${names.versions}`,
    kitV3Sql(names),
    `INSERT INTO ${names.versions} (version, applied) VALUES (3, ${Date.now()})`,
    `INSERT INTO ${p}users (id, created) SELECT user_id, min(created_at) FROM ${p}chats_v2 GROUP BY user_id`,
    `INSERT INTO ${p}chats (user, id, title, model, system, options, head, created, updated, message_count)
      SELECT user_id, id, title, model, system, options, head, created_at, updated_at, message_count FROM ${p}chats_v2 ORDER BY created_at, user_id, id`,
    `INSERT INTO ${p}messages (chat, id, parent, role, priority, tokens, kind, created, name, tool_call_id, tool_calls, content, covers_first, covers_last, parts, key)
      SELECT c.key, m.id, m.parent, ${code("m.role", ["system", "user", "assistant", "tool"])}, ${code("m.priority", ["low", "normal", "high", "critical"])},
        m.tokens, ${code("m.kind", ["message", "summary"])}, m.created_at, m.name, m.tool_call_id, m.tool_calls, m.content, m.covers_first, m.covers_last,
        m.parts, m.key
      FROM ${p}messages_v2 m JOIN ${p}chats c ON c.user = m.user_id AND c.id = m.chat_id`,
    `INSERT INTO ${p}embeddings (chat, message, embedder, dimension, vector)
      SELECT c.key, e.message_id, e.embedder, e.dimension, e.vector FROM ${p}embeddings_v2 e JOIN ${p}chats c ON c.user = e.user_id AND c.id = e.chat_id`,
    ...["chats", "messages", "embeddings"].map((t) => `DROP TABLE ${p}${t}_v2`),
  ];
}

/**
 * Brings a Durable Object's tables from version `from` (1 or 2, as released) to the kit's
 * schema; run inside the migration's transaction. Version 1 and 2 kept one row in their
 * version table; version 3 replaces it with the kit's (a row per version), whose first row
 * an older release reads as a newer version, and refuses.
 */
export function migrateReleased(db: SqlConnection, names: SchemaNames, from: number): void {
  const p = names.prefix;
  if (from < 2) for (const statement of V2(p)) db.exec(statement);
  for (const statement of intoKit(p, names)) db.exec(statement);
}
