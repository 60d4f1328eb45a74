// Every statement of the SQLite-dialect stores (better-sqlite3's files and Durable Objects), by
// its text, for tables named with a prefix (sql-schema.ts). Parameterized; each connection
// prepares a text once. Reads of messages return the row codec's MessageRow (sql-rows.ts).
import { CHAT_READ, CHAT_WRITE, MESSAGE_WRITE } from "./sql-rows.js";
import { RECORD_WRITE } from "./memory-rows.js";

/**
 * The three codes of a message as one integer, role | priority << 2 | kind << 4, or -1 when
 * one is out of range (the row codec then reports the row).
 */
export const CODES_READ =
  "CASE WHEN role BETWEEN 0 AND 3 AND priority BETWEEN 0 AND 3 AND kind BETWEEN 0 AND 1 THEN role + (priority << 2) " +
  "+ (kind << 4) ELSE -1 END";
export const EXTRAS_COLUMNS = "name, tool_calls, tool_call_id, covers_first, covers_last, parts";
export const NO_EXTRAS =
  "name IS NULL AND tool_calls IS NULL AND tool_call_id IS NULL AND covers_first IS NULL AND parts IS NULL";
/** A MessageRow (sql-rows.ts). */
export const MESSAGE_READ = `id, parent, ${CODES_READ}, tokens, created, content, ${EXTRAS_COLUMNS}`;

/** The list's order (Store.listChats). */
const CHAT_ORDER = "updated DESC, created DESC, id DESC";

export type Statements = ReturnType<typeof sqlStatements>;

/** The statements over tables named `${p}chats`, `${p}messages`, ... */
export function sqlStatements(p: string) {
  const [users, chats, messages, embeddings, memory] = [
    `${p}users`,
    `${p}chats`,
    `${p}messages`,
    `${p}embeddings`,
    `${p}memory`,
  ];
  return {
    addUser: `INSERT OR IGNORE INTO ${users} (id, created) VALUES (?, ?)`,
    addChat: `INSERT INTO ${chats} (${CHAT_WRITE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    chat: `SELECT ${CHAT_READ} FROM ${chats} WHERE user = ? AND id = ?`,
    chatState: `SELECT key, message_count, head, updated FROM ${chats} WHERE user = ? AND id = ?`,
    chats: `SELECT ${CHAT_READ} FROM ${chats} WHERE user = ? ORDER BY ${CHAT_ORDER}`,
    // A page of the list (chats.page({ limit, after })): the index on (user, updated, created) serves both.
    chatsFirst: `SELECT ${CHAT_READ} FROM ${chats} WHERE user = ? ORDER BY ${CHAT_ORDER} LIMIT ?`,
    chatsAfter:
      `SELECT ${CHAT_READ} FROM ${chats} WHERE user = ? AND (updated, created, id) < (?, ?, ?) ORDER BY ` +
      `${CHAT_ORDER} LIMIT ?`,
    saveChatState: `UPDATE ${chats} SET message_count = ?, head = ?, updated = ? WHERE key = ?`,
    deleteChat: `DELETE FROM ${chats} WHERE key = ?`,
    addMessage:
      `INSERT INTO ${messages} (chat, ${MESSAGE_WRITE}, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ` +
      `?, ?, ?, ?)`,
    messages: `SELECT ${MESSAGE_READ} FROM ${messages} WHERE chat = ? AND id >= ? ORDER BY id`,
    messageByKey: `SELECT ${MESSAGE_READ} FROM ${messages} WHERE chat = ? AND key = ?`,
    /** The numbers and optional fields of a range of ids, as one row of JSON arrays (sql-load.ts). */
    messageChunk:
      `SELECT json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), ` +
      `json_group_array(tokens), ` +
      `json_group_array(created), json_group_array(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE ` +
      `json_array(${EXTRAS_COLUMNS}) END) ` +
      `FROM ${messages} WHERE chat = ? AND id >= ? AND id < ?`,
    contents: `SELECT content FROM ${messages} WHERE chat = ? AND id >= ? AND id < ? ORDER BY id`,
    // The same chunk with its texts as one BLOB of UTF-8 (no string made), their byte lengths,
    // and how many contents are not TEXT (then the row-per-message read decides).
    // The optional fields come only for the rows that have one, with their id first.
    textChunk:
      `SELECT json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), ` +
      `json_group_array(tokens), ` +
      `json_group_array(created), '[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, ` +
      `${EXTRAS_COLUMNS}) END) || ']', ` +
      `json_group_array(octet_length(content)), CAST(group_concat(content, '') AS BLOB), sum(typeof(content) <> ` +
      `'text') ` +
      `FROM ${messages} WHERE chat = ? AND id >= ? AND id < ?`,
    messageFrom: `SELECT 1 FROM ${messages} WHERE chat = ? AND id >= ? LIMIT 1`,
    deleteMessages: `DELETE FROM ${messages} WHERE chat = ?`,
    deleteNumbers: `DELETE FROM ${p}message_numbers WHERE chat = ?`,
    // chat.redact: the one statement that changes a stored message.
    redact:
      `UPDATE ${messages} SET content = ?, parts = NULL, tool_calls = coalesce(?, tool_calls), tokens = ? ` +
      `WHERE chat = ? AND id = ?`,
    deleteMessageEmbeddings: `DELETE FROM ${embeddings} WHERE chat = ? AND message = ?`,
    putEmbedding:
      `INSERT OR REPLACE INTO ${embeddings} (chat, message, embedder, dimension, vector) VALUES (?, ?, ` + `?, ?, ?)`,
    embeddings:
      `SELECT message, vector FROM ${embeddings} WHERE chat = ? AND embedder = ? AND dimension = ? ORDER ` +
      `BY message`,
    deleteEmbeddings: `DELETE FROM ${embeddings} WHERE chat = ?`,
    deleteUserEmbeddings: `DELETE FROM ${embeddings} WHERE chat IN (SELECT key FROM ${chats} WHERE user = ?)`,
    // Working memories (sql-memory.ts): a memory's newest revision is the last key of its range.
    memoryRevision: `SELECT coalesce(max(revision), 0) FROM ${memory} WHERE user = ? AND scope = ?`,
    memoryNewest: `SELECT revision, at FROM ${memory} WHERE user = ? AND scope = ? ORDER BY revision DESC LIMIT 1`,
    // Each path's newest record: SQLite gives a bare column the values of the row whose max() it returns.
    memoryLatest:
      `SELECT max(revision), path, kind, author, chat, at, json_schema, content FROM ${memory} WHERE ` +
      `user = ? AND scope = ? GROUP BY path ORDER BY path`,
    memoryHistory:
      `SELECT ${RECORD_WRITE} FROM ${memory} WHERE user = ? AND scope = ? AND revision > ? AND ` +
      `revision <= ? ORDER BY revision, path LIMIT ?`,
    memoryPathHistory:
      `SELECT ${RECORD_WRITE} FROM ${memory} WHERE user = ? AND scope = ? AND path = ? AND ` +
      `revision > ? AND revision <= ? ORDER BY revision LIMIT ?`,
    addMemory: `INSERT INTO ${memory} (user, scope, ${RECORD_WRITE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    memoryHeld: `SELECT 1 FROM ${memory} WHERE user = ? AND scope = ? LIMIT 1`,
    userMemoryHeld: `SELECT 1 FROM ${memory} WHERE user = ? LIMIT 1`,
    deleteMemory: `DELETE FROM ${memory} WHERE user = ? AND scope = ?`,
    deleteUserMemory: `DELETE FROM ${memory} WHERE user = ?`,
  };
}
