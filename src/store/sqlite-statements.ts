// Every statement of the SQLite store, prepared once per connection and parameterized, and
// the conversions between rows and records. Reads of messages use raw rows (arrays, no
// object per row from the driver) and parse JSON only where a column is not null.
import { PRIORITIES, ROLES } from "../message.js";
import type { ContentPart, Message, ToolCall } from "../message.js";
import type { SqliteDatabase, SqliteStatement } from "./sqlite-driver.js";
import { corrupt } from "./sqlite-errors.js";
import type { ChatOptions, ChatRecord } from "./types.js";

const CHAT_COLUMNS = "key, user, id, title, model, system, options, head, created, updated, message_count";
const MESSAGE_COLUMNS =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, created, parts";
/**
 * What loadChat reads per message: seven values rather than fourteen (the driver's cost is
 * per value). The three codes share one integer (-1 when one is out of range); the optional fields, null on most rows,
 * come as one JSON array only where one of them is set.
 */
const CODES_READ =
  "CASE WHEN role BETWEEN 0 AND 3 AND priority BETWEEN 0 AND 3 AND kind BETWEEN 0 AND 1 THEN role + (priority << 2) + (kind << 4) ELSE -1 END";
const NO_EXTRAS = "name IS NULL AND tool_calls IS NULL AND tool_call_id IS NULL AND covers_first IS NULL AND parts IS NULL";
const EXTRAS_COLUMNS = "name, tool_calls, tool_call_id, covers_first, covers_last, parts";
const EXTRAS_READ = `CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(${EXTRAS_COLUMNS}) END`;
const MESSAGE_READ = `id, parent, ${CODES_READ}, tokens, created, content, ${EXTRAS_READ}`;
/** The same values but the text, for a range of ids, as one row of JSON arrays (see sqlite-load.ts). */
const MESSAGE_CHUNK =
  `json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), json_group_array(tokens), ` +
  `json_group_array(created), json_group_array(${EXTRAS_READ})`;

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: SqliteDatabase) {
  const s = (sql: string): SqliteStatement => db.prepare(sql);
  return {
    begin: s("BEGIN IMMEDIATE"),
    commit: s("COMMIT"),
    rollback: s("ROLLBACK"),
    addUser: s("INSERT OR IGNORE INTO users (id, created) VALUES (?, ?)"),
    addChat: s(`INSERT INTO chats (${CHAT_COLUMNS.replace("key, ", "")}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    chat: s(`SELECT ${CHAT_COLUMNS} FROM chats WHERE user = ? AND id = ?`).raw(),
    chatState: s("SELECT key, message_count, head, updated FROM chats WHERE user = ? AND id = ?").raw(),
    chats: s(`SELECT ${CHAT_COLUMNS} FROM chats WHERE user = ? ORDER BY updated DESC, created DESC`).raw(),
    saveChatState: s("UPDATE chats SET message_count = ?, head = ?, updated = ? WHERE key = ?"),
    deleteChat: s("DELETE FROM chats WHERE key = ?"),
    addMessage: s(
      `INSERT INTO messages (chat, ${MESSAGE_COLUMNS}, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    messages: s(`SELECT ${MESSAGE_READ} FROM messages WHERE chat = ? AND id >= ? ORDER BY id`).raw(),
    messageByKey: s(`SELECT ${MESSAGE_READ} FROM messages WHERE chat = ? AND key = ?`).raw(),
    messageChunk: s(`SELECT ${MESSAGE_CHUNK} FROM messages WHERE chat = ? AND id >= ? AND id < ?`).raw(),
    contents: s("SELECT content FROM messages WHERE chat = ? AND id >= ? AND id < ? ORDER BY id").pluck(),
    // The same chunk with its texts as one BLOB of UTF-8 (no string made), their byte lengths,
    // and how many contents are not TEXT (then the row-per-message read decides).
    // The optional fields come only for the rows that have one, with their id first.
    textChunk: s(
      `SELECT json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), json_group_array(tokens), ` +
        `json_group_array(created), '[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, ${EXTRAS_COLUMNS}) END) || ']', ` +
        `json_group_array(octet_length(content)), CAST(group_concat(content, '') AS BLOB), sum(typeof(content) <> 'text') ` +
        `FROM messages WHERE chat = ? AND id >= ? AND id < ?`,
    ).raw(),
    messageFrom: s("SELECT 1 FROM messages WHERE chat = ? AND id >= ? LIMIT 1").pluck(),
    deleteMessages: s("DELETE FROM messages WHERE chat = ?"),
    putEmbedding: s("INSERT OR REPLACE INTO embeddings (chat, message, embedder, dimension, vector) VALUES (?, ?, ?, ?, ?)"),
    embeddings: s("SELECT message, vector FROM embeddings WHERE chat = ? AND embedder = ? AND dimension = ? ORDER BY message").raw(),
    deleteEmbeddings: s("DELETE FROM embeddings WHERE chat = ?"),
    deleteUserEmbeddings: s("DELETE FROM embeddings WHERE chat IN (SELECT key FROM chats WHERE user = ?)"),
  };
}

/** A chats row, as read by the `chat` and `chats` statements. */
export type ChatRow = [number, string, string, string, string, string | null, string, number | null, number, number, number];

export function chatRecord(row: ChatRow, path: string): ChatRecord {
  const [, userId, id, title, model, system, options, head, createdAt, updatedAt, messageCount] = row;
  return { id, userId, title, model, system, createdAt, updatedAt, messageCount, head, options: parse<ChatOptions>(options, path, `chat ${id}'s options`) };
}

/** The chats row values of a record, in addChat's order. */
export function chatValues(chat: ChatRecord): unknown[] {
  return [chat.userId, chat.id, chat.title, chat.model, chat.system, JSON.stringify(chat.options ?? {}), chat.head, chat.createdAt, chat.updatedAt, chat.messageCount];
}

/** The messages row values of a message (after the chat key), in addMessage's order. */
export function messageValues(m: Message): unknown[] {
  return [
    m.id, m.parentId, ROLES.indexOf(m.role), m.content, PRIORITIES.indexOf(m.priority), m.tokens,
    m.name ?? null, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.kind === "summary" ? 1 : 0,
    m.covers ? m.covers.first : null, m.covers ? m.covers.last : null, m.createdAt, m.parts ? JSON.stringify(m.parts) : null,
  ];
}

type MessageRow = [id: number, parent: number | null, codes: number, tokens: number, created: number, content: string, extras: string | null];
export type Extras = [name: string | null, toolCalls: string | null, toolCallId: string | null, first: number | null, last: number | null, parts: string | null];

/** Messages from raw rows of the `messages` statement; STORE_CORRUPT for a code or JSON ctxloom cannot read. */
export function messagesOf(rows: unknown[], path: string, chatId: string): Message[] {
  const out = new Array<Message>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as MessageRow;
    const codes = r[2];
    const role = ROLES[codes & 3]!;
    const priority = PRIORITIES[(codes >> 2) & 3]!;
    if (codes < 0) throw unknownCode(path, chatId, r[0]);
    const m: Message = {
      id: r[0], parentId: r[1], role, content: r[5], priority, tokens: r[3], createdAt: r[4], kind: codes >> 4 === 1 ? "summary" : "message",
    };
    if (r[6] !== null) addExtras(m, parse<Extras>(r[6], path, `chat ${chatId}'s message ${r[0]} fields`), path, chatId);
    out[i] = m;
  }
  return out;
}

export function addExtras(m: Message, [name, toolCalls, toolCallId, first, last, parts]: Extras, path: string, chatId: string): void {
  if (name !== null) m.name = name;
  if (toolCalls !== null) m.toolCalls = parse<ToolCall[]>(toolCalls, path, `chat ${chatId}'s message ${m.id} tool calls`);
  if (toolCallId !== null) m.toolCallId = toolCallId;
  if (first !== null && last !== null) m.covers = { first, last };
  if (parts !== null) m.parts = parse<ContentPart[]>(parts, path, `chat ${chatId}'s message ${m.id} content parts`);
}

export const unknownCode = (path: string, chatId: string, id: number) =>
  corrupt(path, `chat ${chatId}'s message ${id} has an unknown role, priority or kind code`);

function parse<T>(json: string, path: string, what: string): T {
  try {
    return JSON.parse(json) as T;
  } catch (cause) {
    throw corrupt(path, `${what} are not valid JSON`, cause);
  }
}
