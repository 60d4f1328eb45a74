// A long chat opened without its texts (a Durable Object: the isolate holds 128 MB, and its storage
// answers synchronously): every message's numbers and optional fields are read, in chunks of
// JSON arrays, into columns whose texts stay in the store (StoredTexts), read when a context, a
// path or a message needs them. The tree is whole (the same nodes, walks and selections as a
// chat loaded with its texts); what the chat holds is its numbers, about 13 bytes a message
// beside the engine's, instead of its texts.
import { MessageColumns } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { checkedRun, eachChunk, type ChunkArrays } from "./sql-load.js";
import type { Corrupt } from "./sql-rows.js";
import { CODES_READ, EXTRAS_COLUMNS, NO_EXTRAS } from "./sql-statements.js";
import { StoredTexts } from "./stored-texts.js";

/** Ids a chunk reads (its JSON arrays take about 40 bytes an id). */
const CHUNK = 8192;
/** Chats of fewer messages are loaded with their texts (they fit, and a context reads none from the store). */
export const PAGED_FROM = 50_000;

export type PagedStatements = ReturnType<typeof pagedStatements>;

/** The statements of a paged load, over tables named with prefix `p`. */
export function pagedStatements(p: string) {
  const messages = `${p}messages`;
  return {
    // A chunk's numbers and optional fields (sql-load.ts's ChunkArrays), the ids whose text is
    // empty, [id, text] of the rows with optional fields (a restore checks those whole), and how
    // many texts are not TEXT. Lengths and types come from the rows' headers: no text is read but those.
    numbers:
      `SELECT json_group_array(id), json_group_array(parent), json_group_array(${CODES_READ}), json_group_array(tokens), json_group_array(created), ` +
      `'[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, ${EXTRAS_COLUMNS}) END) || ']', ` +
      `'[' || group_concat(CASE WHEN octet_length(content) = 0 THEN id END) || ']', ` +
      `'[' || group_concat(CASE WHEN ${NO_EXTRAS} THEN NULL ELSE json_array(id, content) END) || ']', ` +
      `sum(typeof(content) <> 'text') FROM ${messages} WHERE chat = ? AND id >= ? AND id < ?`,
    content: `SELECT content FROM ${messages} WHERE chat = ? AND id = ?`,
    beyond: `SELECT 1 FROM ${messages} WHERE chat = ? AND id >= ? LIMIT 1`,
  };
}

/**
 * Messages 0 to `count - 1` of chat `key` as columns whose texts stay in the store (call it inside
 * a read), or undefined when a value is not what an append writes or the rows are not exactly
 * those ids: the row-per-message read then decides and reports. `read(sql, ...params)` reads a
 * text later, as the store reads (its failures in the store's words); a text whose row is gone
 * (the chat deleted meanwhile) throws `gone()`.
 */
export function loadPaged(
  db: SqlConnection, ps: PagedStatements, key: number, count: number, corrupt: Corrupt, chatId: string,
  later: { read: (sql: string, ...params: unknown[]) => unknown[] | undefined; gone: () => Error },
): MessageColumns | undefined {
  if (db.get(ps.beyond, key, count) !== undefined) return undefined; // rows beyond the count
  const texts = new StoredTexts((id) => {
    const text = later.read(ps.content, key, id)?.[0];
    if (typeof text !== "string") throw later.gone();
    return text;
  });
  const cols = new MessageColumns({ texts });
  cols.reserve(count);
  const complete = eachChunk(0, count, (lo, hi) => {
    const row = db.get(ps.numbers, key, lo, hi) as [...string[], number | null];
    if (row[8] !== 0) return false; // a text that is not TEXT (or no row at all)
    let parsed: unknown[][];
    try {
      parsed = (row.slice(0, 8) as string[]).map((json) => JSON.parse(json ?? "[]") as unknown[]);
    } catch {
      return false;
    }
    const run = checkedRun(lo, hi, parsed.slice(0, 6) as ChunkArrays, corrupt, chatId);
    const [empty, warm] = [parsed[6] as number[], parsed[7] as [number, string][]];
    if (!run || !empty.every((id) => Number.isInteger(id) && id >= lo && id < hi) || !warm.every(([id, text]) => typeof text === "string" && id >= lo && id < hi)) {
      return false;
    }
    texts.pushStored(hi - lo, empty, new Map(warm));
    cols.pushFieldsRun(run);
    return true;
  }, CHUNK);
  return complete ? cols : undefined;
}
