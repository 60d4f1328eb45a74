// The one validation policy of every store (memory, SQLite, PostgreSQL, Durable Objects): each
// Store method checks its arguments with these before it reads or writes, and a bad call
// throws a CtxloomError (INVALID_ARGUMENT, or its specific forms, UNKNOWN_MESSAGE, UNKNOWN_CHAT)
// having changed nothing. A store checks the shape of what it writes, so that what it stores
// reads back; the restore checks the tree's rules (tool units, summaries) when it reads.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { MAX_TOKENS, PRIORITIES, ROLES, type Message } from "../message.js";
import type { ChatRecord } from "./types.js";

export function checkText(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a non-empty string; got ${describe(value)}.`);
  }
  return value;
}

export function checkTime(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be a time in milliseconds since the epoch; got ${describe(value)}.`,
    );
  }
  return value;
}

/** A head: null, or the id of one of the chat's `size` messages. */
export function checkHead(head: unknown, size: number, chatId: string): number | null {
  if (head === null) return null;
  checkInteger(head, "head", 0);
  if ((head as number) >= size) {
    throw new CtxloomError(
      "UNKNOWN_MESSAGE",
      `head ${String(head)} is not a message of chat ${chatId}, which holds ${size} messages.`,
    );
  }
  return head as number;
}

/** UNKNOWN_CHAT: the user has no chat of that id in the store named `store`. */
export const unknownChat = (store: string, userId: string, chatId: string): CtxloomError =>
  new CtxloomError("UNKNOWN_CHAT", `User ${describe(userId)} has no chat ${describe(chatId)} in ${store}.`);

/** CHAT_EXISTS: createChat or importChat of an id the user has already (nothing is written). */
export const chatExists = (store: string, chat: ChatRecord): CtxloomError =>
  new CtxloomError(
    "CHAT_EXISTS",
    `User ${describe(chat.userId)} already has a chat ${describe(chat.id)} in ${store}; open it, or give the new ` +
      `chat another id.`,
  );

export function checkChatRecord(chat: unknown, imported = false): ChatRecord {
  if (chat === null || typeof chat !== "object") {
    throw new CtxloomError("INVALID_ARGUMENT", `createChat takes a chat record; got ${describe(chat)}.`);
  }
  const c = chat as ChatRecord;
  checkText(c.id, "chat.id");
  checkText(c.userId, "chat.userId");
  if (
    typeof c.title !== "string" ||
    typeof c.model !== "string" ||
    (c.system !== null && typeof c.system !== "string")
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "chat.title and chat.model must be strings, and chat.system a string or null.",
    );
  }
  if (c.options === null || typeof c.options !== "object" || Array.isArray(c.options)) {
    throw new CtxloomError("INVALID_ARGUMENT", `chat.options must be an object; got ${describe(c.options)}.`);
  }
  checkTime(c.createdAt, "chat.createdAt");
  checkTime(c.updatedAt, "chat.updatedAt");
  if (imported) {
    checkInteger(c.messageCount, "chat.messageCount", 0);
  } else if (c.messageCount !== 0 || c.head !== null) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "createChat makes an empty chat: messageCount must be 0 and head null; append the messages after.",
    );
  }
  return c;
}

/** The fields a store writes, checked: a message the store would not read back is refused here. */
export function checkMessage(m: unknown): Message {
  if (m === null || typeof m !== "object")
    throw new CtxloomError("INVALID_ARGUMENT", `appendMessage takes a message; got ${describe(m)}.`);
  const msg = m as Message;
  const id = checkInteger(msg.id, "message.id", 0);
  if (msg.parentId !== null) checkInteger(msg.parentId, "message.parentId", 0, id - 1);
  if (!ROLES.includes(msg.role))
    throw new CtxloomError(
      "INVALID_ROLE",
      `message.role must be one of ${ROLES.join(", ")}; got ${describe(msg.role)}.`,
    );
  if (!PRIORITIES.includes(msg.priority)) {
    throw new CtxloomError(
      "INVALID_PRIORITY",
      `message.priority must be one of ${PRIORITIES.join(", ")}; got ${describe(msg.priority)}.`,
    );
  }
  if (typeof msg.content !== "string") {
    throw new CtxloomError(
      "INVALID_CONTENT",
      `message.content must be a string (the parts go in message.parts); got ${describe(msg.content)}.`,
    );
  }
  checkInteger(msg.tokens, "message.tokens", 0, MAX_TOKENS);
  checkTime(msg.createdAt, "message.createdAt");
  if (msg.kind !== "message" && msg.kind !== "summary") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `message.kind must be "message" or "summary"; got ${describe(msg.kind)}.`,
    );
  }
  for (const key of ["name", "toolCallId"] as const) {
    if (msg[key] !== undefined && typeof msg[key] !== "string")
      throw new CtxloomError("INVALID_ARGUMENT", `message.${key} must be a string; got ${describe(msg[key])}.`);
  }
  for (const key of ["toolCalls", "parts"] as const) {
    if (msg[key] !== undefined && !Array.isArray(msg[key]))
      throw new CtxloomError("INVALID_ARGUMENT", `message.${key} must be an array; got ${describe(msg[key])}.`);
  }
  if (msg.covers !== undefined) {
    if (msg.covers === null || typeof msg.covers !== "object")
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `message.covers must be { first, last }; got ${describe(msg.covers)}.`,
      );
    checkInteger(msg.covers.first, "message.covers.first", 0, id - 1);
    checkInteger(msg.covers.last, "message.covers.last", msg.covers.first, id - 1);
  }
  return msg;
}

/**
 * A chat's messages for importChat, checked: ids 0, 1, 2, ... in order, as many as the record says, a head among them.
 */
export function checkImported(chat: ChatRecord, messages: unknown): Message[] {
  if (!Array.isArray(messages))
    throw new CtxloomError("INVALID_ARGUMENT", `importChat takes a list of messages; got ${describe(messages)}.`);
  const rows = messages.map((m, i) => {
    const checked = checkMessage(m);
    if (checked.id !== i)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `importChat: message ${i} has id ${checked.id}; ids must run 0, 1, 2, ... in order.`,
      );
    return checked;
  });
  if (chat.messageCount !== rows.length) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `importChat: the record says ${chat.messageCount} messages but ${rows.length} were given.`,
    );
  }
  checkHead(chat.head, rows.length, chat.id);
  return rows;
}

/**
 * appendMessage's arguments. The head must be null or a message of the chat once the append
 * landed: at most the message's own id (an append lands only as the chat's next id).
 */
export function checkAppend(
  userId: unknown,
  chatId: unknown,
  message: unknown,
  head: unknown,
  updatedAt: unknown,
  key: unknown,
): Message {
  checkText(userId, "userId");
  checkText(chatId, "chatId");
  const m = checkMessage(message);
  checkHead(head, m.id + 1, chatId as string);
  checkTime(updatedAt, "updatedAt");
  if (key !== undefined) checkText(key, "key");
  return m;
}

/** setHead's arguments but the head's range, which needs the chat's size (checkHead). */
export function checkSetHead(
  userId: unknown,
  chatId: unknown,
  head: unknown,
  updatedAt: unknown,
  expected: unknown,
): void {
  checkText(userId, "userId");
  checkText(chatId, "chatId");
  if (head !== null) checkInteger(head, "head", 0);
  checkTime(updatedAt, "updatedAt");
  if (expected !== undefined && expected !== null) checkInteger(expected, "expected", 0);
}

/** A user's and a chat's ids (chatId optional where the method takes none). */
export function checkIds(userId: unknown, chatId?: unknown, optional = false): void {
  checkText(userId, "userId");
  if (!(optional && chatId === undefined)) checkText(chatId, "chatId");
}

export function checkSince(since: unknown): number {
  return checkInteger(since, "since", 0);
}
