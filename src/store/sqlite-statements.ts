// Every statement of the SQLite store, prepared once per connection and parameterized, and
// the conversions between rows and records. Reads of messages use raw rows (arrays, no
// object per row from the driver) and parse JSON only where a column is not null.
import { PRIORITIES, ROLES } from "../engine/types.js";
import type { Message, ToolCall } from "../tree/message.js";
import type { SqliteDatabase, SqliteStatement } from "./sqlite-driver.js";
import { corrupt } from "./sqlite-errors.js";
import type { ChatOptions, ChatRecord } from "./types.js";

const CHAT_COLUMNS = "key, user, id, title, model, system, options, head, created, updated, message_count";
const MESSAGE_COLUMNS =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, created, parts";

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
      `INSERT INTO messages (chat, ${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    messages: s(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE chat = ? AND id >= ? ORDER BY id`).raw(),
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
  const rich = typeof m.content !== "string"; // room for content parts: kept as JSON in `parts`
  return [
    m.id, m.parentId, ROLES.indexOf(m.role), rich ? "" : m.content, PRIORITIES.indexOf(m.priority), m.tokens,
    m.name ?? null, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.kind === "summary" ? 1 : 0,
    m.covers ? m.covers.first : null, m.covers ? m.covers.last : null, m.createdAt, rich ? JSON.stringify(m.content) : null,
  ];
}

type MessageRow = [
  number, number | null, number, string, number, number, string | null, string | null, string | null, number,
  number | null, number | null, number, string | null,
];

/** Messages from raw rows of the `messages` statement; STORE_CORRUPT for a code or JSON ctxloom cannot read. */
export function messagesOf(rows: unknown[], path: string, chatId: string): Message[] {
  const out = new Array<Message>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as MessageRow;
    const role = ROLES[r[2]];
    const priority = PRIORITIES[r[4]];
    if (role === undefined || priority === undefined || (r[9] !== 0 && r[9] !== 1)) {
      throw corrupt(path, `chat ${chatId}'s message ${r[0]} has an unknown role, priority or kind code (${r[2]}, ${r[4]}, ${r[9]})`);
    }
    const m: Message = {
      id: r[0], parentId: r[1], role, content: r[3], priority, tokens: r[5], createdAt: r[12], kind: r[9] === 1 ? "summary" : "message",
    };
    if (r[6] !== null) m.name = r[6];
    if (r[7] !== null) m.toolCalls = parse<ToolCall[]>(r[7], path, `chat ${chatId}'s message ${r[0]} tool calls`);
    if (r[8] !== null) m.toolCallId = r[8];
    if (r[10] !== null && r[11] !== null) m.covers = { first: r[10], last: r[11] };
    if (r[13] !== null) m.content = parse<string>(r[13], path, `chat ${chatId}'s message ${r[0]} content parts`);
    out[i] = m;
  }
  return out;
}

function parse<T>(json: string, path: string, what: string): T {
  try {
    return JSON.parse(json) as T;
  } catch (cause) {
    throw corrupt(path, `${what} are not valid JSON`, cause);
  }
}
