import type { Message } from "../tree/message.js";
import type { ChatRecord, LoadedChat, Store } from "./types.js";

interface Entry {
  chat: ChatRecord;
  messages: Message[];
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
  return {
    name: "memory",
    createChat(chat) {
      entries.set(chat.id, { chat: copyChat(chat), messages: [] });
    },
    listChats(userId) {
      return [...entries.values()]
        .filter((e) => e.chat.userId === userId)
        .map((e) => copyChat(e.chat))
        .sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
    },
    loadChat(userId, chatId): LoadedChat | undefined {
      const entry = find(userId, chatId);
      return entry && { chat: copyChat(entry.chat), messages: entry.messages.map(copyMessage) };
    },
    appendMessage(userId, chatId, message, head, updatedAt) {
      const entry = find(userId, chatId);
      if (!entry) throw new Error(`memory store: no chat ${chatId}`);
      entry.messages.push(copyMessage(message));
      Object.assign(entry.chat, { head, updatedAt, messageCount: entry.messages.length });
    },
    setHead(userId, chatId, head, updatedAt) {
      const entry = find(userId, chatId);
      if (!entry) throw new Error(`memory store: no chat ${chatId}`);
      Object.assign(entry.chat, { head, updatedAt });
    },
    deleteChat(userId, chatId) {
      return find(userId, chatId) !== undefined && entries.delete(chatId);
    },
    close() {},
  };
}

function copyChat(chat: ChatRecord): ChatRecord {
  return { ...chat, options: structuredClone(chat.options) };
}

function copyMessage(m: Message): Message {
  const copy = { ...m };
  if (m.toolCalls) copy.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  return copy;
}
