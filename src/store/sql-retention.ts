// A user's erasure and a prune's batch on the SQLite-dialect stores (a file, a Durable Object),
// on the kit's tables: each in one write transaction, the chats' rows checked against the
// transaction's own view of them (a batch of appends writes a chats row at commit), so that a
// chat written meanwhile is not removed for a time it no longer has.
import type { SqlConnection, Transactions } from "./sql-connection.js";
import type { Statements } from "./sql-statements.js";
import type { ErasedUser, PruneBatch, PrunedChat, PruneQuery } from "./types.js";

export type RetentionStatements = ReturnType<typeof retentionStatements>;

/** The statements of erasure and prunes over tables named `${p}chats`, `${p}messages`, ... */
export function retentionStatements(p: string) {
  const [users, chats, messages, embeddings, memory] = [
    `${p}users`,
    `${p}chats`,
    `${p}messages`,
    `${p}embeddings`,
    `${p}memory`,
  ];
  const ofUser = `chat IN (SELECT key FROM ${chats} WHERE user = ?)`;
  return {
    userChats: `SELECT id FROM ${chats} WHERE user = ?`,
    eraseEmbeddings: `DELETE FROM ${embeddings} WHERE ${ofUser}`,
    eraseMessages: `DELETE FROM ${messages} WHERE ${ofUser}`,
    eraseNumbers: `DELETE FROM ${p}message_numbers WHERE ${ofUser}`,
    eraseChats: `DELETE FROM ${chats} WHERE user = ?`,
    eraseUser: `DELETE FROM ${users} WHERE id = ?`,
    eraseMemory: `DELETE FROM ${memory} WHERE user = ?`, // their own memory and every chat's
    // The users, one index seek each (the chats' index on (user, updated, created) leads with the user).
    firstUser: `SELECT user FROM ${chats} WHERE user >= ? ORDER BY user LIMIT 1`,
    nextUser: `SELECT user FROM ${chats} WHERE user > ? ORDER BY user LIMIT 1`,
    // A user's chats past the newest n (the list's order), and those idle: both on that index.
    beyondNewest:
      `SELECT key, id, updated, message_count FROM ${chats} WHERE user = ? ORDER BY updated DESC, ` +
      `created DESC, id DESC LIMIT ? OFFSET ?`,
    idle:
      `SELECT key, id, updated, message_count FROM ${chats} WHERE user = ? AND updated < ? ` +
      `ORDER BY updated LIMIT ?`,
  };
}

type Candidate = [key: number, id: string, updated: number, messageCount: number];

/**
 * Deletes every chat of the user with its messages, embeddings, keys and chunks of numbers, the user's row and working
 * memories (their own and every chat's), in
 * one write transaction; what it removed (the message counts as the transaction sees them).
 */
export function eraseUserRows(
  db: SqlConnection,
  rt: RetentionStatements,
  tx: Transactions,
  userId: string,
): ErasedUser {
  return tx.write("erasing a user", () => {
    const ids = db.column(rt.userChats, userId) as string[];
    let messages = 0;
    for (const id of ids) messages += tx.find(userId, id)?.size ?? 0;
    tx.atomic(() => {
      db.run(rt.eraseEmbeddings, userId);
      db.run(rt.eraseMessages, userId);
      db.run(rt.eraseNumbers, userId);
      db.run(rt.eraseChats, userId);
      db.run(rt.eraseUser, userId);
      db.run(rt.eraseMemory, userId);
    });
    for (const id of ids) tx.forget(userId, id);
    return { chats: ids.length, messages };
  });
}

/** One batch of a prune (Store.pruneChats), the query checked; its cursor is the user the next batch starts at. */
export function pruneRows(
  db: SqlConnection,
  st: Statements,
  rt: RetentionStatements,
  tx: Transactions,
  q: PruneQuery,
): PruneBatch {
  return tx.write("pruning chats", () => {
    const removed: PrunedChat[] = [];
    let user = db.get(rt.firstUser, q.after ?? "")?.[0] as string | undefined;
    for (let seen = 0; user !== undefined && seen < q.limit; seen++) {
      const left = () => q.limit - removed.length;
      if (q.keepNewest !== undefined) remove(db.all(rt.beyondNewest, user, left(), q.keepNewest) as Candidate[], user);
      if (q.idleBefore !== undefined && left() > 0)
        remove(db.all(rt.idle, user, q.idleBefore, left()) as Candidate[], user);
      if (left() === 0) return { removed, next: user }; // it may hold more
      user = db.get(rt.nextUser, user)?.[0] as string | undefined;
    }
    return { removed, next: user ?? null };

    function remove(candidates: Candidate[], userId: string): void {
      for (const [key, id, updated, messageCount] of candidates) {
        const now = tx.find(userId, id);
        if (!now || now.updated !== updated) continue; // written in this transaction since its row was: kept
        tx.atomic(() => {
          db.run(st.deleteEmbeddings, key);
          db.run(st.deleteMessages, key);
          db.run(st.deleteNumbers, key);
          db.run(st.deleteChat, key);
          db.run(st.deleteMemory, userId, id); // the chat's own memory
        });
        tx.forget(userId, id);
        removed.push({ userId, chatId: id, updatedAt: updated, messageCount: Math.max(messageCount, now.size) });
      }
    }
  });
}
