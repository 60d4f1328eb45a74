// What the stores of ctxloom offer the Loom beyond the Store interface, for speed, under symbols
// no other store has: the public Store and LoadedChat types hold only what a store is. A store
// of a user's never has them; the Loom then takes the Store's own path.
import { MessageColumns } from "./columns.js";
import type { ChatRecord, LoadedChat, Store } from "./types.js";

/** The key of a built-in store's fast paths (StoreInternals). */
export const INTERNAL: unique symbol = Symbol("ctxloom.store.internal");

/** A built-in store's fast paths, at `store[INTERNAL]`. */
export interface StoreInternals {
  /**
   * For a store that keeps messages in this process (the memory store): the chat's messages as
   * the store holds them, read-only. The Loom then reads texts from them and keeps no copy of its
   * own, opens every chat it is asked for (nothing to unload) and sends no append keys (the store
   * answers every append). Must reflect every acknowledged append at once.
   */
  resident(userId: string, chatId: string): MessageColumns | undefined;
}

/** A store with fast paths. */
export interface InternalStore extends Store {
  readonly [INTERNAL]: StoreInternals;
}

/** The store's fast paths, when it is one of ctxloom's that has them. */
export function internalsOf(store: Store): StoreInternals | undefined {
  const internals = (store as Partial<InternalStore>)[INTERNAL];
  return typeof internals?.resident === "function" ? internals : undefined;
}

/** The key of a LoadedChat's columns (a store that reads messages so: no object per message, texts kept as UTF-8). */
const COLUMNS: unique symbol = Symbol("ctxloom.store.columns");

/**
 * A LoadedChat over columns: a Loom opening the chat reads these; `messages` is made from them once, when first read.
 */
export function loadedColumns(chat: ChatRecord, columns: MessageColumns): LoadedChat {
  let messages: LoadedChat["messages"] | undefined;
  return {
    chat,
    [COLUMNS]: columns,
    get messages() {
      return (messages ??= columns.slice(0));
    },
  } as LoadedChat;
}

/** The columns a store loaded a chat in (loadedColumns), or undefined for a plain LoadedChat. */
export function columnsOf(loaded: LoadedChat): MessageColumns | undefined {
  const columns = (loaded as { [COLUMNS]?: unknown })[COLUMNS];
  return columns instanceof MessageColumns ? columns : undefined;
}
