// What a prune removes of one user's chats (Store.pruneChats), for the stores that hold a user's
// records in hand (memory, the browser's): those past the newest `keepNewest` in the list's order,
// then those idle since before `idleBefore`, at most `limit`. The SQL stores say the same in SQL.
import type { ChatRecord, PruneQuery } from "./types.js";
import { newestFirst } from "./order.js";

/** The records of one user's chats a prune removes, at most `limit`, past the newest first. */
export function pruneCandidates<T extends Pick<ChatRecord, "updatedAt" | "createdAt" | "id">>(
  chats: readonly T[],
  query: PruneQuery,
  limit: number,
): T[] {
  const out: T[] = [];
  const { keepNewest, idleBefore } = query;
  const sorted = keepNewest !== undefined && chats.length > keepNewest ? [...chats].sort(newestFirst) : undefined;
  const beyond = new Set(sorted?.slice(keepNewest));
  for (const c of sorted?.slice(keepNewest) ?? []) {
    if (out.length === limit) return out;
    out.push(c);
  }
  if (idleBefore === undefined) return out;
  for (const c of chats) {
    if (out.length === limit) return out;
    if (c.updatedAt < idleBefore && !beyond.has(c)) out.push(c);
  }
  return out;
}

/** The user ids a prune goes through from `after` (inclusive), in JavaScript's string order. */
export function usersFrom(sorted: readonly string[], after: string | undefined): number {
  if (after === undefined) return 0;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
