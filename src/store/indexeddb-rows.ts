// The browser store's rows (indexeddb.ts): a chat record and a message as IndexedDB keeps them
// (structured clones: strings, numbers and arrays as they are), and back.
import type { Message } from "../message.js";
import type { ChatRecord } from "./types.js";

/** A chat's row: its record, keyed by [user, id]. */
export interface ChatRow {
  user: string;
  id: string;
  title: string;
  model: string;
  system: string | null;
  options: ChatRecord["options"];
  head: number | null;
  created: number;
  updated: number;
  count: number;
}

/** A message's row: its fields, keyed by [user, chat, id], with the key it was appended under. */
export type MessageRow = Omit<Message, "parentId" | "createdAt"> & {
  user: string;
  chat: string;
  parent: number | null;
  created: number;
  key?: string;
};

export const rowOf = (c: ChatRecord): ChatRow => ({
  user: c.userId,
  id: c.id,
  title: c.title,
  model: c.model,
  system: c.system,
  options: c.options ?? {},
  head: c.head,
  created: c.createdAt,
  updated: c.updatedAt,
  count: c.messageCount,
});

export const recordOf = (r: ChatRow): ChatRecord => ({
  id: r.id,
  userId: r.user,
  title: r.title,
  model: r.model,
  system: r.system,
  createdAt: r.created,
  updatedAt: r.updated,
  messageCount: r.count,
  head: r.head,
  options: r.options,
});

export function toMessageRow(userId: string, chatId: string, m: Message, key?: string): MessageRow {
  const row: MessageRow = {
    user: userId,
    chat: chatId,
    id: m.id,
    parent: m.parentId,
    role: m.role,
    content: m.content,
    priority: m.priority,
    tokens: m.tokens,
    created: m.createdAt,
    kind: m.kind,
  };
  if (m.name !== undefined) row.name = m.name;
  if (m.toolCalls !== undefined) row.toolCalls = m.toolCalls;
  if (m.toolCallId !== undefined) row.toolCallId = m.toolCallId;
  if (m.covers !== undefined) row.covers = { first: m.covers.first, last: m.covers.last };
  if (m.parts !== undefined) row.parts = m.parts;
  if (key !== undefined) row.key = key;
  return row;
}

export function fromMessageRow(r: MessageRow): Message {
  const m: Message = {
    id: r.id,
    parentId: r.parent,
    role: r.role,
    content: r.content,
    priority: r.priority,
    tokens: r.tokens,
    createdAt: r.created,
    kind: r.kind,
  };
  if (r.name !== undefined) m.name = r.name;
  if (r.toolCalls !== undefined) m.toolCalls = r.toolCalls;
  if (r.toolCallId !== undefined) m.toolCallId = r.toolCallId;
  if (r.covers !== undefined) m.covers = r.covers;
  if (r.parts !== undefined) m.parts = r.parts;
  return m;
}
