// Loading a long chat's messages with few values crossing the driver: the numbers and the
// rare fields of each chunk of ids come as one row of JSON arrays (parsed at once), and the
// texts as single values (no array per row), or as one BLOB of UTF-8 per chunk. The driver's
// cost is per row and per value: this halves what a load of 100,000 messages spends outside
// SQLite and the text itself. Where SQLite limits a value's size (a Durable Object: about
// 2 MB), a chunk whose aggregate passes it is read in halves.
import { MAX_TOKENS, PRIORITIES, ROLES, type Message } from "../message.js";
import { MessageColumns, type ColumnExtras, type ColumnRun } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { sqliteCode } from "./sql-errors.js";
import { addExtras, unknownCode, type Corrupt, type Extras } from "./sql-rows.js";
import type { Statements } from "./sql-statements.js";
import { asBytes } from "./vectors.js";

/** Ids per chunk of numbers. */
const CHUNK = 1024;

type Chunk = [
  ids: number[],
  parents: (number | null)[],
  codes: number[],
  tokens: number[],
  created: number[],
  extras: (Extras | null)[],
];

/**
 * Reads ids `lo` to `hi - 1` chunk by chunk, in order: `read(lo, hi)` answers false when the
 * chunk cannot be read this way (then so is the whole: false). A chunk SQLite refuses as too
 * big (SQLITE_TOOBIG) is read in halves; one id alone too big answers false.
 */
export function eachChunk(lo: number, hi: number, read: (lo: number, hi: number) => boolean, size = CHUNK): boolean {
  const ranges: [number, number][] = [];
  for (let at = hi; at > lo; at -= size) ranges.push([Math.max(lo, at - size), at]); // last first: popped in order
  while (ranges.length > 0) {
    const [a, b] = ranges.pop()!;
    try {
      if (!read(a, b)) return false;
    } catch (error) {
      if (sqliteCode(error) !== "SQLITE_TOOBIG" || b - a === 1) {
        if (sqliteCode(error) === "SQLITE_TOOBIG") return false;
        throw error;
      }
      const mid = a + ((b - a) >> 1);
      ranges.push([mid, b], [a, mid]);
    }
  }
  return true;
}

/**
 * Messages `since` to `count - 1` of chat `key` (call it inside a read transaction), or
 * undefined when the chat is short, or its rows are not exactly those ids, or a chunk cannot
 * be read this way (a value JSON cannot hold): the row-per-message read then decides and
 * reports what is wrong. Throws STORE_CORRUPT for an unknown role, priority or kind code.
 */
export function loadChunked(
  db: SqlConnection,
  st: Statements,
  key: number,
  since: number,
  count: number,
  corrupt: Corrupt,
  chatId: string,
): Message[] | undefined {
  const n = count - since;
  if (n < CHUNK) return undefined; // a few rows cost little either way
  if (db.get(st.messageFrom, key, count) !== undefined) return undefined; // rows beyond the count
  const texts = db.column(st.contents, key, since, count) as string[];
  if (texts.length !== n) return undefined;
  const out = new Array<Message>(n);
  const complete = eachChunk(since, count, (lo, hi) => {
    let chunk: Chunk;
    try {
      chunk = (db.get(st.messageChunk, key, lo, hi) as string[]).map((json) => JSON.parse(json) as unknown[]) as Chunk;
    } catch (error) {
      if (sqliteCode(error)) throw error;
      return false; // e.g. a BLOB where a number belongs: JSON cannot hold it
    }
    const [ids, parents, codes, tokens, created, extras] = chunk;
    if (ids.length !== hi - lo) return false;
    for (let i = 0; i < ids.length; i++) {
      const id = lo + i;
      if (ids[i] !== id) return false; // the aggregate saw the rows in another order, or not these
      const c = codes[i]!;
      if (c < 0) throw unknownCode(corrupt, chatId, id);
      const m: Message = {
        id,
        parentId: parents[i]!,
        role: ROLES[c & 3]!,
        content: texts[id - since]!,
        priority: PRIORITIES[(c >> 2) & 3]!,
        tokens: tokens[i]!,
        createdAt: created[i]!,
        kind: c >> 4 === 1 ? "summary" : "message",
      };
      const x = extras[i];
      if (x !== null) addExtras(m, x!, corrupt, chatId);
      out[id - since] = m;
    }
    return true;
  });
  return complete ? out : undefined;
}

/**
 * Messages 0 to `count - 1` of chat `key` as columns with their texts kept in UTF-8 (call it
 * inside a read transaction): per chunk, one BLOB of texts copied once, never decoded here,
 * and the numbers as JSON arrays. Undefined when a value is not what an append writes (a
 * content that is not TEXT, a number out of range, content parts) or the rows are not exactly
 * those ids: the row-per-message read then decides and reports. Throws STORE_CORRUPT for an
 * unknown role, priority or kind code.
 */
export function loadColumns(
  db: SqlConnection,
  st: Statements,
  key: number,
  count: number,
  corrupt: Corrupt,
  chatId: string,
): MessageColumns | undefined {
  if (db.get(st.messageFrom, key, count) !== undefined) return undefined; // rows beyond the count
  const cols = new MessageColumns({ utf8: true });
  cols.reserve(count);
  const complete = eachChunk(0, count, (lo, hi) => {
    const row = db.get(st.textChunk, key, lo, hi) as [...string[], unknown, number | null];
    const [bytes, notText] = [asBytes(row[7]), row[8]];
    if (bytes === undefined || notText !== 0) return false; // NULL, a BLOB, a number...
    let parsed: unknown[][];
    try {
      parsed = (row.slice(0, 7) as string[]).map((json) => JSON.parse(json ?? "[]") as unknown[]);
    } catch {
      return false;
    }
    const [ids, parents, codes, tokens, created, extras, lengths] = parsed as [
      number[],
      (number | null)[],
      number[],
      number[],
      number[],
      [number, ...Extras][],
      number[],
    ];
    if (lengths.length !== hi - lo) return false;
    const run = checkedRun(lo, hi, [ids, parents, codes, tokens, created, extras], corrupt, chatId);
    if (!run) return false;
    let total = 0;
    for (const length of lengths) total += length;
    if (total !== bytes.length) return false;
    // The driver made these bytes for this value alone: the columns may keep them.
    const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length;
    cols.pushRun(bytes, lengths, run, own);
    return true;
  });
  return complete ? cols : undefined;
}

/**
 * A chunk's numbers and optional fields as JSON arrays read them: ids (null: `lo` to `hi - 1` by
 * construction), parents, codes, tokens, times, [id, ...Extras] of the rows that have some.
 */
export type ChunkArrays = [
  ArrayLike<number> | null,
  ArrayLike<number | null>,
  ArrayLike<number>,
  ArrayLike<number>,
  ArrayLike<number>,
  readonly [number, ...Extras][],
];

/**
 * The run of ids `lo` to `hi - 1` from a chunk's arrays, each value checked as an append writes
 * it, or undefined when one is not (the row-per-message read then decides and reports). Throws
 * STORE_CORRUPT for an unknown role, priority or kind code.
 */
export function checkedRun(
  lo: number,
  hi: number,
  [ids, parents, codes, tokens, created, extras]: ChunkArrays,
  corrupt: Corrupt,
  chatId: string,
): ColumnRun | undefined {
  const n = hi - lo;
  if (ids !== null && ids.length !== n) return undefined;
  if (parents.length !== n || codes.length !== n || tokens.length !== n || created.length !== n) return undefined;
  const runParents = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const id = lo + i;
    const parent = parents[i] ?? -1;
    const t = tokens[i]!;
    if (
      (ids !== null && ids[i] !== id) ||
      !Number.isInteger(parent) ||
      parent < -1 ||
      parent >= id ||
      !Number.isInteger(t) ||
      t < 0 ||
      t > MAX_TOKENS
    )
      return undefined;
    if (typeof created[i] !== "number" || !Number.isFinite(created[i])) return undefined;
    if (codes[i]! < 0) throw unknownCode(corrupt, chatId, id);
    runParents[i] = parent;
  }
  const runExtras = new Array<ColumnExtras | null>(n).fill(null);
  for (const [id, ...x] of extras) {
    if (!Number.isInteger(id) || id < lo || id >= hi || runExtras[id - lo] !== null) return undefined;
    const e = columnExtras(id, x as Extras, corrupt, chatId);
    if (!e) return undefined;
    runExtras[id - lo] = e;
  }
  return { parents: runParents, codes, tokens, created, extras: runExtras };
}

/**
 * The optional fields of message `id` for the columns, or undefined when their shape is not
 * what an append writes (the row-per-message read then reports it). Their values are checked
 * by the restore, which reads every message with optional fields in full.
 */
function columnExtras(id: number, x: Extras, corrupt: Corrupt, chatId: string): ColumnExtras | undefined {
  const m = { id } as Message;
  addExtras(m, x, corrupt, chatId);
  const e: ColumnExtras = {};
  if (m.name !== undefined) e.name = m.name;
  if (m.toolCalls !== undefined) {
    const calls: unknown = m.toolCalls;
    if (!Array.isArray(calls) || !calls.every((c) => isObject(c) && isObject(c.function))) return undefined;
    e.toolCalls = m.toolCalls;
  }
  if (m.toolCallId !== undefined) e.toolCallId = m.toolCallId;
  if (m.covers !== undefined) e.covers = m.covers;
  if (m.parts !== undefined) {
    const parts: unknown = m.parts;
    if (!Array.isArray(parts) || !parts.every(isObject)) return undefined;
    e.parts = m.parts;
  }
  return e;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
