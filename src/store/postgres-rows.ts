import type { Message } from "../message.js";
import type { ChatRecord } from "./types.js";

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

/** A messages row as pg returns it (jsonb columns parsed). */
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
    id: row.id, userId: row.user_id, title: row.title, model: row.model, system: row.system, options: row.options ?? {},
    head: row.head, messageCount: row.message_count, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

/** A Message from its row; the Chat validates it whole when it restores the chat. */
export function messageFromRow(row: MessageRow): Message {
  const m: Message = {
    id: row.id, parentId: row.parent, role: row.role, content: row.content, priority: row.priority, tokens: row.tokens,
    createdAt: row.created_at, kind: row.kind,
  };
  if (row.name !== null) m.name = row.name;
  if (row.tool_calls !== null) m.toolCalls = row.tool_calls;
  if (row.tool_call_id !== null) m.toolCallId = row.tool_call_id;
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
