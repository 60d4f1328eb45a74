// A long chat opened without its texts (a Durable Object: the isolate holds 128 MB, and its storage
// answers synchronously): every message's numbers and optional fields are read into columns whose
// texts stay in the store (StoredTexts), read when a context, a path or a message needs them. The
// numbers come from the chat's chunks (sql-numbers.ts: 17 bytes a message in a BLOB per 1,024),
// and those of a chunk not written yet (the last, not full; or one of a database of an older
// version) from its rows, as chunks of JSON arrays; a full chunk read so is written then. The tree
// is whole (the same nodes, walks and selections as a chat loaded with its texts); what the chat
// holds is its numbers, about 13 bytes a message beside the engine's, instead of its texts.
import { MessageColumns } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { checkedRun, eachChunk } from "./sql-load.js";
import {
  CHUNK,
  EMPTY_TEXT,
  HAS_EXTRAS,
  decodeChunk,
  eachStoredChunk,
  encodeChunk,
  type ChunkNumbers,
  type NumbersStatements,
} from "./sql-numbers.js";
import { eachRowRun, newChunk, setRun, type PagedStatements } from "./sql-paged-rows.js";
import type { Corrupt, Extras } from "./sql-rows.js";
import { StoredTexts } from "./stored-texts.js";

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
export function loadPaged(
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
