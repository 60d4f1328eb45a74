import type { Message } from "../message.js";
import type { Store } from "../store/types.js";

export type { EmbedderInfo, EmbeddingRow } from "../store/types.js";

// What recall reads of the rest of ctxloom, declared here so that the recall room needs
// nothing of the chat room, and of the store only its types: a Loom's Store is a RecallStore, a chat's
// nodes are a RecallSource.

/** What recall needs of a store: the user's chats, their messages, vectors by embedder, and clear marks (optional). */
export type RecallStore = Pick<
  Store,
  | "listChats"
  | "loadChat"
  | "putEmbeddings"
  | "loadEmbeddings"
  | "clearEmbeddings"
  | "markEmbeddingsCleared"
  | "loadEmbeddingsCleared"
>;

/** A chat's messages as recall reads them: open chats through their nodes, others from the store. */
export interface MessageSource {
  readonly size: number;
  message(id: number): Message;
}

/** An open chat's messages, with its tree's parent links and roles (a chat's nodes). */
export interface RecallSource extends MessageSource {
  /** The parent of `id` (-1: a root). */
  parent(id: number): number;
  roleOf(id: number): Message["role"];
}

/** The chat a recall runs in. */
export interface RecallChat {
  userId: string;
  chatId: string;
  source: RecallSource;
  head: number;
}
