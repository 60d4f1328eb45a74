/** The Loom's open chats as a user's list reaches them: the cache's interface and its key. */
import type { Chat } from "./chat.js";

/** The Loom's open chats: a chat loading or loaded, by `openKey(userId, chatId)`, least recently used first. */
export interface ChatCache {
  get(key: string): Promise<Chat> | undefined;
  /** The chat under `key` when it has finished loading. */
  loaded(key: string): Chat | undefined;
  /** Registers a chat (loading or loaded) as the most recently used. */
  set(key: string, loading: Promise<Chat>): void;
  delete(key: string, loading?: Promise<Chat>): void;
  /** A chat unloaded earlier came back into memory through a reference its user kept. */
  woke(chat: Chat): void;
  /** Ends every chat of the user held here (their changes called so far land first); the store is not written. */
  retireUser(userId: string): Promise<void>;
}

export const openKey = (userId: string, chatId: string): string => `${userId}\u0000${chatId}`;
