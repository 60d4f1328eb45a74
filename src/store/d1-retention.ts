// A user's erasure and a prune's batch on D1, on the kit's tables (sql-retention.ts says the same
// for a file and a Durable Object): the erasure is one batch; a prune's batch reads its candidates
// in one, then deletes in another those whose update time is still the one read (a chat written
// between the two is kept), and reads back what went.
import { checkIds } from "./checks.js";
import { checkPruneQuery } from "./call-checks.js";
import type { D1Statements } from "./d1-statements.js";
import type { D1Batch } from "./d1-types.js";
import type { RetentionStatements } from "./sql-retention.js";
import type { ErasedUser, PruneBatch } from "./types.js";

/** Store.eraseUser on D1: the counts, then every row of the user, in one batch. */
export async function eraseUserD1(
  db: D1Batch,
  d1: D1Statements,
  rt: RetentionStatements,
  userId: string,
): Promise<ErasedUser> {
  checkIds(userId, undefined, true);
  const [counts] = await db.batch([
    { sql: d1.eraseCounts, params: [userId] },
    ...[rt.eraseEmbeddings, rt.eraseMessages, rt.eraseNumbers, rt.eraseChats, rt.eraseUser, rt.eraseMemory].map(
      (sql) => ({ sql, params: [userId] }),
    ),
  ]);
  const [chats, messages] = counts![0] as [number, number];
  return { chats, messages };
}

/** Store.pruneChats on D1. */
export async function pruneD1(db: D1Batch, d1: D1Statements, query: unknown): Promise<PruneBatch> {
  const q = checkPruneQuery(query);
  const from = [q.after ?? "", q.limit];
  const [candidates, following] = await db.batch([
    { sql: d1.pruneCandidates, params: [...from, q.keepNewest ?? null, q.idleBefore ?? null] },
    { sql: d1.pruneNext, params: from },
  ]);
  const picked = candidates as [number, string, string, number, number][];
  const full = picked.length === q.limit;
  const next = full ? picked[picked.length - 1]![1] : ((following![0]?.[0] as string | undefined) ?? null);
  if (picked.length === 0) return { removed: [], next };
  const json = JSON.stringify(picked.map(([key, , , updated]) => [key, updated]));
  const done = await db.batch(
    [d1.pruneMemory, d1.pruneEmbeddings, d1.pruneMessages, d1.pruneNumbers, d1.pruneChats].map((sql) => ({
      sql,
      params: [json],
    })),
  );
  const removed = (done[4] as [string, string, number, number][]).map(([userId, chatId, updatedAt, messageCount]) => ({
    userId,
    chatId,
    updatedAt,
    messageCount,
  }));
  return { removed, next };
}
