// Argument checks of the SQLite store's methods: a bad call throws INVALID_ARGUMENT (or
// UNKNOWN_MESSAGE) before anything is written.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { PRIORITIES, ROLES } from "../message.js";
import type { Message } from "../message.js";
import type { ChatRecord, EmbedderInfo, EmbeddingRow } from "./types.js";

export function checkText(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a non-empty string; got ${describe(value)}.`);
  }
  return value;
}

export function checkTime(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a time in milliseconds since the epoch; got ${describe(value)}.`);
  }
  return value;
}

/** A head: null, or the id of one of the chat's `size` messages. */
export function checkHead(head: unknown, size: number, chatId: string): number | null {
  if (head === null) return null;
  checkInteger(head, "head", 0);
  if ((head as number) >= size) {
    throw new CtxloomError("UNKNOWN_MESSAGE", `head ${String(head)} is not a message of chat ${chatId}, which holds ${size} messages.`);
  }
  return head as number;
}

export function checkChatRecord(chat: unknown, imported = false): ChatRecord {
  if (chat === null || typeof chat !== "object") {
    throw new CtxloomError("INVALID_ARGUMENT", `createChat takes a chat record; got ${describe(chat)}.`);
  }
  const c = chat as ChatRecord;
  checkText(c.id, "chat.id");
  checkText(c.userId, "chat.userId");
  if (typeof c.title !== "string" || typeof c.model !== "string" || (c.system !== null && typeof c.system !== "string")) {
    throw new CtxloomError("INVALID_ARGUMENT", "chat.title and chat.model must be strings, and chat.system a string or null.");
  }
  checkTime(c.createdAt, "chat.createdAt");
  checkTime(c.updatedAt, "chat.updatedAt");
  if (imported) {
    checkInteger(c.messageCount, "chat.messageCount", 0);
  } else if (c.messageCount !== 0 || c.head !== null) {
    throw new CtxloomError("INVALID_ARGUMENT", "createChat makes an empty chat: messageCount must be 0 and head null; append the messages after.");
  }
  return c;
}

/** The fields the store writes, checked: a message the store would not read back is refused here. */
export function checkMessage(m: unknown): Message {
  if (m === null || typeof m !== "object") throw new CtxloomError("INVALID_ARGUMENT", `appendMessage takes a message; got ${describe(m)}.`);
  const msg = m as Message;
  const id = checkInteger(msg.id, "message.id", 0);
  if (msg.parentId !== null) checkInteger(msg.parentId, "message.parentId", 0, id - 1);
  if (!ROLES.includes(msg.role)) throw new CtxloomError("INVALID_ROLE", `message.role must be one of ${ROLES.join(", ")}; got ${describe(msg.role)}.`);
  if (!PRIORITIES.includes(msg.priority)) {
    throw new CtxloomError("INVALID_PRIORITY", `message.priority must be one of ${PRIORITIES.join(", ")}; got ${describe(msg.priority)}.`);
  }
  if (typeof msg.content !== "string" && !Array.isArray(msg.content)) {
    throw new CtxloomError("INVALID_CONTENT", `message.content must be a string (or a list of parts); got ${describe(msg.content)}.`);
  }
  checkInteger(msg.tokens, "message.tokens", 0);
  checkTime(msg.createdAt, "message.createdAt");
  if (msg.kind !== "message" && msg.kind !== "summary") {
    throw new CtxloomError("INVALID_ARGUMENT", `message.kind must be "message" or "summary"; got ${describe(msg.kind)}.`);
  }
  if (msg.covers !== undefined) {
    checkInteger(msg.covers.first, "message.covers.first", 0, id - 1);
    checkInteger(msg.covers.last, "message.covers.last", msg.covers.first, id - 1);
  }
  return msg;
}

export function checkEmbedder(embedder: unknown): EmbedderInfo {
  const e = (embedder ?? {}) as EmbedderInfo;
  checkText(e.name, "embedder.name");
  checkInteger(e.dimension, "embedder.dimension", 1, 65_536);
  return e;
}

export function checkEmbeddingRows(rows: unknown, dimension: number, size: number, chatId: string): EmbeddingRow[] {
  if (!Array.isArray(rows)) throw new CtxloomError("INVALID_ARGUMENT", `rows must be an array of { messageId, vector }; got ${describe(rows)}.`);
  for (const [i, row] of (rows as EmbeddingRow[]).entries()) {
    checkInteger(row?.messageId, `rows[${i}].messageId`, 0);
    if (row.messageId >= size) {
      throw new CtxloomError("UNKNOWN_MESSAGE", `rows[${i}].messageId ${row.messageId} is not a message of chat ${chatId}, which holds ${size} messages.`);
    }
    if (!(row.vector instanceof Float32Array) || row.vector.length !== dimension) {
      throw new CtxloomError("INVALID_ARGUMENT", `rows[${i}].vector must be a Float32Array of the embedder's dimension ${dimension}.`);
    }
  }
  return rows as EmbeddingRow[];
}
