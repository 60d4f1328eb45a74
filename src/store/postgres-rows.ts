// How the PostgreSQL store's rows cross with the kit's row codec (sql-rows.ts): its statements
// (postgres-sql.ts) read and write the codec's values, and its text columns hold every string
// this way: PostgreSQL's text holds every character but U+0000, so texts and ids cross with
// U+0000 as U+0001 "0" and U+0001 as U+0001 "1": every string round-trips, and one that holds
// neither (nearly all) is stored as it is. JSON columns are `json`, which keeps a "\u0000"
// escape (jsonb refuses it); JSON text never holds a raw control character.
import type { TextColumns } from "./sql-rows.js";

const SOH = "\u0001";

/** A string as a text column holds it (see above). */
export function toText(s: string): string {
  return s.indexOf("\u0000") < 0 && s.indexOf(SOH) < 0
    ? s
    : s.replace(/[\u0000\u0001]/g, (c) => (c === SOH ? "\u00011" : "\u00010"));
}

/** A text column's value as the string it stands for. */
export function fromText(s: string): string {
  return s.indexOf(SOH) < 0 ? s : s.replace(/\u0001([01])/g, (_, d: string) => (d === "0" ? "\u0000" : SOH));
}

/** The text columns of the PostgreSQL store, for the row codec. */
export const PG_TEXT: TextColumns = { put: toText, get: fromText };
