// The statements D1 runs beside the kit's (sql-statements.ts), on the same tables: D1 has no
// interactive transaction, so every write that depends on what the database holds says its
// condition in SQL, and a batch (one transaction) reads back what it did.
import { CHAT_READ, MESSAGE_WRITE } from "./sql-rows.js";
import { CODES_READ, EXTRAS_COLUMNS } from "./sql-statements.js";

/**
 * MESSAGE_READ (sql-statements.ts) of the messages table aliased `m`, each column named apart (a batch answers rows as
 * objects).
 */
const M_READ = [
  "m.id",
  "m.parent",
  CODES_READ.replace(/\b(role|priority|kind)\b/g, "m.$1"),
  "m.tokens",
  "m.created",
  "m.content",
  ...EXTRAS_COLUMNS.split(", ").map((c) => `m.${c}`),
]
  .map((c, i) => `${c} AS m${i}`)
  .join(", ");
/** The chat's key, by user and id (`?, ?`). */
const KEY = (p: string) => `(SELECT key FROM ${p}chats WHERE user = ? AND id = ?)`;
const QS = (n: number) => Array.from({ length: n }, () => "?").join(", ");
/** MESSAGE_WRITE's values from a JSON array's elements (json_each's `j.value`). */
const FROM_JSON = MESSAGE_WRITE.split(", ")
  .map((_, i) => `j.value ->> ${i}`)
  .join(", ");

export type D1Statements = ReturnType<typeof d1Statements>;

/** The statements over tables named `${p}chats`, `${p}messages`, ... */
export function d1Statements(p: string) {
  const [chats, messages, embeddings] = [`${p}chats`, `${p}messages`, `${p}embeddings`];
  return {
    chatOf: `SELECT ${CHAT_READ} FROM ${chats} WHERE user = ? AND id = ?`,
    messagesOf: `SELECT ${M_READ} FROM ${messages} m WHERE m.chat = ${KEY(p)} AND m.id >= ? AND m.id < ? ORDER BY m.id`,
    // The conditional append, in one batch: the row goes in only when the chat holds exactly the
    // message's id messages (and no row holds its key: OR IGNORE), the chat's count moves only when
    // that row is there, and the batch reads back the count and the message the key names.
    append: `INSERT OR IGNORE INTO ${messages} (chat, ${MESSAGE_WRITE}, key)
      SELECT key, ${QS(15)} FROM ${chats} WHERE user = ? AND id = ? AND message_count = ?`,
    appended: `UPDATE ${chats} SET message_count = message_count + 1, head = ?, updated = ?
      WHERE user = ? AND id = ? AND message_count = ? AND EXISTS (SELECT 1 FROM ${messages} m WHERE m.chat = ${chats}.key AND m.id = ?)`,
    outcome:
      `SELECT c.message_count AS size, ${M_READ} FROM ${chats} c LEFT JOIN ${messages} m ON m.chat = c.key ` +
      `AND m.key = ? WHERE c.user = ? AND c.id = ?`,
    // A chat's messages from a JSON array of MESSAGE_WRITE's values (an import: one statement per
    // chunk, not one per message).
    importMessages:
      `INSERT INTO ${messages} (chat, ${MESSAGE_WRITE}) SELECT ${KEY(p)}, ${FROM_JSON} FROM ` + `json_each(?) j`,
    size: `SELECT message_count, head FROM ${chats} WHERE user = ? AND id = ?`,
    // A head among the chat's messages, compared-and-set when the fifth value is 1.
    setHead:
      `UPDATE ${chats} SET head = ?1, updated = ?2 WHERE user = ?3 AND id = ?4 AND (?1 IS NULL OR ?1 < ` +
      `message_count) AND (?5 = 0 OR head IS ?6)`,
    deleteEmbeddings: `DELETE FROM ${embeddings} WHERE chat = ${KEY(p)}`,
    deleteMessages: `DELETE FROM ${messages} WHERE chat = ${KEY(p)}`,
    // A chat's chunks of numbers (sql-numbers.ts): D1 writes none, and keeps those it holds exact.
    deleteNumbers: `DELETE FROM ${p}message_numbers WHERE chat = ${KEY(p)}`,
    deleteChat: `DELETE FROM ${chats} WHERE user = ? AND id = ?`,
    deleteChatMemory: `DELETE FROM ${p}memory WHERE user = ? AND scope = ?`,
    // chat.redact: each message rewritten only when every id named (the greatest: the third
    // value) is the chat's; its vectors go with the same condition.
    redact: `UPDATE ${messages} SET content = ?, parts = NULL, tool_calls = coalesce(?, tool_calls), tokens = ?
      WHERE chat = (SELECT key FROM ${chats} WHERE user = ? AND id = ? AND message_count > ?) AND id = ?`,
    redactVectors:
      `DELETE FROM ${embeddings} WHERE chat = (SELECT key FROM ${chats} WHERE user = ? AND id = ? AND ` +
      `message_count > ?) AND message = ?`,
    redactNumbers:
      `DELETE FROM ${p}message_numbers WHERE chat = (SELECT key FROM ${chats} WHERE user = ? AND id = ` +
      `? AND message_count > ?) AND chunk = ?`,
    // Vectors from a JSON array of [message, hex]: all of them only when every message (the
    // greatest: the fifth value) is the chat's.
    putEmbeddings: `INSERT OR REPLACE INTO ${embeddings} (chat, message, embedder, dimension, vector)
      SELECT c.key, j.value ->> 0, ?, ?, unhex(j.value ->> 1) FROM ${chats} c, json_each(?) j WHERE c.user = ? AND c.id = ? AND c.message_count > ?`,
    embeddings:
      `SELECT message, hex(vector) FROM ${embeddings} WHERE chat = ${KEY(p)} AND embedder = ? AND ` +
      `dimension = ? ORDER BY message`,
    clearChatEmbeddings: `DELETE FROM ${embeddings} WHERE chat = ${KEY(p)}`,
    eraseCounts: `SELECT count(*), coalesce(sum(message_count), 0) FROM ${chats} WHERE user = ?`,
    // A prune's batch: from the user ?1 on, the next ?2 users (an index seek each), their chats
    // past the newest ?3 or idle since before ?4, at most ?2 of them, the first users' first; and
    // the user after those looked at (where the next batch starts when this one is not full).
    pruneCandidates: `WITH RECURSIVE u (user, n) AS (
        SELECT (SELECT user FROM ${chats} WHERE user >= ?1 ORDER BY user LIMIT 1), 1
        UNION ALL
        SELECT (SELECT user FROM ${chats} WHERE user > u.user ORDER BY user LIMIT 1), n + 1 FROM u WHERE u.user IS NOT NULL AND n <= ?2),
      ranked AS (
        SELECT key, user, id, updated, message_count,
          row_number() OVER (PARTITION BY user ORDER BY updated DESC, created DESC, id DESC) AS rank
        FROM ${chats} WHERE user IN (SELECT user FROM u WHERE n <= ?2))
      SELECT key, user, id, updated, message_count FROM ranked
      WHERE (?3 IS NOT NULL AND rank > ?3) OR (?4 IS NOT NULL AND updated < ?4)
      ORDER BY user, updated LIMIT ?2`,
    pruneNext: `WITH RECURSIVE u (user, n) AS (
        SELECT (SELECT user FROM ${chats} WHERE user >= ?1 ORDER BY user LIMIT 1), 1
        UNION ALL
        SELECT (SELECT user FROM ${chats} WHERE user > u.user ORDER BY user LIMIT 1), n + 1 FROM u WHERE u.user IS NOT NULL AND n <= ?2)
      SELECT user FROM u WHERE n = ?2 + 1 AND user IS NOT NULL`,
    // The candidates ([key, updated] in JSON) whose update time is still the one read: their rows go.
    // (each chat's own memory: its rows name the chat by user and id)
    pruneMemory:
      `DELETE FROM ${p}memory WHERE (user, scope) IN (SELECT c.user, c.id FROM ${chats} c, json_each(?) ` +
      `j WHERE c.key = j.value ->> 0 AND c.updated = j.value ->> 1)`,
    pruneEmbeddings:
      `DELETE FROM ${embeddings} WHERE chat IN (SELECT c.key FROM ${chats} c, json_each(?) j WHERE ` +
      `c.key = j.value ->> 0 AND c.updated = j.value ->> 1)`,
    pruneMessages:
      `DELETE FROM ${messages} WHERE chat IN (SELECT c.key FROM ${chats} c, json_each(?) j WHERE c.key ` +
      `= j.value ->> 0 AND c.updated = j.value ->> 1)`,
    pruneNumbers:
      `DELETE FROM ${p}message_numbers WHERE chat IN (SELECT c.key FROM ${chats} c, json_each(?) j ` +
      `WHERE c.key = j.value ->> 0 AND c.updated = j.value ->> 1)`,
    pruneChats: `DELETE FROM ${chats} WHERE key IN (SELECT c.key FROM ${chats} c, json_each(?) j WHERE c.key = j.value ->> 0 AND c.updated = j.value ->> 1)
      RETURNING user, id, updated, message_count`,
  };
}
