// Rows of the PostgreSQL store and the values written for them. PostgreSQL's text holds every
// character but U+0000, so texts and ids cross with U+0000 as U+0001 "0" and U+0001 as U+0001
// "1": every string round-trips, and one that holds neither (nearly all) is stored as it is.
// JSON columns are `json`, which keeps a "\u0000" escape (jsonb refuses it).
import type { Message } from "../message.js";
import type { ChatRecord } from "./types.js";

const SOH = "\u0001";

/** A string as a text column holds it (see above). */
export function toText(s: string): string {
  return s.indexOf("\u0000") < 0 && s.indexOf(SOH) < 0 ? s : s.replace(/[\u0000\u0001]/g, (c) => (c === SOH ? "\u00011" : "\u00010"));
}

/** A text column's value as the string it stands for. */
export function fromText(s: string): string {
  return s.indexOf(SOH) < 0 ? s : s.replace(/\u0001([01])/g, (_, d: string) => (d === "0" ? "\u0000" : SOH));
}

const maybeText = (s: string | null | undefined): string | null => (s === undefined || s === null ? null : toText(s));
const maybeFrom = (s: string | null): string | null => (s === null ? null : fromText(s));

/** A chats row as pg returns it. */
interface ChatRow {
  id: string;
  user_id: string;
  title: string;
  model: string;
  system: string | null;
  options: ChatRecord["options"];
  head: number | null;
  message_count: number;
  created_at: number;
  updated_at: number;
}

/** A messages row as pg returns it (json columns parsed). */
interface MessageRow {
  id: number;
  parent: number | null;
  role: Message["role"];
  content: string;
  priority: Message["priority"];
  tokens: number;
  name: string | null;
  tool_calls: Message["toolCalls"] | null;
  tool_call_id: string | null;
  kind: Message["kind"];
  covers_first: number | null;
  covers_last: number | null;
  parts: Message["parts"] | null;
  created_at: number;
}

export function chatFromRow(row: ChatRow): ChatRecord {
  return {
    id: fromText(row.id), userId: fromText(row.user_id), title: fromText(row.title), model: fromText(row.model), system: maybeFrom(row.system),
    options: row.options ?? {}, head: row.head, messageCount: row.message_count, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

/** The values of createChat's statement, in its order (CHAT_COLUMNS). */
export function chatValues(chat: ChatRecord): unknown[] {
  return [
    toText(chat.id), toText(chat.userId), toText(chat.title), toText(chat.model), maybeText(chat.system), JSON.stringify(chat.options ?? {}),
    chat.head, chat.messageCount, chat.createdAt, chat.updatedAt,
  ];
}

/** A message's values in the order of MESSAGE_COLUMNS (id ... created_at). */
export function messageValues(m: Message): unknown[] {
  return [
    m.id, m.parentId, m.role, toText(m.content), m.priority, m.tokens, maybeText(m.name), m.toolCalls ? JSON.stringify(m.toolCalls) : null,
    maybeText(m.toolCallId), m.kind, m.covers?.first ?? null, m.covers?.last ?? null, m.parts ? JSON.stringify(m.parts) : null, m.createdAt,
  ];
}

/** A Message from its row; the Chat validates it whole when it restores the chat. */
export function messageFromRow(row: MessageRow): Message {
  const m: Message = {
    id: row.id, parentId: row.parent, role: row.role, content: fromText(row.content), priority: row.priority, tokens: row.tokens,
    createdAt: row.created_at, kind: row.kind,
  };
  if (row.name !== null) m.name = fromText(row.name);
  if (row.tool_calls !== null) m.toolCalls = row.tool_calls;
  if (row.tool_call_id !== null) m.toolCallId = fromText(row.tool_call_id);
  if (row.covers_first !== null && row.covers_last !== null) m.covers = { first: row.covers_first, last: row.covers_last };
  if (row.parts !== null && row.parts !== undefined) m.parts = row.parts;
  return m;
}

/** f32 little-endian bytes of a vector. */
export function vectorToBytes(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

/** A vector from its f32 little-endian bytes (copied: the buffer may be shared and unaligned). */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength >> 2);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}
