import {
  checkAppend, checkChatRecord, checkEmbedder, checkEmbeddingIds, checkEmbeddingRows, checkHead, checkIds, checkImported, checkPage, checkRedactedIds,
  checkRedactions, checkSetHead, checkSince, chatExists, unknownChat,
} from "./checks.js";
import { MessageColumns } from "./columns.js";
import type { ChatRecord, EmbeddingRow, LoadedChat, Store } from "./types.js";

interface Entry {
  chat: ChatRecord;
  messages: MessageColumns;
  /** Embeddings by embedder key ("name/dimension"), then message id. */
  embeddings?: Map<string, Map<number, Float32Array>>;
  /** Message ids by the key they were appended with; made at the first key (the Loom gives none to this store). */
  keys?: Map<string, number>;
}

/**
 * The default store: chats live only as long as the process. Messages are kept in columns
 * (no object per message but its text), and the Loom reads texts from them rather than
 * keeping a copy (`resident`). Records and messages are copied in and out, so callers can
 * never change what the store holds. Arguments are checked as every store checks them (checks.ts).
 */
export function memoryStore(): Store {
  // Chat ids are scoped to their user: a map of chats per user (no key string made per call).
  const users = new Map<string, Map<string, Entry>>();
  const find = (userId: string, chatId: string): Entry | undefined => users.get(userId)?.get(chatId);
  const put = (entry: Entry): void => {
    let chats = users.get(entry.chat.userId);
    if (!chats) users.set(entry.chat.userId, (chats = new Map()));
    chats.set(entry.chat.id, entry);
  };
  const get = (userId: string, chatId: string): Entry => {
    const entry = find(userId, chatId);
    if (!entry) throw unknownChat(WHERE, userId, chatId);
    return entry;
  };
  const create = (chat: ChatRecord): Entry => {
    if (find(chat.userId, chat.id)) throw chatExists(WHERE, chat);
    // (The embeddings map is made at the first vector: a chat recall never reads has none.)
    return { chat: copyChat(chat), messages: new MessageColumns() };
  };
  return {
    name: "memory",
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
    appendMessage(userId, chatId, message, head, updatedAt, key) {
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
      const chat = entry.chat;
      chat.head = head;
      chat.updatedAt = updatedAt;
      chat.messageCount = size + 1;
      return APPENDED;
    },
    setHead(userId, chatId, head, updatedAt, expected) {
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
      return users.get(userId)?.delete(chatId) ?? false;
    },
    redactMessages(userId, chatId, changes) {
      checkRedactions(userId, chatId, changes);
      const entry = find(userId, chatId);
      if (!entry) return false;
      checkRedactedIds(changes, entry.messages.size, chatId);
      for (const c of changes) {
        entry.messages.rewrite(c.id, c.content, c.toolCalls);
        for (const byId of entry.embeddings?.values() ?? []) byId.delete(c.id);
      }
      return true;
    },
    putEmbeddings(userId, chatId, embedder, rows) {
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
      return [...byId].sort((a, b) => a[0] - b[0]).map(([messageId, vector]) => ({ messageId, vector: vector.slice() }));
    },
    clearEmbeddings(userId, chatId) {
      checkIds(userId, chatId, true);
      for (const entry of users.get(userId)?.values() ?? []) {
        if (chatId === undefined || entry.chat.id === chatId) entry.embeddings?.clear();
      }
    },
    flush() {},
    close() {},
    resident(userId, chatId) {
      return find(userId, chatId)?.messages;
    },
  };
}

const APPENDED = Object.freeze({ ok: true as const });
/** How errors name this store. */
const WHERE = "the memory store";

/** The list's order: most recently updated first, then created later first, then the greater id (negative: `a` first). */
export function newestFirst(a: Pick<ChatRecord, "updatedAt" | "createdAt" | "id">, b: Pick<ChatRecord, "updatedAt" | "createdAt" | "id">): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function copyChat(chat: ChatRecord): ChatRecord {
  return { ...chat, options: structuredClone(chat.options) };
}
