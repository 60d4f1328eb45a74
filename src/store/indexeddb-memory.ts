// Working memories in the browser's store (indexeddb.ts): every record of every revision in the
// object store "memory" (indexeddb-db.ts), keyed [user, scope, revision, path]: a memory (the
// user's own, scope "", or a chat's, scope its id) is one key range, its newest revision the last
// key. A write reads the revision and adds its records in one read-write transaction, which the
// browser runs one at a time, across tabs too: of two writes made on one revision, one lands and
// the other reads the revision it made. Arguments are checked by the policy every store runs
// (memory/checks.ts).
import { checkLoad, checkMemoryIds, checkQuery, checkWrite, copyRecord } from "../memory/checks.js";
import type { MemoryAuthor, MemoryKind, MemoryRecord, MemoryStore, WriteMemoryRequest } from "../memory/types.js";
import { unknownChat } from "./checks.js";
import { checkRequest } from "./call-checks.js";
import { done, prefixRange } from "./indexeddb-db.js";

/** A record as the store keeps it. */
interface MemoryRow {
  user: string;
  scope: string;
  revision: number;
  path: string;
  kind: MemoryKind;
  content: string;
  schema: string | null;
  by: MemoryAuthor;
  chatId: string | null;
  at: number;
}

/** Runs `fn` in one transaction (indexeddb.ts's `run`). */
type Run = <T>(what: string, mode: IDBTransactionMode, fn: (tx: IDBTransaction) => Promise<T>) => Promise<T>;

const rowOf = (userId: string, scope: string, r: MemoryRecord): MemoryRow => ({
  user: userId,
  scope,
  ...copyRecord(r),
});
/** A row's record: exactly the record's fields (the row's user and scope left out). */
const recordOf = (r: MemoryRow): MemoryRecord => copyRecord(r);
const scopeOf = (chatId: string | null): string => chatId ?? "";

/** A memory's newest record (its revision's), or undefined for a memory never written. */
async function newest(tx: IDBTransaction, userId: string, scope: string): Promise<MemoryRow | undefined> {
  const cursor = await done(tx.objectStore("memory").openCursor(prefixRange(userId, scope), "prev"));
  return cursor?.value as MemoryRow | undefined;
}

/** Each path's newest record, in path order: from the last path back, one seek per path (the index by path). */
function latest(tx: IDBTransaction, userId: string, scope: string): Promise<MemoryRow[]> {
  const out: MemoryRow[] = [];
  const request = tx.objectStore("memory").index("byPath").openCursor(prefixRange(userId, scope), "prev");
  return new Promise((resolve, reject) => {
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(out.reverse());
      const row = cursor.value as MemoryRow;
      out.push(row);
      cursor.continue([userId, scope, row.path]); // below every key of this path: the previous path's newest
    };
    request.onerror = () => reject(request.error);
  });
}

/** The browser store's memory methods; `where` names it in errors. */
export function indexedDBMemory(run: Run, where: string) {
  /** UNKNOWN_CHAT for a chat's memory when the user has no such chat. */
  const owned = async (tx: IDBTransaction, userId: string, chatId: string | null) => {
    if (chatId === null) return;
    if ((await done(tx.objectStore("chats").getKey([userId, chatId]))) === undefined)
      throw unknownChat(where, userId, chatId);
  };
  return {
    loadMemory(userId, chatId, known) {
      checkLoad(userId, chatId, known);
      return run("loading a memory", "readonly", async (tx) => {
        await owned(tx, userId, chatId);
        const last = await newest(tx, userId, scopeOf(chatId));
        const [revision, at] = last ? [last.revision, last.at] : [0, 0];
        if (revision === known) return { revision, at };
        return { revision, at, records: (await latest(tx, userId, scopeOf(chatId))).map(recordOf) };
      });
    },
    loadMemoryHistory(userId, chatId, query) {
      const q = checkQuery(userId, chatId, query);
      return run("reading a memory's history", "readonly", async (tx) => {
        await owned(tx, userId, chatId);
        const [scope, after, upTo] = [scopeOf(chatId), q.after ?? 0, q.upTo ?? Infinity];
        if (upTo <= after) return [];
        // Revisions after `after` up to `upTo` ([] sorts after every path), in key order: revision, then path.
        const memory = tx.objectStore("memory");
        const rows =
          q.path === undefined
            ? memory.getAll(IDBKeyRange.bound([userId, scope, after, []], [userId, scope, upTo, []], true), q.limit)
            : memory
                .index("byPath")
                .getAll(
                  IDBKeyRange.bound([userId, scope, q.path, after], [userId, scope, q.path, upTo], true),
                  q.limit,
                );
        return ((await done(rows)) as MemoryRow[]).map(recordOf);
      });
    },
    writeMemory(request) {
      const { userId, chatId, expected, records } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
      const rows = checkWrite(userId, chatId, expected, records).map((r) => rowOf(userId, scopeOf(chatId), r));
      return run("writing a memory", "readwrite", async (tx) => {
        await owned(tx, userId, chatId);
        const revision = (await newest(tx, userId, scopeOf(chatId)))?.revision ?? 0;
        if (revision !== expected) return { ok: false as const, revision };
        const store = tx.objectStore("memory");
        for (const row of rows) store.add(row);
        return { ok: true as const };
      });
    },
    deleteMemory(userId, chatId) {
      checkMemoryIds(userId, chatId, true);
      return run("deleting a memory", "readwrite", async (tx) => {
        const range = chatId === undefined ? prefixRange(userId) : prefixRange(userId, scopeOf(chatId));
        const store = tx.objectStore("memory");
        if ((await done(store.getKey(range))) === undefined) return false;
        store.delete(range);
        return true;
      });
    },
  } satisfies MemoryStore;
}
