// A user's erasure and a prune's batch on PostgreSQL, each one statement (so one transaction):
// deleting a chat's row deletes its messages and embeddings by the foreign keys. The old row
// versions stay until VACUUM, as after a delete (postgres.ts).
import { checkIds } from "./checks.js";
import { checkPruneQuery } from "./call-checks.js";
import { fromText, toText } from "./postgres-rows.js";
import type { Statement } from "./postgres-sql.js";
import type { ErasedUser, PruneBatch, PrunedChat } from "./types.js";

type Query = (statement: Statement, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** The statements of erasure and prunes over tables named with prefix `p`. */
export function retentionStatements(p: string) {
  const rows = (name: string, text: string): Statement => ({ name: `${p}${name}`, text, rowMode: "array" });
  return {
    // (with their working memories: their own and every chat's; a data-modifying WITH always runs)
    eraseUser: rows(
      "erase_user",
      `WITH gone AS (DELETE FROM ${p}chats WHERE user_id = $1 RETURNING message_count),
      memory AS (DELETE FROM ${p}memory WHERE user_id = $1), heads AS (DELETE FROM ${p}memory_heads WHERE user_id = $1)
      SELECT count(*)::integer, coalesce(sum(message_count), 0)::bigint FROM gone`,
    ),
    // From the user $1 on, the next $2 users (one index seek each: a loose scan), their chats past
    // the newest $3 or idle since before $4, at most $2 of them (the first users' first), deleted
    // where their update time is still the one read; then where the next batch starts: the last
    // user picked when the batch is full (it may hold more), else the user after those looked at.
    prune: rows(
      "prune",
      `WITH RECURSIVE u (user_id, n) AS (
        SELECT (SELECT user_id FROM ${p}chats WHERE user_id >= $1 ORDER BY user_id LIMIT 1), 1
        UNION ALL
        SELECT (SELECT c.user_id FROM ${p}chats c WHERE c.user_id > u.user_id ORDER BY c.user_id LIMIT 1), u.n + 1
        FROM u WHERE u.user_id IS NOT NULL AND u.n <= $2),
      ranked AS (
        SELECT c.user_id, c.id, c.updated_at,
          row_number() OVER (PARTITION BY c.user_id ORDER BY c.updated_at DESC, c.created_at DESC, c.id DESC) AS rank
        FROM ${p}chats c WHERE c.user_id IN (SELECT user_id FROM u WHERE n <= $2)),
      picked AS (
        SELECT user_id, id, updated_at FROM ranked
        WHERE ($3::integer IS NOT NULL AND rank > $3) OR ($4::double precision IS NOT NULL AND updated_at < $4)
        ORDER BY user_id, updated_at LIMIT $2),
      gone AS (
        DELETE FROM ${p}chats c USING picked p WHERE c.user_id = p.user_id AND c.id = p.id AND c.updated_at = p.updated_at
        RETURNING c.user_id, c.id, c.updated_at, c.message_count),
      memory AS (DELETE FROM ${p}memory m USING gone g WHERE m.user_id = g.user_id AND m.scope = g.id),
      heads AS (DELETE FROM ${p}memory_heads h USING gone g WHERE h.user_id = g.user_id AND h.scope = g.id)
      SELECT 0, user_id, id, updated_at, message_count FROM gone
      UNION ALL SELECT 1, user_id, NULL, NULL, NULL FROM u WHERE n = $2 + 1 AND user_id IS NOT NULL
      UNION ALL SELECT 2, max(user_id), NULL, count(*), NULL FROM picked`,
    ),
  };
}

export type RetentionStatements = ReturnType<typeof retentionStatements>;

/** Store.eraseUser on PostgreSQL. */
export async function eraseUserRows(query: Query, rt: RetentionStatements, userId: string): Promise<ErasedUser> {
  checkIds(userId, undefined, true);
  const [chats, messages] = (await query(rt.eraseUser, [toText(userId)])).rows[0] as [number, string];
  return { chats, messages: Number(messages) };
}

/** Store.pruneChats on PostgreSQL. */
export async function pruneRows(query: Query, rt: RetentionStatements, q: unknown): Promise<PruneBatch> {
  const { limit, keepNewest, idleBefore, after } = checkPruneQuery(q);
  const r = await query(rt.prune, [toText(after ?? ""), limit, keepNewest ?? null, idleBefore ?? null]);
  const removed: PrunedChat[] = [];
  let following: string | null = null;
  let full = false;
  let lastPicked: string | null = null;
  for (const [kind, user, id, updated, count] of r.rows as [number, string | null, string, number, number][]) {
    if (kind === 0)
      removed.push({ userId: fromText(user!), chatId: fromText(id), updatedAt: updated, messageCount: count });
    else if (kind === 1) following = user;
    else {
      full = Number(updated) === limit;
      lastPicked = user;
    }
  }
  const next = full ? lastPicked : following;
  return { removed, next: next === null ? null : fromText(next) };
}
