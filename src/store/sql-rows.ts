// The one row codec of the SQL stores (SQLite, Durable Objects, PostgreSQL): the values a
// chat record and a message are written as, and the records made back from rows read as
// arrays. Role, priority and kind cross as codes (role 0 system, 1 user, 2 assistant, 3 tool;
// priority 0 low to 3 critical; kind 0 message, 1 summary), read back as one integer
// role | priority << 2 | kind << 4 (-1 when one is out of range); JSON fields cross as text.
// A store whose text columns cannot hold every string (PostgreSQL's, no U+0000) gives its
// own TextColumns; the others keep strings as they are.
import type { CtxloomError } from "../errors.js";
import { PRIORITIES, ROLES, type ContentPart, type Message, type ToolCall } from "../message.js";
import type { ChatOptions, ChatRecord } from "./types.js";

/** How a store's text columns hold a string. */
export interface TextColumns {
  put(s: string): string;
  get(s: string): string;
}

/** Strings as they are (SQLite's text holds every string). */
export const PLAIN: TextColumns = { put: (s) => s, get: (s) => s };

/** The store's STORE_CORRUPT for a row ctxloom cannot read back. */
export type Corrupt = (what: string, cause?: unknown) => CtxloomError;

/** The chat columns an insert writes, in chatValues' order. */
export const CHAT_WRITE = "user, id, title, model, system, options, head, created, updated, message_count";
/** The chat columns a read returns, in ChatRow's order. */
export const CHAT_READ = `key, ${CHAT_WRITE}`;

/** A chats row as read: the chat's key in its store (0 where it has none), then CHAT_WRITE. */
export type ChatRow = [
  key: number,
  user: string,
  id: string,
  title: string,
  model: string,
  system: string | null,
  options: string,
  head: number | null,
  created: number,
  updated: number,
  messageCount: number,
];

/** A chat record's values, in CHAT_WRITE's order. */
export function chatValues(c: ChatRecord, text = PLAIN): unknown[] {
  return [
    text.put(c.userId),
    text.put(c.id),
    text.put(c.title),
    text.put(c.model),
    c.system === null ? null : text.put(c.system),
    JSON.stringify(c.options ?? {}),
    c.head,
    c.createdAt,
    c.updatedAt,
    c.messageCount,
  ];
}

export function chatRecord(row: ChatRow, corrupt: Corrupt, text = PLAIN): ChatRecord {
  const [, userId, id, title, model, system, options, head, createdAt, updatedAt, messageCount] = row;
  return {
    id: text.get(id),
    userId: text.get(userId),
    title: text.get(title),
    model: text.get(model),
    system: system === null ? null : text.get(system),
    createdAt,
    updatedAt,
    messageCount,
    head,
    options: parse<ChatOptions>(options, corrupt, `chat ${id}'s options`),
  };
}

/** The message columns an insert writes (after the chat's), in messageValues' order. */
export const MESSAGE_WRITE =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, " +
  "created, parts";

/** A message's values, in MESSAGE_WRITE's order. */
export function messageValues(m: Message, text = PLAIN): unknown[] {
  return [
    m.id,
    m.parentId,
    ROLES.indexOf(m.role),
    text.put(m.content),
    PRIORITIES.indexOf(m.priority),
    m.tokens,
    m.name === undefined ? null : text.put(m.name),
    m.toolCalls ? JSON.stringify(m.toolCalls) : null,
    m.toolCallId === undefined ? null : text.put(m.toolCallId),
    m.kind === "summary" ? 1 : 0,
    m.covers ? m.covers.first : null,
    m.covers ? m.covers.last : null,
    m.createdAt,
    m.parts ? JSON.stringify(m.parts) : null,
  ];
}

/** A message's optional fields as read, in this order (null where unset). */
export type Extras = [
  name: string | null,
  toolCalls: string | null,
  toolCallId: string | null,
  first: number | null,
  last: number | null,
  parts: string | null,
];
/** A messages row as read: these six values, then the Extras. */
export type MessageRow = [
  id: number,
  parent: number | null,
  codes: number,
  tokens: number,
  created: number,
  content: string,
  ...extras: Extras,
];

/** Messages from rows read as MessageRow; STORE_CORRUPT for a code or JSON ctxloom cannot read. */
export function messagesOf(rows: readonly unknown[], corrupt: Corrupt, chatId: string, text = PLAIN): Message[] {
  const out = new Array<Message>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = messageOf(rows[i] as MessageRow, corrupt, chatId, text);
  return out;
}

export function messageOf(r: MessageRow, corrupt: Corrupt, chatId: string, text = PLAIN): Message {
  const codes = r[2];
  if (codes < 0) throw unknownCode(corrupt, chatId, r[0]);
  const m: Message = {
    id: r[0],
    parentId: r[1],
    role: ROLES[codes & 3]!,
    content: text.get(r[5]),
    priority: PRIORITIES[(codes >> 2) & 3]!,
    tokens: r[3],
    createdAt: r[4],
    kind: codes >> 4 === 1 ? "summary" : "message",
  };
  if (r[6] !== null || r[7] !== null || r[8] !== null || r[9] !== null || r[11] !== null) {
    addExtras(m, [r[6], r[7], r[8], r[9], r[10], r[11]], corrupt, chatId, text);
  }
  return m;
}

export function addExtras(
  m: Message,
  [name, toolCalls, toolCallId, first, last, parts]: Extras,
  corrupt: Corrupt,
  chatId: string,
  text = PLAIN,
): void {
  if (name !== null) m.name = text.get(name);
  if (toolCalls !== null)
    m.toolCalls = parse<ToolCall[]>(toolCalls, corrupt, `chat ${chatId}'s message ${m.id} tool calls`);
  if (toolCallId !== null) m.toolCallId = text.get(toolCallId);
  if (first !== null && last !== null) m.covers = { first, last };
  if (parts !== null) m.parts = parse<ContentPart[]>(parts, corrupt, `chat ${chatId}'s message ${m.id} content parts`);
}

export const unknownCode = (corrupt: Corrupt, chatId: string, id: number): CtxloomError =>
  corrupt(`chat ${chatId}'s message ${id} has an unknown role, priority or kind code`);

function parse<T>(json: string, corrupt: Corrupt, what: string): T {
  try {
    return JSON.parse(json) as T;
  } catch (cause) {
    throw corrupt(`${what} are not valid JSON`, cause);
  }
}

/** Bytes a row of these values takes at most: UTF-8 texts, bytes, 9 per number (SQLite's record), and its header. */
export function rowBytes(values: readonly unknown[]): number {
  let n = 16 + values.length * 9;
  for (const v of values) {
    if (typeof v === "string") n += utf8Length(v);
    else if (v instanceof Uint8Array) n += v.byteLength;
  }
  return n;
}

/** The UTF-8 length of a string (a lone surrogate counted as SQLite writes it, 3 bytes), without encoding it. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 4 bytes for 2 units
      i++;
    } else n += 2;
  }
  return n;
}
