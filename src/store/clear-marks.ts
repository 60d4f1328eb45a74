// Recall's clear marks (Store.markEmbeddingsCleared, loadEmbeddingsCleared) in the built-in
// stores: kept where releases before these methods kept them, as the chat's one embedding row of a
// reserved embedder ("ctxloom:recall-cleared", dimension 1) at the mark's message id, so that the
// marks stores already hold read back as they are, with no migration and no schema change.
import { checkInteger } from "../errors.js";
import { checkIds } from "./checks.js";
import type { Awaitable, EmbedderInfo, Store } from "./types.js";

/** The reserved embedder whose row marks a clear (never an embedder's: its name is ctxloom's). */
export const CLEAR_MARK: EmbedderInfo = Object.freeze({ name: "ctxloom:recall-cleared", dimension: 1 });

type Embeddings = Pick<Store, "putEmbeddings" | "loadEmbeddings">;
type Marks = Required<Pick<Store, "markEmbeddingsCleared" | "loadEmbeddingsCleared">>;

/**
 * markEmbeddingsCleared over the store's own embeddings: the mark's row (marks at other ids stay: the greatest holds).
 */
export async function markCleared(store: Embeddings, userId: string, chatId: string, upTo: number): Promise<void> {
  checkIds(userId, chatId);
  checkInteger(upTo, "upTo", 0);
  await store.putEmbeddings({
    userId,
    chatId,
    embedder: CLEAR_MARK,
    rows: [{ messageId: upTo, vector: new Float32Array(1) }],
  });
}

/** loadEmbeddingsCleared over the store's own embeddings: the greatest mark's id, or null. */
export async function loadCleared(store: Embeddings, userId: string, chatId: string): Promise<number | null> {
  checkIds(userId, chatId);
  const rows = await store.loadEmbeddings(userId, chatId, CLEAR_MARK);
  return rows.length === 0 ? null : Math.max(...rows.map((r) => r.messageId));
}

/** `store` with the two methods of clear marks over its own embeddings. */
export function withClearMarks<S extends Embeddings>(store: S): S & Marks {
  const marks: Marks = {
    markEmbeddingsCleared: (userId, chatId, upTo): Awaitable<void> => markCleared(store, userId, chatId, upTo),
    loadEmbeddingsCleared: (userId, chatId): Awaitable<number | null> => loadCleared(store, userId, chatId),
  };
  return Object.assign(store, marks);
}
