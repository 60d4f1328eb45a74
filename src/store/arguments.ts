// The argument checks of every store of ctxloom, one per Store method, exported (ctxloom/store)
// for stores of your own: the same bad calls refused with the same codes (the store contract's
// cases check them). What needs the store's data is the store's: see StoreChecks.
import { checkInteger } from "../errors.js";
import { checkLoad, checkMemoryIds, checkQuery, checkWrite } from "../memory/checks.js";
import type { MemoryQuery, WriteMemoryRequest } from "../memory/types.js";
import type { Message } from "../message.js";
import { checkAppend, checkChatRecord, checkIds, checkImported, checkSetHead, checkSince } from "./checks.js";
import {
  checkEmbedder,
  checkEmbeddingRows,
  checkPage,
  checkPruneQuery,
  checkRedactions,
  checkRequest,
} from "./call-checks.js";
import type {
  AppendMessageRequest,
  ChatPage,
  ChatRecord,
  EmbedderInfo,
  MessageRedaction,
  PruneQuery,
  PutEmbeddingsRequest,
  SetHeadRequest,
} from "./types.js";

/**
 * The checks a Store method makes of its arguments before it reads or writes: each takes the
 * method's arguments and throws a CtxloomError (INVALID_ARGUMENT, or INVALID_ROLE,
 * INVALID_PRIORITY, INVALID_CONTENT, UNKNOWN_MESSAGE, INVALID_PATH, MEMORY_TOO_LARGE) for a bad
 * one. What needs the store's data is left to the store: UNKNOWN_CHAT for a chat the user lacks;
 * CHAT_EXISTS (createChat, importChat); UNKNOWN_MESSAGE for a setHead head, an embedding's
 * message or a redaction's past the chat's messages.
 */
export interface StoreChecks {
  /** Store.hasChat's arguments. */
  hasChat(userId: string, chatId: string): void;
  /** Store.createChat's: a record of an empty chat. */
  createChat(chat: ChatRecord): void;
  /** Store.importChat's: a record, and its messages of ids 0, 1, 2... as many as it says, a head among them. */
  importChat(chat: ChatRecord, messages: Message[]): void;
  /** Store.listChats's. */
  listChats(userId: string, page?: ChatPage): void;
  /** Store.loadChat's. */
  loadChat(userId: string, chatId: string, since?: number): void;
  /** Store.appendMessage's: a message the store can read back, a head at most its id. */
  appendMessage(request: AppendMessageRequest): void;
  /** Store.setHead's, but the head's range (the chat's size is the store's). */
  setHead(request: SetHeadRequest): void;
  /** Store.deleteChat's. */
  deleteChat(userId: string, chatId: string): void;
  /** Store.putEmbeddings's: vectors of the embedder's dimension. */
  putEmbeddings(request: PutEmbeddingsRequest): void;
  /** Store.loadEmbeddings's. */
  loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): void;
  /** Store.clearEmbeddings's. */
  clearEmbeddings(userId: string, chatId?: string): void;
  /** Store.markEmbeddingsCleared's (the chat's size is the store's: UNKNOWN_MESSAGE past it). */
  markEmbeddingsCleared(userId: string, chatId: string, upTo: number): void;
  /** Store.loadEmbeddingsCleared's. */
  loadEmbeddingsCleared(userId: string, chatId: string): void;
  /** Store.redactMessages's. */
  redactMessages(userId: string, chatId: string, changes: MessageRedaction[]): void;
  /** Store.eraseUser's. */
  eraseUser(userId: string): void;
  /** Store.pruneChats's. */
  pruneChats(query: PruneQuery): void;
  /** Store.loadMemory's. */
  loadMemory(userId: string, chatId: string | null, known?: number): void;
  /** Store.loadMemoryHistory's. */
  loadMemoryHistory(userId: string, chatId: string | null, query?: MemoryQuery): void;
  /** Store.writeMemory's: records of the revisions after `expected`, in order, each a well-formed change. */
  writeMemory(request: WriteMemoryRequest): void;
  /** Store.deleteMemory's. */
  deleteMemory(userId: string, chatId?: string | null): void;
}

/** The argument checks of every store of ctxloom (see StoreChecks), for a Store of your own. */
export const storeChecks: StoreChecks = Object.freeze({
  hasChat: (userId, chatId) => checkIds(userId, chatId),
  createChat: (chat) => void checkChatRecord(chat),
  importChat: (chat, messages) => void checkImported(checkChatRecord(chat, true), messages),
  listChats(userId, page) {
    checkIds(userId, undefined, true);
    checkPage(page);
  },
  loadChat(userId, chatId, since) {
    checkIds(userId, chatId);
    if (since !== undefined) checkSince(since);
  },
  appendMessage(request) {
    const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
      request,
      "appendMessage",
    );
    checkAppend(userId, chatId, message, head, updatedAt, key);
  },
  setHead(request) {
    const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
    checkSetHead(userId, chatId, head, updatedAt, expected);
  },
  deleteChat: (userId, chatId) => checkIds(userId, chatId),
  putEmbeddings(request) {
    const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
    checkIds(userId, chatId);
    checkEmbeddingRows(rows, checkEmbedder(embedder).dimension);
  },
  loadEmbeddings(userId, chatId, embedder) {
    checkIds(userId, chatId);
    checkEmbedder(embedder);
  },
  clearEmbeddings: (userId, chatId) => checkIds(userId, chatId, true),
  markEmbeddingsCleared(userId, chatId, upTo) {
    checkIds(userId, chatId);
    checkInteger(upTo, "upTo", 0);
  },
  loadEmbeddingsCleared: (userId, chatId) => checkIds(userId, chatId),
  redactMessages: (userId, chatId, changes) => void checkRedactions(userId, chatId, changes),
  eraseUser: (userId) => checkIds(userId, undefined, true),
  pruneChats: (query) => void checkPruneQuery(query),
  loadMemory: (userId, chatId, known) => checkLoad(userId, chatId, known),
  loadMemoryHistory: (userId, chatId, query) => void checkQuery(userId, chatId, query),
  writeMemory(request) {
    const { userId, chatId, expected, records } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
    checkWrite(userId, chatId, expected, records);
  },
  deleteMemory: (userId, chatId) => checkMemoryIds(userId, chatId, true),
} satisfies StoreChecks);
