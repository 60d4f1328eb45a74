import type { Message } from "../tree/message.js";
import type { ChatRecord, EmbeddingRow, LoadedChat, Store } from "./types.js";

interface Entry {
  chat: ChatRecord;
  messages: Message[];
  /** Embeddings by embedder key ("name/dimension"), then message id. */
  embeddings: Map<string, Map<number, Float32Array>>;
}

/**
 * The default store: chats live only as long as the process. Records are copied in
 * and out, so callers can never mutate what the store holds.
 */
export function memoryStore(): Store {
  const entries = new Map<string, Entry>();
  const find = (userId: string, chatId: string): Entry | undefined => {
    const entry = entries.get(chatId);
    return entry && entry.chat.userId === userId ? entry : undefined;
  };
  const get = (userId: string, chatId: string): Entry => {
    const entry = find(userId, chatId);
    if (!entry) throw new Error(`memory store: no chat ${chatId}`);
    return entry;
  };
  return {
    name: "memory",
    createChat(chat) {
      entries.set(chat.id, { chat: copyChat(chat), messages: [], embeddings: new Map() });
    },
    listChats(userId) {
      return [...entries.values()]
        .filter((e) => e.chat.userId === userId)
        .map((e) => copyChat(e.chat))
        .sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
    },
    loadChat(userId, chatId, since = 0): LoadedChat | undefined {
      const entry = find(userId, chatId);
      return entry && { chat: copyChat(entry.chat), messages: entry.messages.slice(since).map(copyMessage) };
    },
    appendMessage(userId, chatId, message, head, updatedAt) {
      const entry = get(userId, chatId);
      if (message.id !== entry.messages.length) return { ok: false, size: entry.messages.length };
      entry.messages.push(copyMessage(message));
      Object.assign(entry.chat, { head, updatedAt, messageCount: entry.messages.length });
      return { ok: true };
    },
    setHead(userId, chatId, head, updatedAt, expected) {
      const entry = get(userId, chatId);
      if (expected !== undefined && entry.chat.head !== expected) return false;
      Object.assign(entry.chat, { head, updatedAt });
      return true;
    },
    deleteChat(userId, chatId) {
      return find(userId, chatId) !== undefined && entries.delete(chatId);
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
  };
}

function copyChat(chat: ChatRecord): ChatRecord {
  return { ...chat, options: structuredClone(chat.options) };
}

function copyMessage(m: Message): Message {
  const copy = { ...m };
  if (m.toolCalls) copy.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  if (m.covers) copy.covers = { ...m.covers };
  return copy;
}
