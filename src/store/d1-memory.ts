// Working memories in the D1 store, on the kit's memory table (sql-schema.ts, version 4). D1 has
// no interactive transaction: each call is one batch (one transaction), and a write says its
// compare-and-set in SQL. Its records go in, from JSON, only where the memory's newest revision is
// the one the write was made on and (for a chat's memory) the user has the chat; the same batch
// reads back whether they went in, and the revision and the chat otherwise. A write too large for
// one value of D1 (2 MB) goes in chunks: the first does the compare-and-set and marks one of its rows
// with a random token, the next go in only where that mark is, and the batch's last statement
// takes the mark off. Arguments are checked by the policy every store runs (memory/checks.ts).
import { checkLoad, checkMemoryIds, checkQuery, checkWrite } from "../memory/checks.js";
import type { MemoryRecord, MemoryState, MemoryStore, MemoryWriteResult, WriteMemoryRequest } from "../memory/types.js";
import { unknownChat } from "./checks.js";
import { checkRequest } from "./call-checks.js";
import type { D1Batch, D1Call } from "./d1-types.js";
import { RECORD_WRITE, recordOf, recordValues, scopeOf } from "./memory-rows.js";
import { utf8Length, type Corrupt } from "./sql-rows.js";
import type { Statements } from "./sql-statements.js";

/**
 * UTF-8 bytes of JSON per statement of a write (D1 holds a value of 2 MB at most; a record's JSON takes under 1 MB).
 */
const JSON_BYTES = 1_500_000;
/** Where the chat column sits in a record's values (RECORD_WRITE). */
const CHAT_COLUMN = 4;
/** RECORD_WRITE's values from a JSON array's elements (json_each's `j.value`). */
const FROM_JSON = RECORD_WRITE.split(", ")
  .map((_, i) => `j.value ->> ${i}`)
  .join(", ");

export type D1MemoryStatements = ReturnType<typeof d1MemoryStatements>;

/** The statements D1 runs on the memory table beside the kit's, for tables named with prefix `p`. ?1 user, ?2 scope. */
export function d1MemoryStatements(p: string) {
  const memory = `${p}memory`;
  const newest = `coalesce((SELECT max(revision) FROM ${memory} WHERE user = ?1 AND scope = ?2), 0)`;
  // A chat's memory needs the chat (its id is the scope); the user's own ("") none.
  const owned = `(?2 = '' OR EXISTS (SELECT 1 FROM ${p}chats WHERE user = ?1 AND id = ?2))`;
  return {
    owned: `SELECT ${owned} AS owned`,
    // The newest revision and its time; then each path's newest record, unless the revision is the one known (?3).
    newest: `SELECT revision, at FROM ${memory} WHERE user = ?1 AND scope = ?2 ORDER BY revision DESC LIMIT 1`,
    latest: `SELECT max(revision) AS revision, path, kind, author, chat, at, json_schema, content FROM ${memory}
      WHERE user = ?1 AND scope = ?2 AND ${newest} <> ?3 GROUP BY path ORDER BY path`,
    // The compare-and-set: the records of a JSON array (?3) only where the memory is at revision ?4 and owned.
    write: `INSERT INTO ${memory} (user, scope, ${RECORD_WRITE}) SELECT ?1, ?2, ${FROM_JSON} FROM json_each(?3) j
      WHERE ${newest} = ?4 AND ${owned}`,
    // A next chunk: only where the first chunk's marked row (revision ?4, path ?5, chat ?6) is.
    writeMore: `INSERT INTO ${memory} (user, scope, ${RECORD_WRITE}) SELECT ?1, ?2, ${FROM_JSON} FROM json_each(?3) j
      WHERE EXISTS (SELECT 1 FROM ${memory} WHERE user = ?1 AND scope = ?2 AND revision = ?4 AND path = ?5 AND chat = ?6)`,
    unmark:
      `UPDATE ${memory} SET chat = ?6 WHERE user = ?1 AND scope = ?2 AND revision = ?3 AND path = ?4 AND chat ` +
      `= ?5`,
    written: `SELECT ${newest} AS revision, ${owned} AS owned`,
  };
}

/** Records' values as JSON arrays, in texts of at most JSON_BYTES bytes (one statement each). */
function chunks(rows: unknown[][]): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    const bytes = utf8Length(text) + 1;
    if (parts.length > 0 && size + bytes > JSON_BYTES) {
      out.push(`[${parts.join(",")}]`);
      [parts, size] = [[], 2];
    }
    parts.push(text);
    size += bytes;
  }
  out.push(`[${parts.join(",")}]`);
  return out;
}

/** The D1 store's memory methods (`where` names it in errors). */
export function d1Memory(db: D1Batch, st: Statements, m: D1MemoryStatements, where: string, corrupt: Corrupt) {
  const records = (rows: unknown[][]): MemoryRecord[] => rows.map((row) => recordOf(row, corrupt));
  /** `reads` after the ownership check, in one batch: their rows; UNKNOWN_CHAT when a chat's memory has no chat. */
  const owned = async (userId: string, chatId: string | null, reads: D1Call[]): Promise<unknown[][][]> => {
    const [held, ...rows] = await db.batch([{ sql: m.owned, params: [userId, scopeOf(chatId)] }, ...reads]);
    if (held![0]![0] !== 1) throw unknownChat(where, userId, chatId!);
    return rows;
  };
  return {
    async loadMemory(userId, chatId, known): Promise<MemoryState> {
      checkLoad(userId, chatId, known);
      const ids = [userId, scopeOf(chatId)];
      const reads = [
        { sql: m.newest, params: ids },
        { sql: m.latest, params: [...ids, known ?? -1] },
      ];
      const [newest, latest] = await owned(userId, chatId, reads);
      const [revision, at] = (newest![0] ?? [0, 0]) as [number, number];
      if (revision === known) return { revision, at };
      return { revision, at, records: records(latest!) };
    },
    async loadMemoryHistory(userId, chatId, query) {
      const q = checkQuery(userId, chatId, query);
      const range = [q.after ?? 0, q.upTo ?? Number.MAX_SAFE_INTEGER, q.limit ?? -1];
      const ids = [userId, scopeOf(chatId)];
      const read =
        q.path === undefined
          ? { sql: st.memoryHistory, params: [...ids, ...range] }
          : { sql: st.memoryPathHistory, params: [...ids, q.path, ...range] };
      const [rows] = await owned(userId, chatId, [read]);
      return records(rows!);
    },
    async writeMemory(request): Promise<MemoryWriteResult> {
      const { userId, chatId, expected, records: given } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
      const rows = checkWrite(userId, chatId, expected, given).map((r) => recordValues(r));
      const ids = [userId, scopeOf(chatId)];
      const write = (json: string): D1Call => ({ sql: m.write, params: [...ids, json, expected] });
      const parts = chunks(rows);
      const calls = [write(parts[0]!)];
      if (parts.length > 1) {
        const first = rows[0]!;
        const mark = `ctxloom-write-${crypto.randomUUID()}`;
        const [head, ...rest] = chunks([
          [...first.slice(0, CHAT_COLUMN), mark, ...first.slice(CHAT_COLUMN + 1)],
          ...rows.slice(1),
        ]);
        calls[0] = write(head!);
        for (const json of rest) calls.push({ sql: m.writeMore, params: [...ids, json, first[0], first[1], mark] });
        calls.push({ sql: m.unmark, params: [...ids, first[0], first[1], mark, first[CHAT_COLUMN]] });
      }
      const done = await db.batchWith([...calls, { sql: m.written, params: ids }]);
      if (done[0]!.changes > 0) return { ok: true };
      const [revision, held] = done[done.length - 1]!.rows[0] as [number, number];
      if (held !== 1) throw unknownChat(where, userId, chatId!);
      return { ok: false, revision };
    },
    async deleteMemory(userId, chatId) {
      checkMemoryIds(userId, chatId, true);
      const call =
        chatId === undefined
          ? { sql: st.deleteUserMemory, params: [userId] }
          : { sql: st.deleteMemory, params: [userId, scopeOf(chatId)] };
      const [gone] = await db.batchWith([call]);
      return gone!.changes > 0;
    },
  } satisfies MemoryStore;
}
