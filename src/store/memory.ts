import { MessageColumns } from "./columns.js";
import type { ChatRecord, EmbeddingRow, LoadedChat, Store } from "./types.js";

interface Entry {
  chat: ChatRecord;
  messages: MessageColumns;
  /** Embeddings by embedder key ("name/dimension"), then message id. */
  embeddings: Map<string, Map<number, Float32Array>>;
}

/**
 * The default store: chats live only as long as the process. Messages are kept in columns
 * (no object per message but its text), and the Loom reads texts from them rather than
 * keeping a copy (`resident`). Records and messages are copied in and out, so callers can
 * never change what the store holds.
 */
export function memoryStore(): Store {
  // Chat ids are scoped to their user: keyed by both.
  const entries = new Map<string, Entry>();
  const keyOf = (userId: string, chatId: string): string => `${userId}\u0000${chatId}`;
  const find = (userId: string, chatId: string): Entry | undefined => entries.get(keyOf(userId, chatId));
  const get = (userId: string, chatId: string): Entry => {
    const entry = find(userId, chatId);
    if (!entry) throw new Error(`memory store: no chat ${chatId}`);
    return entry;
  };
  const create = (chat: ChatRecord): Entry => {
    if (find(chat.userId, chat.id)) throw new Error(`memory store: chat ${chat.id} exists already`);
    return { chat: copyChat(chat), messages: new MessageColumns(), embeddings: new Map() };
  };
  return {
    name: "memory",
    createChat(chat) {
      entries.set(keyOf(chat.userId, chat.id), create(chat));
    },
    importChat(chat, messages) {
      const entry = create(chat);
      entry.messages.reserve(messages.length);
      for (const m of messages) entry.messages.push(m);
      entry.chat.messageCount = messages.length;
      entries.set(keyOf(chat.userId, chat.id), entry);
    },
    listChats(userId) {
      return [...entries.values()]
        .filter((e) => e.chat.userId === userId)
        .map((e) => copyChat(e.chat))
        .sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
    },
    loadChat(userId, chatId, since = 0): LoadedChat | undefined {
      const entry = find(userId, chatId);
      return entry && { chat: copyChat(entry.chat), messages: entry.messages.slice(since) };
    },
    appendMessage(userId, chatId, message, head, updatedAt) {
      const entry = get(userId, chatId);
      const size = entry.messages.size;
      if (message.id !== size) return { ok: false, size };
      entry.messages.push(message);
      Object.assign(entry.chat, { head, updatedAt, messageCount: size + 1 });
      return { ok: true };
    },
    setHead(userId, chatId, head, updatedAt, expected) {
      const entry = get(userId, chatId);
      if (expected !== undefined && entry.chat.head !== expected) return false;
      Object.assign(entry.chat, { head, updatedAt });
      return true;
    },
    deleteChat(userId, chatId) {
      return entries.delete(keyOf(userId, chatId));
    },
    putEmbeddings(userId, chatId, embedder, rows) {
      const entry = get(userId, chatId);
      const key = `${embedder.name}/${embedder.dimension}`;
      const byId = entry.embeddings.get(key) ?? new Map<number, Float32Array>();
      for (const row of rows) byId.set(row.messageId, row.vector.slice());
      entry.embeddings.set(key, byId);
    },
    loadEmbeddings(userId, chatId, embedder): EmbeddingRow[] {
      const byId = find(userId, chatId)?.embeddings.get(`${embedder.name}/${embedder.dimension}`);
      if (!byId) return [];
      return [...byId].sort((a, b) => a[0] - b[0]).map(([messageId, vector]) => ({ messageId, vector: vector.slice() }));
    },
    clearEmbeddings(userId, chatId) {
      for (const entry of entries.values()) {
        if (entry.chat.userId === userId && (chatId === undefined || entry.chat.id === chatId)) entry.embeddings.clear();
      }
    },
    flush() {},
    close() {},
    resident(userId, chatId) {
      return find(userId, chatId)?.messages;
    },
  };
}

function copyChat(chat: ChatRecord): ChatRecord {
  return { ...chat, options: structuredClone(chat.options) };
}
