import {
  checkAppend,
  checkChatRecord,
  checkHead,
  checkIds,
  checkImported,
  checkSetHead,
  checkSince,
  chatExists,
  unknownChat,
} from "./checks.js";
import {
  checkEmbedder,
  checkEmbeddingIds,
  checkEmbeddingRows,
  checkPage,
  checkRedactedIds,
  checkPruneQuery,
  checkRedactions,
  checkRequest,
} from "./call-checks.js";
import { MessageColumns } from "./columns.js";
import { memoryRevisions } from "./memory-revisions.js";
import type { Message } from "../message.js";
import type {
  AppendMessageRequest,
  ChatRecord,
  EmbeddingRow,
  LoadedChat,
  PrunedChat,
  PutEmbeddingsRequest,
  SetHeadRequest,
  Store,
} from "./types.js";
import { INTERNAL, type InternalStore } from "./internal.js";
import { newestFirst } from "./order.js";
import { pruneCandidates, usersFrom } from "./prune.js";
import { withClearMarks } from "./clear-marks.js";

export { newestFirst } from "./order.js";

/**
 * @internal A chat of a memory store as its Loom writes it (`residentChat`): the Loom's own
 * appends, whose messages it made and checked, with no lookup and no second check.
 */
export interface ResidentChat {
  /**
   * Appends `message` with no key, as `appendMessage` would, and returns true; or writes nothing
   * and returns false when `appendMessage` might answer otherwise (the chat was deleted, another
   * writer took `message.id`, or the store's appendMessage was replaced): the caller then takes
   * the Store's path. `message` must pass the store's checks (checkAppend), `head` be its id.
   */
  append(message: Message, head: number, updatedAt: number): boolean;
}

/** What a memory store's entries share: the store, and its own appendMessage. */
interface Own {
  store: Store;
  appendMessage: Store["appendMessage"];
}

class Entry implements ResidentChat {
  readonly chat: ChatRecord;
  readonly messages = new MessageColumns();
  /** Embeddings by embedder key ("name/dimension"), then message id. */
  embeddings?: Map<string, Map<number, Float32Array>>;
  /** Message ids by the key they were appended with; made at the first key (the Loom gives none to this store). */
  keys?: Map<string, number>;
  /** Deleted from the store: a ResidentChat held of it writes nothing. */
  gone = false;
  readonly #own: Own;

  constructor(chat: ChatRecord, own: Own) {
    this.chat = chat;
    this.#own = own;
  }

  append(message: Message, head: number, updatedAt: number): boolean {
    const size = this.messages.size;
    if (this.gone || message.id !== size || this.#own.store.appendMessage !== this.#own.appendMessage) return false;
    this.messages.push(message);
    this.landed(head, updatedAt, size + 1);
    return true;
  }

  /** The record after an append: its head, time and count. */
  landed(head: number | null, updatedAt: number, count: number): void {
    const chat = this.chat;
    chat.head = head;
    chat.updatedAt = updatedAt;
    chat.messageCount = count;
  }
}

/** Each memory store's lookup of its entries by chat (see residentChat). */
const entries = new WeakMap<Store, (userId: string, chatId: string) => Entry | undefined>();

/**
 * @internal The chat `chatId` of `store` as a ResidentChat, when `store` is a memory store
 * itself (not a wrapper of one) holding it; else undefined.
 */
export function residentChat(store: Store, userId: string, chatId: string): ResidentChat | undefined {
  return entries.get(store)?.(userId, chatId);
}

/**
 * The default store: chats live only as long as the process. Messages are kept in columns
 * (no object per message but its text), and the Loom reads texts from them rather than
 * keeping a copy (its `resident` fast path, internal.ts). Records and messages are copied in and out, so callers can
 * never change what the store holds. Arguments are checked as every store checks them (checks.ts).
 * Users' working memories are kept beside the chats (memory-revisions.ts); a chat's own goes with it.
 */
export function memoryStore(): Store {
  // Chat ids are scoped to their user: a map of chats per user (no key string made per call).
  const users = new Map<string, Map<string, Entry>>();
  const find = (userId: string, chatId: string): Entry | undefined => users.get(userId)?.get(chatId);
  /** The user ids in order, for prune's batches; made again once a user is added. */
  let sorted: string[] | null = null;
  const put = (entry: Entry): void => {
    let chats = users.get(entry.chat.userId);
    if (!chats) {
      users.set(entry.chat.userId, (chats = new Map()));
      sorted = null;
    }
    chats.set(entry.chat.id, entry);
  };
  const get = (userId: string, chatId: string): Entry => {
    const entry = find(userId, chatId);
    if (!entry) throw unknownChat(WHERE, userId, chatId);
    return entry;
  };
  const own = {} as Own; // (set once the store is made)
  const memory = memoryRevisions(WHERE, (userId, chatId) => find(userId, chatId) !== undefined);
  const create = (chat: ChatRecord): Entry => {
    if (find(chat.userId, chat.id)) throw chatExists(WHERE, chat);
    // (The embeddings map is made at the first vector: a chat recall never reads has none.)
    return new Entry(copyChat(chat), own);
  };
  const store: InternalStore = {
    name: "memory",
    hasChat(userId, chatId) {
      checkIds(userId, chatId);
      return find(userId, chatId) !== undefined;
    },
    createChat(chat) {
      put(create(checkChatRecord(chat)));
    },
    importChat(chat, messages) {
      checkImported(checkChatRecord(chat, true), messages);
      const entry = create(chat);
      entry.messages.reserve(messages.length);
      for (const m of messages) entry.messages.push(m);
      entry.chat.messageCount = messages.length;
      put(entry);
    },
    listChats(userId, page) {
      checkIds(userId, undefined, true);
      checkPage(page);
      const records = [...(users.get(userId)?.values() ?? [])].map((e) => e.chat).sort(newestFirst);
      if (!page) return records.map(copyChat);
      const after = page.after;
      const from = after ? records.findIndex((c) => newestFirst(c, after) > 0) : 0;
      return (from < 0 ? [] : records.slice(from, from + page.limit)).map(copyChat);
    },
    loadChat(userId, chatId, since = 0): LoadedChat | undefined {
      checkIds(userId, chatId);
      checkSince(since);
      const entry = find(userId, chatId);
      return entry && { chat: copyChat(entry.chat), messages: entry.messages.slice(since) };
    },
    appendMessage(request) {
      const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
        request,
        "appendMessage",
      );
      checkAppend(userId, chatId, message, head, updatedAt, key);
      const entry = get(userId, chatId);
      const size = entry.messages.size;
      if (key !== undefined) {
        const id = entry.keys?.get(key);
        if (id !== undefined) return { ok: false, existing: entry.messages.message(id) };
      }
      if (message.id !== size) return { ok: false, size };
      entry.messages.push(message);
      if (key !== undefined) (entry.keys ??= new Map()).set(key, size);
      entry.landed(head, updatedAt, size + 1);
      return APPENDED;
    },
    setHead(request) {
      const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
      checkSetHead(userId, chatId, head, updatedAt, expected);
      const entry = get(userId, chatId);
      checkHead(head, entry.messages.size, chatId);
      if (expected !== undefined && entry.chat.head !== expected) return false;
      entry.chat.head = head;
      entry.chat.updatedAt = updatedAt;
      return true;
    },
    deleteChat(userId, chatId) {
      checkIds(userId, chatId);
      const entry = find(userId, chatId);
      if (!entry) return false;
      entry.gone = true;
      memory.deleteChatMemory(userId, chatId);
      return users.get(userId)!.delete(chatId);
    },
    redactMessages(userId, chatId, changes) {
      checkRedactions(userId, chatId, changes);
      const entry = find(userId, chatId);
      if (!entry) return false;
      checkRedactedIds(changes, entry.messages.size, chatId);
      for (const c of changes) {
        entry.messages.rewrite(c.id, c.content, c.toolCalls, c.tokens);
        for (const byId of entry.embeddings?.values() ?? []) byId.delete(c.id);
      }
      return true;
    },
    // The user's entries go from the map (a Chat still holding one of them writes nothing: gone).
    eraseUser(userId) {
      checkIds(userId, undefined, true);
      const chats = users.get(userId);
      let messages = 0;
      for (const entry of chats?.values() ?? []) {
        entry.gone = true;
        messages += entry.messages.size;
      }
      users.delete(userId);
      memory.deleteMemory(userId); // their own memory and every chat's
      sorted = null;
      return { chats: chats?.size ?? 0, messages };
    },
    pruneChats(query) {
      const q = checkPruneQuery(query);
      sorted ??= [...users.keys()].sort();
      const removed: PrunedChat[] = [];
      // Users looked at in one batch: as many as the chats it may remove.
      let i = usersFrom(sorted, q.after);
      for (const end = i + q.limit; i < sorted.length && i < end; i++) {
        const chats = users.get(sorted[i]!);
        if (!chats) continue;
        for (const chat of pruneCandidates(
          [...chats.values()].map((e) => e.chat),
          q,
          q.limit - removed.length,
        )) {
          chats.get(chat.id)!.gone = true;
          chats.delete(chat.id);
          memory.deleteChatMemory(chat.userId, chat.id);
          removed.push({
            userId: chat.userId,
            chatId: chat.id,
            updatedAt: chat.updatedAt,
            messageCount: chat.messageCount,
          });
        }
        if (removed.length === q.limit) return { removed, next: sorted[i]! };
      }
      return { removed, next: i < sorted.length ? sorted[i]! : null };
    },
    putEmbeddings(request) {
      const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
      checkIds(userId, chatId);
      checkEmbeddingRows(rows, checkEmbedder(embedder).dimension);
      const entry = get(userId, chatId);
      checkEmbeddingIds(rows, entry.messages.size, chatId);
      const key = `${embedder.name}/${embedder.dimension}`;
      const embeddings = (entry.embeddings ??= new Map());
      const byId = embeddings.get(key) ?? new Map<number, Float32Array>();
      for (const row of rows) byId.set(row.messageId, row.vector.slice());
      embeddings.set(key, byId);
    },
    loadEmbeddings(userId, chatId, embedder): EmbeddingRow[] {
      checkIds(userId, chatId);
      checkEmbedder(embedder);
      const byId = find(userId, chatId)?.embeddings?.get(`${embedder.name}/${embedder.dimension}`);
      if (!byId) return [];
      return [...byId]
        .sort((a, b) => a[0] - b[0])
        .map(([messageId, vector]) => ({ messageId, vector: vector.slice() }));
    },
    clearEmbeddings(userId, chatId) {
      checkIds(userId, chatId, true);
      for (const entry of users.get(userId)?.values() ?? []) {
        if (chatId === undefined || entry.chat.id === chatId) entry.embeddings?.clear();
      }
    },
    loadMemory: memory.loadMemory,
    loadMemoryHistory: memory.loadMemoryHistory,
    writeMemory: memory.writeMemory,
    deleteMemory: memory.deleteMemory,
    flush() {},
    close() {},
    [INTERNAL]: {
      resident(userId, chatId) {
        return find(userId, chatId)?.messages;
      },
    },
  };
  withClearMarks(store);
  own.store = store;
  own.appendMessage = store.appendMessage;
  entries.set(store, find);
  return store;
}

const APPENDED = Object.freeze({ ok: true as const });
/** How errors name this store. */
const WHERE = "the memory store";

function copyChat(chat: ChatRecord): ChatRecord {
  return { ...chat, options: structuredClone(chat.options) };
}
