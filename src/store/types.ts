import type { Message } from "../message.js";
import type { MemoryQuery, MemoryRecord, MemoryState, MemoryWriteResult, WriteMemoryRequest } from "../memory/types.js";

export type { JsonValue } from "../memory/types.js";
export type { ChatMetadata, ChatOptions } from "./chat-options.js";
import type { ChatMetadata, ChatOptions } from "./chat-options.js";

/**
 * When a store's write is acknowledged: the SQLite and PostgreSQL stores' `durability`.
 *
 * "full" (the default): a write's promise resolves once its commit is on disk (SQLite: its
 * transaction synced, synchronous=FULL; PostgreSQL: the commit flushed). A crash loses nothing
 * acknowledged.
 *
 * "batched": commits are acknowledged before they reach the disk, for many writes a second. A
 * crash may lose the writes acknowledged last, never reorder or renumber them: what survives is a
 * prefix of what was acknowledged. SQLite: writes run at once inside a transaction (a batch) that
 * commits at the first write made `batchDelayMs` or more after the batch's first, at `batchSize`
 * writes, on `flush()`, on `close()`, and by a timer `batchDelayMs` after its first write (group
 * commit: one sync for many writes); a crash loses at most the open batch, all within
 * `batchDelayMs` of its first write (a process that stops writing and keeps its thread busy delays
 * the timer, not what is lost). A batch that cannot commit (a full disk) is lost the same way,
 * and every later call, `close()` included, rejects with STORE_FAILED saying how many
 * acknowledged writes it held. PostgreSQL (`synchronous_commit = off`): a crash of the database
 * server may lose the last few hundred milliseconds of acknowledged appends; only for a
 * connection string (a pool you pass keeps its own setting).
 */
export type Durability = "full" | "batched";

/** A value or a promise of it: every Store method may be synchronous or not. */
export type Awaitable<T> = T | Promise<T>;

/** A chat's record in a store. */
export interface ChatRecord {
  /** The chat's id, unique per user (the client's, or one the Loom made). */
  id: string;
  /** The user the chat belongs to. */
  userId: string;
  /** The chat's title ("" for none). */
  title: string;
  /** The model name the chat was created for (its budget and counter follow it). */
  model: string;
  /** The chat's system prompt, sent at the top of every context; null for none. */
  system: string | null;
  /** When the chat was created, in ms since the epoch. */
  createdAt: number;
  /** When the chat last changed (an append, a checkout), in ms since the epoch: lists sort by it. */
  updatedAt: number;
  /** How many messages the chat holds, every branch included (the next message's id). */
  messageCount: number;
  /** The head message's id, or null for an empty chat. */
  head: number | null;
  /** The settings kept with the chat (budget, history limits, summaries, tool results...). */
  options: ChatOptions;
}

/** What `chats.list()` and `chats.page()` return for each chat (`metadata` when the chat has some). */
export type ChatSummary = Pick<ChatRecord, "id" | "title" | "model" | "createdAt" | "updatedAt" | "messageCount"> & {
  metadata?: ChatMetadata;
};

/**
 * One page of a user's chats for `Store.listChats`: at most `limit` records, in the list's order
 * (`updatedAt`, then `createdAt`, then `id`, each descending), starting after the chat `after`
 * names (the last one of the previous page), or at the first.
 */
export interface ChatPage {
  /** The most records to answer. */
  limit: number;
  /** The last chat of the previous page: the page starts after it. Left out for the first page. */
  after?: Pick<ChatRecord, "updatedAt" | "createdAt" | "id">;
}

export type {
  AppendMessageRequest,
  AppendResult,
  EmbedderInfo,
  EmbeddingRow,
  ErasedUser,
  MessageRedaction,
  PrunedChat,
  PruneBatch,
  PruneQuery,
  PutEmbeddingsRequest,
  SetHeadRequest,
} from "./requests.js";
import type {
  AppendMessageRequest,
  AppendResult,
  EmbedderInfo,
  EmbeddingRow,
  ErasedUser,
  MessageRedaction,
  PruneBatch,
  PruneQuery,
  PutEmbeddingsRequest,
  SetHeadRequest,
} from "./requests.js";

/**
 * Where chats persist. The store is the source of truth: it decides message ids (an append
 * is conditional on the id being the next one), so several Looms (processes, servers) can
 * share it and concurrent appends become sibling branches, never lost updates.
 *
 * Messages are append-only (nothing is ever overwritten) and arrive in id order, parents
 * before children, so a store can be a log. A summary is a message of kind "summary" whose
 * `covers` names the run of ancestors it stands for; it is stored like any other message.
 *
 * Every method may return a promise. A method that throws or rejects must leave the store
 * as it was; the Loom then applies nothing and rethrows (as STORE_FAILED). The one exception:
 * an append that cannot know whether it landed (the connection was lost after it was sent)
 * throws a CtxloomError STORE_OUTCOME_UNKNOWN, and the Loom retries it under the same key.
 */
export interface Store {
  // Chat ids are scoped to their user: two users may each have a chat of the same id (an
  // import keeps the exported id when the target user has none), so key chats by both.
  /** A name for messages and stats, e.g. "memory" or "sqlite:./ctxloom.db". */
  readonly name: string;
  /**
   * Whether the user has a chat of this id (its record only is read). `chats.import` asks it to
   * keep an export's id when it is free.
   */
  hasChat(userId: string, chatId: string): Awaitable<boolean>;
  /**
   * Creates an empty chat. When the user has a chat of `chat.id` already, writes nothing and
   * throws a CtxloomError CHAT_EXISTS, decided by the store itself (two creates of one id
   * racing from several Looms: one is created, the other gets CHAT_EXISTS).
   */
  createChat(chat: ChatRecord): Awaitable<void>;
  /**
   * Creates a chat with all its messages at once, in one transaction (`chats.import`): the
   * record (its `messageCount` and `head` already set) and the messages in id order. All or
   * nothing: when it throws, the store holds no part of the chat. CHAT_EXISTS, as createChat,
   * when the user has a chat of that id.
   */
  importChat(chat: ChatRecord, messages: Message[]): Awaitable<void>;
  /**
   * The user's chats, most recently updated first (ties: created later first, then the greater
   * id). Reads records only, never messages. With `page`, only that page (see ChatPage).
   */
  listChats(userId: string, page?: ChatPage): Awaitable<ChatRecord[]>;
  /**
   * The chat and its messages with `id >= since` (default 0: all of them) in id order, or
   * undefined when the user has no such chat. `since` serves catching up after a conflict
   * and `chat.refresh()`.
   */
  loadChat(userId: string, chatId: string, since?: number): Awaitable<LoadedChat | undefined>;
  /**
   * Adds `message` if and only if the chat holds exactly `message.id` messages, and then
   * moves the head to `head` and sets `updatedAt`, in one transaction. Otherwise writes
   * nothing and answers `{ ok: false, size }`.
   *
   * `key` identifies the append across its retries (`chat.append(m, { key })`, or one the
   * Loom makes for each append to a store outside this process). The store keeps it with
   * the message, unique per chat: when the chat already holds a message stored under `key`,
   * it writes nothing and answers `{ ok: false, existing }` with that message, whatever
   * `message.id` is. A store that keeps no keys may ignore it: a retry after a lost
   * connection may then append twice.
   */
  appendMessage(request: AppendMessageRequest): Awaitable<AppendResult>;
  /**
   * Moves the head without adding a message (regenerate, checkout, edit's target). With
   * `expected` given, a compare-and-set: only when the stored head equals `expected`.
   * Answers whether the head was written.
   */
  setHead(request: SetHeadRequest): Awaitable<boolean>;
  /**
   * Deletes the chat, its messages, its embeddings and its own memory; false when there was none. Whether the
   * old bytes stay anywhere (a file's free pages, old row versions) is each store's (see it).
   */
  deleteChat(userId: string, chatId: string): Awaitable<boolean>;
  /**
   * Optional (`chat.redact` needs it; every store of ctxloom has it): the one write that changes
   * stored messages. In one transaction, each message named gets the content given, loses its
   * content parts, takes the tool calls given (when given) and loses its embeddings; ids,
   * parents, roles, kinds, tokens and keys stay. Overwrites the old bytes where the store can
   * (see each store). False when the user has no such chat (nothing written).
   */
  redactMessages?(userId: string, chatId: string, changes: MessageRedaction[]): Awaitable<boolean>;
  /**
   * Optional (`loom.user(id).erase()` needs it; every store of ctxloom has it): deletes everything
   * the store keeps of the user, in one transaction: every chat with its messages, summaries,
   * embeddings and append keys, the user's working memories (their own and every chat's), and the
   * user's own rows. Answers what it removed ({ chats: 0,
   * messages: 0 } for a user it never knew). Whether old bytes stay anywhere is each store's (see
   * it), as for deleteChat.
   */
  eraseUser?(userId: string): Awaitable<ErasedUser>;
  /**
   * Optional (`loom.prune()` needs it; every store of ctxloom has it): one batch of a prune.
   * Removes, as deleteChat does, up to `query.limit` chats that are idle (`updatedAt` before
   * `query.idleBefore`) or past the newest `query.keepNewest` of their user (in the list's
   * order), each in the same transaction that finds it, so that a chat written meanwhile is not
   * removed for a time it no longer has. Goes through the users in an order of its own, from
   * where the previous batch stopped (`query.after`, its `next`); `next` is null after the last.
   */
  pruneChats?(query: PruneQuery): Awaitable<PruneBatch>;
  /** Stores embeddings of a chat's messages (replacing a message's vector of the same embedder). */
  putEmbeddings(request: PutEmbeddingsRequest): Awaitable<void>;
  /** The chat's embeddings made by this embedder (same name and dimension), in message id order. */
  loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): Awaitable<EmbeddingRow[]>;
  /** Drops the embeddings of one chat, or of all the user's chats (and their clear marks); messages stay. */
  clearEmbeddings(userId: string, chatId?: string): Awaitable<void>;
  /**
   * Optional (`chats.clearRecall()` needs it, with loadEmbeddingsCleared; every store of ctxloom has
   * them): marks the chat's messages up to id `upTo` as cleared from recall, not to be embedded
   * again. A chat keeps its greatest mark until clearEmbeddings (of the chat or the user),
   * deleteChat or eraseUser drops it. UNKNOWN_CHAT, UNKNOWN_MESSAGE as putEmbeddings.
   */
  markEmbeddingsCleared?(userId: string, chatId: string, upTo: number): Awaitable<void>;
  /**
   * Optional: the chat's clear mark (see markEmbeddingsCleared), or null when it has none (or the user has no such
   * chat).
   */
  loadEmbeddingsCleared?(userId: string, chatId: string): Awaitable<number | null>;
  /**
   * Optional (a user's working memory needs the four memory methods; every store of ctxloom has
   * them). A memory is the user's own (`chatId` null) or a chat's (its id: a chat the user has,
   * else UNKNOWN_CHAT). Its revision (0 when never written) and each path's newest record
   * (deletions included) in path order; only the revision when it is `known`.
   */
  loadMemory?(userId: string, chatId: string | null, known?: number): Awaitable<MemoryState>;
  /** Optional: a memory's records in revision order (then path order), narrowed by `query`. */
  loadMemoryHistory?(userId: string, chatId: string | null, query?: MemoryQuery): Awaitable<MemoryRecord[]>;
  /**
   * Optional: adds `records` (of revisions `expected + 1` on, in order) if and only if the memory's
   * revision is `expected`, in one transaction; otherwise writes nothing and answers `{ ok: false,
   * revision }`. Two writes made on one revision: one lands, the other learns the new revision.
   */
  writeMemory?(request: WriteMemoryRequest): Awaitable<MemoryWriteResult>;
  /**
   * Optional: deletes a memory and its history: a chat's (its id), the user's own (null), or, with
   * `chatId` left out, all of the user's (their own and every chat's: erasing a user). False when
   * there was nothing. `deleteChat` deletes the chat's own memory with it.
   */
  deleteMemory?(userId: string, chatId?: string | null): Awaitable<boolean>;
  /** Makes every acknowledged write durable (a batching store commits); others resolve at once. */
  flush(): Awaitable<void>;
  /** Flushes and releases resources. */
  close(): Awaitable<void>;
}

/** The Store methods `Loom.open` checks for. */
export const STORE_METHODS = [
  "hasChat",
  "createChat",
  "importChat",
  "listChats",
  "loadChat",
  "appendMessage",
  "setHead",
  "deleteChat",
  "putEmbeddings",
  "loadEmbeddings",
  "clearEmbeddings",
  "flush",
  "close",
] as const satisfies readonly (keyof Store)[];

/** What `Store.loadChat` answers: the chat's record and its messages (those from `since` on). */
export interface LoadedChat {
  /** The chat's record. */
  chat: ChatRecord;
  /** Its messages, in id order (those from `since` on). */
  messages: Message[];
}
