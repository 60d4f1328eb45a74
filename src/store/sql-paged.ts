// A long chat opened without its texts (a Durable Object: the isolate holds 128 MB, and its storage
// answers synchronously): every message's numbers and optional fields are read into columns whose
// texts stay in the store (StoredTexts), read when a context, a path or a message needs them. The
// numbers come from the chat's chunks (sql-numbers.ts: 17 bytes a message in a BLOB per 1,024),
// and those of a chunk not written yet (the last, not full; or one of a database of an older
// version) from its rows, as chunks of JSON arrays; a full chunk read so is written then. The tree
// is whole (the same nodes, walks and selections as a chat loaded with its texts); what the chat
// holds is its numbers, about 13 bytes a message beside the engine's, instead of its texts.
import { MessageColumns, type ColumnRun } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { checkedRun, eachChunk, type ChunkArrays } from "./sql-load.js";
import {
  CHUNK,
  EMPTY_TEXT,
  HAS_EXTRAS,
  decodeChunk,
  eachStoredChunk,
  encodeChunk,
  numbersStatements,
  type ChunkNumbers,
  type NumbersStatements,
} from "./sql-numbers.js";
import type { Corrupt, Extras } from "./sql-rows.js";
import { CODES_READ, EXTRAS_COLUMNS, NO_EXTRAS } from "./sql-statements.js";
import { StoredTexts } from "./stored-texts.js";

/** Chats of fewer messages are loaded with their texts (they fit, and a context reads none from the store). */
export const PAGED_FROM = 50_000;

export type PagedStatements = ReturnType<typeof pagedStatements>;

/** The statements of a paged load, over tables named with prefix `p`. */
function pagedStatements(p: string) {
  const messages = `${p}messages`;
  return {
    // A range's numbers and optional fields (sql-load.ts's ChunkArrays), the ids whose text is
    // empty, [id, text] of the rows with optional fields (a restore checks those whole), and how
    // many texts are not TEXT. Lengths and types come from the rows' headers: no text is read but those.
    numbers:
      `SELECT json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), ` +
      `json_group_array(tokens), json_group_array(created), ` +
      `'[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, ${EXTRAS_COLUMNS}) END) || ']', ` +
      `'[' || group_concat(CASE WHEN octet_length(content) = 0 THEN id END) || ']', ` +
      `'[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, content) END) || ']', ` +
      `sum(typeof(content) <> 'text') FROM ${messages} WHERE chat = ? AND id >= ? AND id < ?`,
    // The optional fields and texts of the messages a chunk names (a JSON array of ids), one seek each.
    extras:
      `SELECT '[' || group_concat(json_array(id, ${EXTRAS_COLUMNS}, content)) || ']', count(*), sum(typeof(content) ` +
      `<> 'text') ` +
      `FROM ${messages} WHERE chat = ? AND id IN (SELECT value FROM json_each(?))`,
    content: `SELECT content FROM ${messages} WHERE chat = ? AND id = ?`,
    beyond: `SELECT 1 FROM ${messages} WHERE chat = ? AND id >= ? LIMIT 1`,
  };
}

/**
 * A store's chunks of numbers (sql-numbers.ts): a store that pages (`pages`) writes each chunk as
 * it fills and reads them when it opens a chat paged; every store rewrites or deletes those of
 * the messages a redaction changes (a chat's go with it: sql-statements.ts, sql-retention.ts).
 */
export class NumberChunks {
  readonly #db: SqlConnection;
  readonly #ps: PagedStatements;
  readonly #ns: NumbersStatements;
  readonly #pages: boolean;
  readonly #corrupt: Corrupt;

  constructor(db: SqlConnection, prefix: string, pages: boolean, corrupt: Corrupt) {
    this.#db = db;
    this.#ps = pagedStatements(prefix);
    this.#ns = numbersStatements(prefix);
    this.#pages = pages;
    this.#corrupt = corrupt;
  }

  /** Chat `key` holds `size` messages after an append: the chunk it filled is written. */
  appended(key: number, size: number): void {
    if (this.#pages && size % CHUNK === 0)
      writeChunk(this.#db, this.#ps, this.#ns, key, size / CHUNK - 1, this.#corrupt);
  }

  /** Chat `key` was imported with `count` messages: its full chunks are written. */
  imported(key: number, count: number): void {
    if (this.#pages)
      for (let chunk = 0; (chunk + 1) * CHUNK <= count; chunk++)
        writeChunk(this.#db, this.#ps, this.#ns, key, chunk, this.#corrupt);
  }

  /**
   * Messages `ids` of chat `key` (of `size` messages) were redacted: their chunks are written again, or deleted where
   * the store pages not.
   */
  redacted(key: number, ids: readonly number[], size: number): void {
    for (const chunk of new Set(ids.map((id) => Math.floor(id / CHUNK)))) {
      this.#db.run(this.#ns.deleteChunk, key, chunk);
      if (this.#pages && (chunk + 1) * CHUNK <= size)
        writeChunk(this.#db, this.#ps, this.#ns, key, chunk, this.#corrupt);
    }
  }

  /**
   * Chat `key` of `count` messages paged (loadPaged), inside a read; a full chunk it reads from the
   * rows (a database of version 4) is written for the next open, unless that write fails: the open goes on.
   */
  load(
    key: number,
    count: number,
    chatId: string,
    later: Pick<PagedReads, "read" | "gone">,
  ): MessageColumns | undefined {
    let keeping = true;
    const keep = (chunk: number, bytes: Uint8Array): void => {
      if (!keeping) return;
      try {
        this.#db.run(this.#ns.put, key, chunk, bytes);
      } catch {
        keeping = false;
      }
    };
    return loadPaged(this.#db, { ps: this.#ps, ns: this.#ns, keep, ...later }, key, count, this.#corrupt, chatId);
  }
}

/** How a paged load reads: the store's statements, and how it writes a full chunk it read from the rows. */
export interface PagedReads {
  ps: PagedStatements;
  ns: NumbersStatements;
  /** Writes full chunk `chunk`, read from its rows (the load goes on when it cannot). */
  keep(chunk: number, bytes: Uint8Array): void;
  /**
   * Message `id`'s text, read later as the store reads (its failures in the store's words); throws `gone()` for a row
   * that is no more.
   */
  read: (sql: string, ...params: unknown[]) => unknown[] | undefined;
  gone: () => Error;
}

/**
 * Messages 0 to `count - 1` of chat `key` as columns whose texts stay in the store (call it inside
 * a read), or undefined when a value is not what an append writes or the rows are not exactly
 * those ids: the row-per-message read then decides and reports. A text whose row is gone (the
 * chat deleted meanwhile) throws `gone()` when read.
 */
function loadPaged(
  db: SqlConnection,
  r: PagedReads,
  key: number,
  count: number,
  corrupt: Corrupt,
  chatId: string,
): MessageColumns | undefined {
  if (db.get(r.ps.beyond, key, count) !== undefined) return undefined; // rows beyond the count
  const texts = new StoredTexts((id) => {
    const text = r.read(r.ps.content, key, id)?.[0];
    if (typeof text !== "string") throw r.gone();
    return text;
  });
  const cols = new MessageColumns({ texts });
  cols.reserve(count);
  const full = Math.floor(count / CHUNK);
  let next = 0; // the next chunk to push
  const rows = (below: number): boolean => {
    for (; next < below; next++) if (!pushRows(db, r, key, next, count, texts, cols, corrupt, chatId)) return false;
    return true;
  };
  let complete = true;
  eachStoredChunk(db, r.ns, key, full, (chunk, bytes) => {
    if (!complete || !rows(chunk)) return void (complete = false);
    const n = bytes && decodeChunk(bytes);
    if (n && pushStored(db, r.ps, key, chunk, n, texts, cols, corrupt, chatId)) next = chunk + 1;
    else complete = rows(chunk + 1); // not what a chunk holds: read from the rows, and written again
  });
  return complete && rows(Math.ceil(count / CHUNK)) ? cols : undefined;
}

/** A chunk's numbers, none set yet. */
const newChunk = (): ChunkNumbers => ({
  created: new Float64Array(CHUNK),
  parents: new Int32Array(CHUNK),
  tokens: new Int32Array(CHUNK),
  codes: new Uint8Array(CHUNK),
});

/**
 * Rows `lo` to `hi - 1` read as one row of JSON arrays (in halves where SQLite refuses it as too
 * big), each part checked and handed to `each(a, run, empty, warm)`, in order; false when a value
 * is not what an append writes. Throws STORE_CORRUPT for an unknown role, priority or kind code.
 */
function eachRowRun(
  db: SqlConnection,
  ps: PagedStatements,
  key: number,
  lo: number,
  hi: number,
  corrupt: Corrupt,
  chatId: string,
  each: (a: number, run: ColumnRun, empty: number[], warm: [number, string][]) => void,
): boolean {
  return eachChunk(
    lo,
    hi,
    (a, b) => {
      const row = db.get(ps.numbers, key, a, b) as [...string[], number | null];
      if (row[8] !== 0) return false; // a text that is not TEXT (or no row at all)
      let parsed: unknown[][];
      try {
        parsed = (row.slice(0, 8) as string[]).map((json) => JSON.parse(json ?? "[]") as unknown[]);
      } catch {
        return false;
      }
      const run = checkedRun(a, b, parsed.slice(0, 6) as unknown as ChunkArrays, corrupt, chatId);
      const [empty, warm] = [parsed[6] as number[], parsed[7] as [number, string][]];
      if (
        !run ||
        !empty.every((id) => Number.isInteger(id) && id >= a && id < b) ||
        !warm.every(([id, text]) => typeof text === "string" && id >= a && id < b)
      ) {
        return false;
      }
      each(a, run, empty, warm);
      return true;
    },
    hi - lo,
  );
}

/** Sets the numbers of messages `a` on, of the chunk from `lo`, from a run read from their rows. */
function setRun(n: ChunkNumbers, lo: number, a: number, run: ColumnRun, empty: readonly number[]): void {
  for (let i = 0; i < run.parents.length; i++) {
    n.created[a - lo + i] = run.created[i]!;
    n.parents[a - lo + i] = run.parents[i]!;
    n.tokens[a - lo + i] = run.tokens[i]!;
    n.codes[a - lo + i] = run.codes[i]! | (run.extras[i] ? HAS_EXTRAS : 0);
  }
  for (const id of empty) n.codes[id - lo]! |= EMPTY_TEXT;
}

/**
 * Writes full chunk `chunk` of chat `key` from its rows (an append filled it, a redaction changed
 * it, an import wrote it). False, and nothing written, when a row is not what an append writes:
 * a paged open then reads the chunk from its rows, and reports what is wrong.
 */
function writeChunk(
  db: SqlConnection,
  ps: PagedStatements,
  ns: NumbersStatements,
  key: number,
  chunk: number,
  corrupt: Corrupt,
): boolean {
  const lo = chunk * CHUNK;
  const n = newChunk();
  let read: boolean;
  try {
    read = eachRowRun(db, ps, key, lo, lo + CHUNK, corrupt, "", (a, run, empty) => setRun(n, lo, a, run, empty));
  } catch (error) {
    if ((error as { code?: string }).code === "STORE_CORRUPT") return false; // an unknown code: the open reports it
    throw error;
  }
  if (read) db.run(ns.put, key, chunk, encodeChunk(n));
  return read;
}

/**
 * Chunk `chunk` from its rows (the last one: up to `count`), pushed; a full one is written as a
 * chunk too. False when a value is not what an append writes.
 */
function pushRows(
  db: SqlConnection,
  r: PagedReads,
  key: number,
  chunk: number,
  count: number,
  texts: StoredTexts,
  cols: MessageColumns,
  corrupt: Corrupt,
  chatId: string,
): boolean {
  const [lo, hi] = [chunk * CHUNK, Math.min(count, chunk * CHUNK + CHUNK)];
  const kept = hi - lo === CHUNK ? newChunk() : undefined;
  const read = eachRowRun(db, r.ps, key, lo, hi, corrupt, chatId, (a, run, empty, warm) => {
    texts.pushStored(run.parents.length, empty, new Map(warm));
    cols.pushFieldsRun(run);
    if (kept) setRun(kept, lo, a, run, empty);
  });
  if (read && kept) r.keep(chunk, encodeChunk(kept));
  return read;
}

/**
 * A written chunk pushed: its numbers, and the optional fields and texts of the messages that have
 * some, read from their rows. False (nothing pushed) when it does not hold what its rows do: then
 * they are read instead.
 */
function pushStored(
  db: SqlConnection,
  ps: PagedStatements,
  key: number,
  chunk: number,
  n: ChunkNumbers,
  texts: StoredTexts,
  cols: MessageColumns,
  corrupt: Corrupt,
  chatId: string,
): boolean {
  const lo = chunk * CHUNK;
  const codes = new Uint8Array(CHUNK);
  const empty: number[] = [];
  const withExtras: number[] = [];
  for (let i = 0; i < CHUNK; i++) {
    const c = n.codes[i]!;
    if (c > (EMPTY_TEXT | HAS_EXTRAS | 31)) return false;
    codes[i] = c & 31;
    if (c & EMPTY_TEXT) empty.push(lo + i);
    if (c & HAS_EXTRAS) withExtras.push(lo + i);
  }
  const extras: [number, ...Extras][] = [];
  const warm = new Map<number, string>();
  const read =
    withExtras.length === 0 ||
    eachChunk(
      0,
      withExtras.length,
      (a, b) => {
        const [json, found, notText] = db.get(ps.extras, key, JSON.stringify(withExtras.slice(a, b)))!;
        if (found !== b - a || notText !== 0) return false;
        for (const [id, ...rest] of JSON.parse(json as string) as [number, ...Extras, string][]) {
          const text = rest.pop();
          if (typeof text !== "string") return false;
          extras.push([id, ...(rest as unknown as Extras)]);
          warm.set(id, text);
        }
        return true;
      },
      withExtras.length,
    );
  const run = read
    ? checkedRun(lo, lo + CHUNK, [null, n.parents, codes, n.tokens, n.created, extras], corrupt, chatId)
    : undefined;
  if (!run || withExtras.some((id) => !run.extras[id - lo])) return false;
  texts.pushStored(CHUNK, empty, warm);
  cols.pushFieldsRun(run);
  return true;
}
