// What the Store's calls take and answer beyond a chat's record (src/store/types.ts holds the
// Store itself): the requests of appendMessage, setHead, putEmbeddings and redactMessages, what an
// append, an erase and a prune answer, and the embedder and rows of a set of vectors.
import type { Message } from "../message.js";

/** What `Store.redactMessages` writes for one message: its new content, and its tool calls when it has some. */
export interface MessageRedaction {
  /** The message's id. */
  id: number;
  /** Its new content (its parts are dropped). */
  content: string;
  /** Its new tool calls, when it has some (ids and names kept, arguments erased). */
  toolCalls?: Message["toolCalls"];
  /** Its new token count (what it costs as redacted; a summary redone: the new text's). */
  tokens: number;
}

/**
 * What a conditional append answers. `ok: false` means nothing was written, because:
 * - `size`: another writer got there first: the chat already holds `size` messages (so
 *   `message.id` was not the next id). The Loom then loads the messages it has not seen and
 *   retries with the next id.
 * - `existing`: the chat already holds a message appended under the same key (an earlier
 *   attempt of this append that did land): here it is, as stored.
 */
export type AppendResult = { ok: true } | { ok: false; size: number } | { ok: false; existing: Message };

/** What `Store.eraseUser` and `user(id).erase()` removed. */
export interface ErasedUser {
  /** The user's chats removed. */
  chats: number;
  /** Their messages (summaries included) removed. */
  messages: number;
}

/** One batch of `Store.pruneChats`. At least one of `idleBefore` and `keepNewest`. */
export interface PruneQuery {
  /** Chats whose `updatedAt` is before this time (ms since the epoch) are removed. */
  idleBefore?: number;
  /** Per user, the chats past the newest `keepNewest` (by `updatedAt`, as the list orders them) are removed. */
  keepNewest?: number;
  /** The most chats this batch removes (1 to 10,000). */
  limit: number;
  /** Where the previous batch stopped (its `next`); left out for the first. */
  after?: string;
}

/** A chat a prune removed. */
export interface PrunedChat {
  /** Its user. */
  userId: string;
  /** Its id. */
  chatId: string;
  /** When it was last written. */
  updatedAt: number;
  /** How many messages it held. */
  messageCount: number;
}

/** What one batch of `Store.pruneChats` removed, and where the next one starts (null: the prune is done). */
export interface PruneBatch {
  /** The chats this batch removed. */
  removed: PrunedChat[];
  /** Where the next batch starts (pass it as `after`); null when every user was gone through. */
  next: string | null;
}

/** What `Store.appendMessage` takes (see it). */
export interface AppendMessageRequest {
  /** The chat's user. */
  userId: string;
  /** The chat's id. */
  chatId: string;
  /** The message, its id the chat's next one when the append is to land. */
  message: Message;
  /** The head after the append (the message's id, or an earlier message's for a summary). */
  head: number;
  /** The chat's update time after the append (ms since the epoch). */
  updatedAt: number;
  /** The append's key across its retries, unique per chat; left out for none. */
  key?: string;
}

/** What `Store.setHead` takes (see it). */
export interface SetHeadRequest {
  /** The chat's user. */
  userId: string;
  /** The chat's id. */
  chatId: string;
  /** The new head: a message of the chat, or null for none. */
  head: number | null;
  /** The chat's update time after the move (ms since the epoch). */
  updatedAt: number;
  /** When given, a compare-and-set: the head moves only when the stored head equals this. */
  expected?: number | null;
}

/** What `Store.putEmbeddings` takes (see it). */
export interface PutEmbeddingsRequest {
  /** The chat's user. */
  userId: string;
  /** The chat's id. */
  chatId: string;
  /** The embedder that made the vectors. */
  embedder: EmbedderInfo;
  /** The vectors, of messages of the chat. */
  rows: EmbeddingRow[];
}

/** Which embedder produced a set of vectors: vectors of different embedders never mix. */
export interface EmbedderInfo {
  /** The embedder's name (with its model and settings: vectors of another name never mix). */
  name: string;
  /** The length of its vectors. */
  dimension: number;
}

/** One message's embedding. */
export interface EmbeddingRow {
  /** The message embedded. */
  messageId: number;
  /** Its vector, `dimension` numbers. */
  vector: Float32Array;
}
