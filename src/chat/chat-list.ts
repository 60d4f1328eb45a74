// What a chat product needs of a user's list of chats: ids the client chooses, the
// application's metadata, and pages of the list by last activity.
import { CtxloomError, checkInteger, checkOptions, describe, fromStore } from "../errors.js";
import { checkLabel, loneIn } from "../message.js";
import { newestFirst } from "../store/memory.js";
import type { ChatMetadata, ChatPage, ChatRecord, ChatSummary, Store } from "../store/types.js";

/** Options of `chats.page({ limit, after })`. */
export interface ChatListPageOptions {
  /** Chats per page, 1 to 1000. */
  limit: number;
  /** Where the page starts: the `cursor` of the previous page; left out for the first. */
  after?: string;
}

/** One page of a user's chats, most recently active first. */
export interface ChatListPage {
  /** The page's chats, in the list's order. */
  chats: ChatSummary[];
  /** Pass it as `after` for the next page; null after the last. */
  cursor: string | null;
}

const CHAT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_METADATA = 64 * 1024;
const MAX_LIMIT = 1000;

/**
 * A chat id a caller chose (`create({ id })`, e.g. the id useChat sends): 1 to 128 letters,
 * digits, `.`, `_`, `:` or `-`, so that it can travel in a URL and a log line unescaped.
 * @throws INVALID_ARGUMENT
 */
export function checkNewChatId(id: unknown): string {
  if (typeof id !== "string" || !CHAT_ID.test(id)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `A chat id must be 1 to 128 letters, digits, ".", "_", ":" or "-" (useChat's ids and UUIDs are); got ` +
        `${describe(id)}.`,
    );
  }
  return id;
}

/**
 * The application's metadata of a chat, checked: a plain JSON object (what JSON.stringify
 * gives back the same), at most 64 KiB as JSON, with no lone surrogate. Returns a copy.
 * @throws INVALID_ARGUMENT
 */
export function checkMetadata(value: unknown): ChatMetadata {
  if (
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value) ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `metadata must be a plain object of JSON values; got ${describe(value)}.`,
    );
  }
  const problem = jsonProblem(value, "metadata", 0);
  if (problem)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${problem}; metadata holds JSON values only (strings, finite numbers, booleans, null, arrays, plain objects).`,
    );
  const text = JSON.stringify(value);
  if (text.length > MAX_METADATA)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `metadata takes ${text.length} characters as JSON, ` +
        `more than ${MAX_METADATA}; keep large data in your own tables.`,
    );
  const lone = loneIn(value);
  if (lone !== undefined)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `metadata's ${lone} holds a lone surrogate, which stores cannot keep; repair it (e.g. text.toWellFormed()).`,
    );
  return JSON.parse(text) as ChatMetadata;
}

function jsonProblem(value: unknown, at: string, depth: number): string | null {
  if (depth > 32) return `${at} is nested more than 32 levels deep`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `${at} is ${value}`;
  if (typeof value !== "object") return `${at} is ${describe(value)}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = jsonProblem(value[i], `${at}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return `${at} is ${describe(value)}, not a plain object`;
  for (const [k, v] of Object.entries(value)) {
    const p = jsonProblem(v, `${at}.${k}`, depth + 1);
    if (p) return p;
  }
  return null;
}

/**
 * The page a store is asked for, from `page()`'s options: one more than the limit, to know whether more follow. @throws
 * INVALID_ARGUMENT
 */
export function pageOf(options: unknown): { page: ChatPage; limit: number } {
  if (options === undefined)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "page(options) needs its options: { limit, after? } (list() returns every chat).",
    );
  const o = checkOptions<ChatListPageOptions>(options, "page(options)", ["limit", "after"]);
  const limit = checkInteger(o.limit, "page(options).limit", 1, MAX_LIMIT);
  const page: ChatPage = { limit: limit + 1 };
  if (o.after !== undefined) page.after = decodeCursor(o.after);
  return { page, limit };
}

/**
 * The user's chat records from the store (a page of them with `page`), checked to be a list. @throws STORE_FAILED,
 * STORE_CORRUPT
 */
export async function chatRecords(store: Store, userId: string, page?: ChatPage): Promise<ChatRecord[]> {
  const records = await fromStore("listing chats", () => store.listChats(userId, page));
  if (!Array.isArray(records))
    throw new CtxloomError(
      "STORE_CORRUPT",
      `The store listed ${describe(records)} for user ${describe(userId)}, not an array of chat records.`,
    );
  return records;
}

/**
 * A page of records as the store answered, made safe: sorted in the list's order, those not
 * after the cursor dropped (a store that ignores pages answers with every chat), cut to the limit.
 */
export function pageFrom(records: readonly ChatRecord[], page: ChatPage, limit: number): ChatListPage {
  const after = page.after;
  const kept = [...records].sort(newestFirst).filter((r) => !after || newestFirst(r, after) > 0);
  const chats = kept.slice(0, limit);
  const last = chats[chats.length - 1];
  return { chats: chats.map(summaryOf), cursor: kept.length > limit && last ? encodeCursor(last) : null };
}

/** What `list()` and `page()` show of a record. */
export function summaryOf(r: ChatRecord): ChatSummary {
  const out: ChatSummary = {
    id: r.id,
    title: r.title,
    model: r.model,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    messageCount: r.messageCount,
  };
  const metadata = r.options?.metadata;
  if (metadata !== undefined) out.metadata = structuredClone(metadata);
  return out;
}

/** A cursor: the last chat of a page (its times and id), as base64url JSON. */
function encodeCursor(r: ChatRecord): string {
  const bytes = new TextEncoder().encode(JSON.stringify([r.updatedAt, r.createdAt, r.id]));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(cursor: unknown): NonNullable<ChatPage["after"]> {
  const bad = () =>
    new CtxloomError(
      "INVALID_ARGUMENT",
      `page(options).after must be the cursor of a page page() returned; got ${describe(cursor)}.`,
    );
  if (typeof cursor !== "string" || cursor.length === 0 || cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw bad();
  let value: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    value = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 3) throw bad();
  const [updatedAt, createdAt, id] = value as unknown[];
  if (
    typeof updatedAt !== "number" ||
    !Number.isFinite(updatedAt) ||
    typeof createdAt !== "number" ||
    !Number.isFinite(createdAt) ||
    typeof id !== "string" ||
    id.length === 0
  )
    throw bad();
  return { updatedAt, createdAt, id };
}

/**
 * A new chat id: a random UUID, as one flat string. Node builds randomUUID's result by
 * concatenation, a tree of about 14 strings that lives as long as the chat (measured: 140,000
 * heap objects for 10,000 chats, a fifth of a server's heap, each one marked by every full
 * collection). A JSON round trip returns the same text in one string.
 */
export function newChatId(): string {
  return JSON.parse(JSON.stringify(crypto.randomUUID())) as string;
}

/** An id given to open or delete: a non-empty, well-formed string. @throws INVALID_ARGUMENT */
export function checkChatId(chatId: unknown): void {
  checkLabel(chatId, "A chat id (chat.id)");
}

/** CHAT_EXISTS: create({ id }) with an id the user has. */
export function chatExists(userId: string, chatId: string): CtxloomError {
  return new CtxloomError(
    "CHAT_EXISTS",
    `User ${describe(userId)} has a chat ${describe(chatId)} already; open it with chats.open(id), or create the ` +
      `chat under another id.`,
  );
}

/** UNKNOWN_CHAT: the user has no chat of that id. */
export function unknownChat(userId: string, chatId: unknown): CtxloomError {
  return new CtxloomError(
    "UNKNOWN_CHAT",
    `User ${describe(userId)} has no chat ${describe(chatId)}. Use an id from chats.list() or chats.create().`,
  );
}
