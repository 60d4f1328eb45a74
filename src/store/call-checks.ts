// The checks of what the Store's calls take beyond a chat's record and its messages (checks.ts):
// embedders and their rows, a page of listChats, redactions, a prune's query, and that a request
// object holds no key but its own. One policy for every store, as checks.ts's: a bad call throws
// a CtxloomError having changed nothing.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { MAX_TOKENS } from "../message.js";
import { checkIds, checkText, checkTime } from "./checks.js";
import type { ChatPage, EmbedderInfo, EmbeddingRow, MessageRedaction, PruneQuery } from "./types.js";

export function checkEmbedder(embedder: unknown): EmbedderInfo {
  const e = (embedder ?? {}) as EmbedderInfo;
  checkText(e.name, "embedder.name");
  checkInteger(e.dimension, "embedder.dimension", 1, 65_536);
  return e;
}

/** Embedding rows of the embedder's dimension (their message ids are checked against the chat by checkEmbeddingIds). */
export function checkEmbeddingRows(rows: unknown, dimension: number): EmbeddingRow[] {
  if (!Array.isArray(rows))
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `rows must be an array of { messageId, vector }; got ${describe(rows)}.`,
    );
  for (const [i, row] of (rows as EmbeddingRow[]).entries()) {
    checkInteger(row?.messageId, `rows[${i}].messageId`, 0);
    if (!(row.vector instanceof Float32Array) || row.vector.length !== dimension) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `rows[${i}].vector must be a Float32Array of the embedder's dimension ${dimension}.`,
      );
    }
  }
  return rows as EmbeddingRow[];
}

/** UNKNOWN_MESSAGE unless every row's message is one of the chat's `size` messages. */
export function checkEmbeddingIds(rows: readonly EmbeddingRow[], size: number, chatId: string): void {
  for (const [i, row] of rows.entries()) {
    if (row.messageId >= size) {
      throw new CtxloomError(
        "UNKNOWN_MESSAGE",
        `rows[${i}].messageId ${row.messageId} is not a message of chat ${chatId}, which holds ${size} messages.`,
      );
    }
  }
}

/** A page of `listChats` (see ChatPage), or undefined for the whole list. */
export function checkPage(page: unknown): ChatPage | undefined {
  if (page === undefined) return undefined;
  const p = (page ?? {}) as ChatPage;
  if (page === null || typeof page !== "object")
    throw new CtxloomError("INVALID_ARGUMENT", `page must be { limit, after? }; got ${describe(page)}.`);
  checkInteger(p.limit, "page.limit", 1, 100_000);
  if (p.after !== undefined) {
    checkTime(p.after?.updatedAt, "page.after.updatedAt");
    checkTime(p.after.createdAt, "page.after.createdAt");
    checkText(p.after.id, "page.after.id");
  }
  return p;
}

/**
 * The changes of `redactMessages` (ids checked against the chat by checkRedactedIds): a text each, tool calls where
 * given.
 */
export function checkRedactions(userId: unknown, chatId: unknown, changes: unknown): MessageRedaction[] {
  checkIds(userId, chatId);
  if (!Array.isArray(changes) || changes.length === 0)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `changes must be a non-empty array of { id, content, toolCalls?, tokens }; got ${describe(changes)}.`,
    );
  for (const [i, c] of (changes as MessageRedaction[]).entries()) {
    checkInteger(c?.id, `changes[${i}].id`, 0);
    if (typeof c.content !== "string")
      throw new CtxloomError("INVALID_ARGUMENT", `changes[${i}].content must be a string; got ${describe(c.content)}.`);
    if (c.toolCalls !== undefined && !Array.isArray(c.toolCalls))
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `changes[${i}].toolCalls must be an array; got ${describe(c.toolCalls)}.`,
      );
    checkInteger(c.tokens, `changes[${i}].tokens`, 0, MAX_TOKENS);
  }
  return changes as MessageRedaction[];
}

/** UNKNOWN_MESSAGE unless every change names one of the chat's `size` messages. */
export function checkRedactedIds(changes: readonly MessageRedaction[], size: number, chatId: string): void {
  for (const [i, c] of changes.entries()) {
    if (c.id >= size)
      throw new CtxloomError(
        "UNKNOWN_MESSAGE",
        `changes[${i}].id ${c.id} is not a message of chat ${chatId}, which holds ${size} messages.`,
      );
  }
}

/** A prune batch's query (see PruneQuery): at least one of idleBefore and keepNewest, a limit, a cursor. */
export function checkPruneQuery(query: unknown): PruneQuery {
  if (query === null || typeof query !== "object")
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `pruneChats takes { idleBefore?, keepNewest?, limit, after? }; got ${describe(query)}.`,
    );
  const q = query as PruneQuery;
  for (const key of Object.keys(q)) {
    if (!["idleBefore", "keepNewest", "limit", "after"].includes(key))
      throw new CtxloomError("INVALID_ARGUMENT", `pruneChats: unknown key ${describe(key)}.`);
  }
  if (q.idleBefore === undefined && q.keepNewest === undefined) {
    throw new CtxloomError("INVALID_ARGUMENT", "pruneChats needs idleBefore, keepNewest or both: which chats go.");
  }
  if (q.idleBefore !== undefined) checkTime(q.idleBefore, "idleBefore");
  if (q.keepNewest !== undefined) checkInteger(q.keepNewest, "keepNewest", 1);
  checkInteger(q.limit, "limit", 1, 10_000);
  if (q.after !== undefined) checkText(q.after, "after");
  return q;
}

/** The keys of the requests of the Store methods that take one. */
const REQUEST_KEYS = {
  appendMessage: ["userId", "chatId", "message", "head", "updatedAt", "key"],
  setHead: ["userId", "chatId", "head", "updatedAt", "expected"],
  putEmbeddings: ["userId", "chatId", "embedder", "rows"],
  writeMemory: ["userId", "chatId", "expected", "records"],
} as const;

/** A Store method's request: an object with no key but its own (its values are checked by the method's checks). */
export function checkRequest<T extends object>(request: unknown, method: keyof typeof REQUEST_KEYS): T {
  const keys: readonly string[] = REQUEST_KEYS[method];
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${method} takes one object ({ ${keys.join(", ")} }); got ${describe(request)}.`,
    );
  }
  for (const key of Object.keys(request)) {
    if (!keys.includes(key))
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${method}: unknown key ${describe(key)}; it takes ${keys.join(", ")}.`,
      );
  }
  return request as T;
}
