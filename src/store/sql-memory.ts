// Working memories in the SQLite-dialect stores (a file, a Durable Object): the kit's memory
// table (sql-schema.ts, version 4), written only under the store's write transaction, so that a
// memory's revision read there is the one the write lands on. Arguments are checked by the policy
// every store runs (memory/checks.ts).
import { checkLoad, checkMemoryIds, checkQuery, checkWrite } from "../memory/checks.js";
import type { MemoryQuery, MemoryRecord, MemoryState, MemoryStore, MemoryWriteResult } from "../memory/types.js";
import { unknownChat } from "./checks.js";
import { recordOf, recordValues, scopeOf } from "./memory-rows.js";
import type { SqlConnection, Transactions } from "./sql-connection.js";
import { corruptIn, type SqlPlace } from "./sql-errors.js";
import type { Statements } from "./sql-statements.js";
import type { SyncStore } from "./sql-store.js";

/** SQLite's "no limit". */
const ALL = -1;

/**
 * The memory methods, synchronous; writeMemory with the Store's request spread (the store's wrapper takes the request).
 */
type SyncMemory = Pick<SyncStore, Exclude<keyof MemoryStore, "writeMemory">> & {
  writeMemory(userId: string, chatId: string | null, expected: number, records: MemoryRecord[]): MemoryWriteResult;
};

export class SqlMemory implements SyncMemory {
  readonly #db: SqlConnection;
  readonly #st: Statements;
  readonly #tx: Transactions;
  readonly #place: SqlPlace;

  constructor(db: SqlConnection, st: Statements, tx: Transactions, place: SqlPlace) {
    this.#db = db;
    this.#st = st;
    this.#tx = tx;
    this.#place = place;
  }

  loadMemory(userId: string, chatId: string | null, known?: number): MemoryState {
    checkLoad(userId, chatId, known);
    return this.#tx.read("loading a memory", () => {
      this.#owned(userId, chatId);
      const scope = scopeOf(chatId);
      const [revision, at] = (this.#db.get(this.#st.memoryNewest, userId, scope) ?? [0, 0]) as [number, number];
      if (revision === known) return { revision, at };
      return { revision, at, records: this.#records(this.#db.all(this.#st.memoryLatest, userId, scope)) };
    });
  }

  loadMemoryHistory(userId: string, chatId: string | null, query?: MemoryQuery): MemoryRecord[] {
    const q = checkQuery(userId, chatId, query);
    return this.#tx.read("reading a memory's history", () => {
      this.#owned(userId, chatId);
      const range = [q.after ?? 0, q.upTo ?? Number.MAX_SAFE_INTEGER, q.limit ?? ALL];
      const scope = scopeOf(chatId);
      const rows =
        q.path === undefined
          ? this.#db.all(this.#st.memoryHistory, userId, scope, ...range)
          : this.#db.all(this.#st.memoryPathHistory, userId, scope, q.path, ...range);
      return this.#records(rows);
    });
  }

  writeMemory(userId: string, chatId: string | null, expected: number, records: MemoryRecord[]): MemoryWriteResult {
    const rows = checkWrite(userId, chatId, expected, records).map((r) => recordValues(r));
    return this.#tx.write("writing a memory", () => {
      this.#owned(userId, chatId);
      const scope = scopeOf(chatId);
      const revision = this.#db.get(this.#st.memoryRevision, userId, scope)![0] as number;
      if (revision !== expected) return { ok: false, revision };
      this.#tx.atomic(() => {
        for (const row of rows) this.#db.run(this.#st.addMemory, userId, scope, ...row);
      });
      return { ok: true };
    });
  }

  deleteMemory(userId: string, chatId?: string | null): boolean {
    checkMemoryIds(userId, chatId, true);
    return this.#tx.write("deleting a memory", () => {
      const all = chatId === undefined;
      const held = all
        ? this.#db.get(this.#st.userMemoryHeld, userId)
        : this.#db.get(this.#st.memoryHeld, userId, scopeOf(chatId));
      if (held === undefined) return false;
      if (all) this.#db.run(this.#st.deleteUserMemory, userId);
      else this.#db.run(this.#st.deleteMemory, userId, scopeOf(chatId));
      return true;
    });
  }

  /** UNKNOWN_CHAT for a chat's memory when the user has no such chat. */
  #owned(userId: string, chatId: string | null): void {
    if (chatId !== null && !this.#tx.find(userId, chatId)) throw unknownChat(this.#place.where, userId, chatId);
  }

  #records(rows: unknown[][]): MemoryRecord[] {
    return rows.map((row) => recordOf(row, (what, cause) => corruptIn(this.#place, what, cause)));
  }
}
