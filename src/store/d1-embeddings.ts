// The D1 store's embeddings (D1Ops's putEmbeddings, loadEmbeddings and clearEmbeddings): vectors
// cross D1 as hex (its BLOBs come back as arrays of numbers), written in one batch that reads back
// whether the chat holds their messages.
import { checkIds, unknownChat } from "./checks.js";
import { checkEmbedder, checkEmbeddingIds, checkEmbeddingRows } from "./call-checks.js";
import type { D1Statements } from "./d1-statements.js";
import type { D1Batch } from "./d1-types.js";
import { jsonChunks, type D1Settings } from "./d1-rows.js";
import type { Statements } from "./sql-statements.js";
import type { EmbedderInfo, EmbeddingRow } from "./types.js";
import { vectorFromBytes, vectorToBytes } from "./vectors.js";

/** What the embeddings' calls run on: the store's database, statements and settings. */
export interface D1EmbeddingsOn {
  db: D1Batch;
  st: Statements;
  d1: D1Statements;
  settings: D1Settings;
}

/** Hex of bytes, and back (vectors cross D1 as hex: its BLOBs come back as arrays of numbers). */
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
function fromHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** D1Ops.putEmbeddings: the rows as hex, in one batch that says whether the chat holds their messages. */
export async function putD1Embeddings(
  on: D1EmbeddingsOn,
  userId: string,
  chatId: string,
  embedder: EmbedderInfo,
  rows: EmbeddingRow[],
): Promise<void> {
  const { db, d1, settings } = on;
  checkIds(userId, chatId);
  const e = checkEmbedder(embedder);
  checkEmbeddingRows(rows, e.dimension);
  const last = rows.length === 0 ? -1 : Math.max(...rows.map((r) => r.messageId));
  const puts = jsonChunks(rows.map((r) => [r.messageId, hex(vectorToBytes(r.vector))])).map((json) => ({
    sql: d1.putEmbeddings,
    params: [e.name, e.dimension, json, userId, chatId, last],
  }));
  const done = await db.batchWith([...puts, { sql: d1.size, params: [userId, chatId] }]);
  const row = done[done.length - 1]!.rows[0];
  if (row === undefined) throw unknownChat(settings.where, userId, chatId);
  checkEmbeddingIds(rows, row[0] as number, chatId); // a message the chat lacks: nothing was written
}

/** D1Ops.loadEmbeddings: the chat's vectors of that embedder, in message id order. */
export async function loadD1Embeddings(
  on: D1EmbeddingsOn,
  userId: string,
  chatId: string,
  embedder: EmbedderInfo,
): Promise<EmbeddingRow[]> {
  const { db, d1, settings } = on;
  checkIds(userId, chatId);
  const e = checkEmbedder(embedder);
  const rows = await db.rows(d1.embeddings, [userId, chatId, e.name, e.dimension]);
  return rows.map(([messageId, text]) => {
    const bytes = typeof text === "string" && /^(?:[0-9A-F]{2})*$/.test(text) ? fromHex(text) : undefined;
    if (bytes?.byteLength !== e.dimension * 4) {
      throw settings.corrupt(
        `chat ${chatId}'s embedding of message ${String(messageId)} holds ${bytes?.byteLength ?? "no"} bytes, not ` +
          `${e.dimension} floats`,
      );
    }
    return { messageId: messageId as number, vector: vectorFromBytes(bytes) };
  });
}

/** D1Ops.clearEmbeddings: the chat's vectors, or the user's when `chatId` is left out. */
export async function clearD1Embeddings(on: D1EmbeddingsOn, userId: string, chatId?: string): Promise<void> {
  const { db, st, d1 } = on;
  checkIds(userId, chatId, true);
  if (chatId === undefined) await db.batch([{ sql: st.deleteUserEmbeddings, params: [userId] }]);
  else await db.batch([{ sql: d1.clearChatEmbeddings, params: [userId, chatId] }]);
}
