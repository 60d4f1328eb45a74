// A chat's rows read as numbers for the chunks of a paged store (sql-numbers.ts): the statements
// that read a range of rows as JSON arrays (no text but the few a restore checks), each run of them
// checked, and a full chunk written from its rows.
import type { ColumnRun } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { checkedRun, eachChunk, type ChunkArrays } from "./sql-load.js";
import {
  CHUNK,
  EMPTY_TEXT,
  HAS_EXTRAS,
  encodeChunk,
  type ChunkNumbers,
  type NumbersStatements,
} from "./sql-numbers.js";
import type { Corrupt } from "./sql-rows.js";
import { CODES_READ, EXTRAS_COLUMNS, NO_EXTRAS } from "./sql-statements.js";

export type PagedStatements = ReturnType<typeof pagedStatements>;

/** The statements of a paged load, over tables named with prefix `p`. */
export function pagedStatements(p: string) {
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

/** A chunk's numbers, none set yet. */
export const newChunk = (): ChunkNumbers => ({
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
export function eachRowRun(
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
export function setRun(n: ChunkNumbers, lo: number, a: number, run: ColumnRun, empty: readonly number[]): void {
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
export function writeChunk(
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
