// The embeddings of a SQLite-dialect store (SqlStore's putEmbeddings, loadEmbeddings and
// clearEmbeddings): vectors kept per chat, message and embedder, as bytes, through the store's
// transactions. Arguments are checked here (the policy of checks.ts).
import { checkIds } from "./checks.js";
import { checkEmbedder, checkEmbeddingIds, checkEmbeddingRows } from "./call-checks.js";
import type { SqlConnection, Transactions } from "./sql-connection.js";
import type { Corrupt } from "./sql-rows.js";
import type { Statements } from "./sql-statements.js";
import type { EmbedderInfo, EmbeddingRow } from "./types.js";
import { asBytes, vectorFromBytes, vectorToBytes } from "./vectors.js";

/** What the embeddings' calls run on: the store's connection, statements and transactions. */
export interface SqlEmbeddingsOn {
  db: SqlConnection;
  st: Statements;
  tx: Transactions;
  corrupt: Corrupt;
}

/** Store.putEmbeddings: the rows replace the message's vectors of that embedder, in one savepoint. */
export function putEmbeddingRows(
  on: SqlEmbeddingsOn,
  userId: string,
  chatId: string,
  embedder: EmbedderInfo,
  rows: EmbeddingRow[],
): void {
  const { db, st, tx } = on;
  checkIds(userId, chatId);
  const e = checkEmbedder(embedder);
  checkEmbeddingRows(rows, e.dimension);
  tx.write("storing embeddings", () => {
    const c = tx.state(userId, chatId);
    checkEmbeddingIds(rows, c.size, chatId);
    tx.atomic(() => {
      for (const row of rows)
        db.run(st.putEmbedding, c.key, row.messageId, e.name, e.dimension, vectorToBytes(row.vector));
    });
  });
}

/** Store.loadEmbeddings: the chat's vectors of that embedder, in message id order ([] for no such chat). */
export function loadEmbeddingRows(
  on: SqlEmbeddingsOn,
  userId: string,
  chatId: string,
  embedder: EmbedderInfo,
): EmbeddingRow[] {
  const { db, st, tx, corrupt } = on;
  checkIds(userId, chatId);
  const e = checkEmbedder(embedder);
  return tx.read("loading embeddings", () => {
    const found = tx.find(userId, chatId);
    if (!found) return [];
    return db.all(st.embeddings, found.key, e.name, e.dimension).map(([messageId, blob]) => {
      const bytes = asBytes(blob);
      if (bytes?.byteLength !== e.dimension * 4) {
        throw corrupt(
          `chat ${chatId}'s embedding of message ${String(messageId)} holds ${bytes?.byteLength ?? "no"} bytes, ` +
            `not ${e.dimension} floats`,
        );
      }
      return { messageId: messageId as number, vector: vectorFromBytes(bytes) };
    });
  });
}

/** Store.clearEmbeddings: the chat's vectors, or the user's when `chatId` is left out. */
export function clearEmbeddingRows(on: SqlEmbeddingsOn, userId: string, chatId?: string): void {
  const { db, st, tx } = on;
  checkIds(userId, chatId, true);
  tx.write("clearing embeddings", () => {
    if (chatId === undefined) {
      db.run(st.deleteUserEmbeddings, userId);
    } else {
      const found = tx.find(userId, chatId);
      if (found) db.run(st.deleteEmbeddings, found.key);
    }
  });
}
