// The one validation policy of a memory's store calls, as every store runs it (memory, SQLite,
// PostgreSQL, Durable Objects): a bad call throws a CtxloomError having changed nothing. The
// store checks the shape of what it keeps; what a document means (its schema, its JSON) is the
// memory's to check before it writes.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { checkPath } from "./paths.js";
import type { MemoryQuery, MemoryRecord } from "./types.js";

/**
 * Characters a document (a text, or an object's JSON) may hold, at most: what the memory share of a large window holds.
 */
export const MAX_DOCUMENT_CHARS = 100_000;
/** Characters of a typed object's schema (its JSON), at most. */
export const MAX_SCHEMA_CHARS = 20_000;
/** Documents a memory may hold at once, at most. */
export const MAX_DOCUMENTS = 200;

const KINDS: readonly string[] = ["text", "object", "deleted"];
const AUTHORS: readonly string[] = ["app", "model"];

function id(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a non-empty string; got ${describe(value)}.`);
  }
  return value;
}

/** A memory's owner and name: a user id, and null (the user's own) or a chat id. @throws INVALID_ARGUMENT */
export function checkMemoryIds(userId: unknown, chatId: unknown, any = false): void {
  id(userId, "userId");
  if (chatId === null || (any && chatId === undefined)) return;
  id(
    chatId,
    any
      ? "chatId (a chat's id, null for the user's own memory, or left out for all of them)"
      : "chatId (a chat's id, or null for the user's own memory)",
  );
}

/** What loadMemory takes. */
export function checkLoad(userId: unknown, chatId: unknown, known: unknown): void {
  checkMemoryIds(userId, chatId);
  if (known !== undefined) checkInteger(known, "known (the revision the caller holds)", 0);
}

/** What loadMemoryHistory takes: a query with no other key. */
export function checkQuery(userId: unknown, chatId: unknown, query: unknown): MemoryQuery {
  checkMemoryIds(userId, chatId);
  if (query === undefined) return {};
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `A memory history query must be an object ({ path, after, upTo, limit }); got ` + `${describe(query)}.`,
    );
  }
  const q = query as MemoryQuery;
  for (const key of Object.keys(q)) {
    if (key !== "path" && key !== "after" && key !== "upTo" && key !== "limit") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `A memory history query has no key ${describe(key)}; it takes path, after, upTo and ` + `limit.`,
      );
    }
  }
  if (q.path !== undefined) checkPath(q.path, "query.path");
  if (q.after !== undefined) checkInteger(q.after, "query.after", 0);
  if (q.upTo !== undefined) checkInteger(q.upTo, "query.upTo", 0);
  if (q.limit !== undefined) checkInteger(q.limit, "query.limit", 1);
  return q;
}

/**
 * What writeMemory takes: `expected` a revision, and records of the revisions after it in
 * order (the first `expected + 1`, each next the same or one more; a path once per revision),
 * each a document's well-formed change. @throws INVALID_ARGUMENT, INVALID_PATH, MEMORY_TOO_LARGE
 */
export function checkWrite(userId: unknown, chatId: unknown, expected: unknown, records: unknown): MemoryRecord[] {
  checkMemoryIds(userId, chatId);
  checkInteger(expected, "expected (the memory's revision the write is made on)", 0);
  if (!Array.isArray(records) || records.length === 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `writeMemory takes a non-empty array of records; got ${describe(records)}.`,
    );
  }
  let revision = expected as number;
  let paths = new Set<string>();
  for (let i = 0; i < records.length; i++) {
    const r = checkRecord(records[i], `records[${i}]`);
    if (r.revision !== revision && r.revision !== revision + 1) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `records[${i}] is of revision ${r.revision}; after revision ${revision} the next record is of ${revision} ` +
          `or ${revision + 1} ` +
          `(the first of ${(expected as number) + 1}).`,
      );
    }
    if (i === 0 && r.revision !== (expected as number) + 1) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `The first record of a write on revision ${String(expected)} is of revision ` +
          `${(expected as number) + 1}; got ${r.revision}.`,
      );
    }
    if (r.revision !== revision) paths = new Set();
    if (paths.has(r.path))
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `records[${i}] names ${describe(r.path)} a second time in ` + `revision ${r.revision}.`,
      );
    paths.add(r.path);
    revision = r.revision;
  }
  return records as MemoryRecord[];
}

/** One record, well formed. */
export function checkRecord(value: unknown, what: string): MemoryRecord {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a memory record; got ${describe(value)}.`);
  }
  const r = value as MemoryRecord;
  checkInteger(r.revision, `${what}.revision`, 1);
  checkPath(r.path, `${what}.path`);
  if (!KINDS.includes(r.kind))
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.kind must be "text", "object" or "deleted"; got ` + `${describe(r.kind)}.`,
    );
  if (typeof r.content !== "string")
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.content must be a string; got ` + `${describe(r.content)}.`);
  if (r.content.length > MAX_DOCUMENT_CHARS) {
    throw new CtxloomError(
      "MEMORY_TOO_LARGE",
      `${what} (${r.path}) holds ${r.content.length} characters; a memory document holds at ` +
        `most ${MAX_DOCUMENT_CHARS}.`,
    );
  }
  if (r.kind === "object") {
    if (typeof r.schema !== "string" || r.schema.length === 0)
      throw new CtxloomError("INVALID_ARGUMENT", `${what} is a typed object: its schema must be JSON text.`);
    if (r.schema.length > MAX_SCHEMA_CHARS) {
      throw new CtxloomError(
        "MEMORY_TOO_LARGE",
        `${what}'s schema holds ${r.schema.length} characters; a schema holds at most ` + `${MAX_SCHEMA_CHARS}.`,
      );
    }
  } else if (r.schema !== null) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} is ${r.kind === "text" ? "a text" : "a deletion"}: its schema must be null; got ` +
        `${describe(r.schema)}.`,
    );
  }
  if (r.kind === "deleted" && r.content !== "")
    throw new CtxloomError("INVALID_ARGUMENT", `${what} is a deletion: its content must be "".`);
  if (!AUTHORS.includes(r.by))
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.by must be "app" or "model"; got ${describe(r.by)}.`);
  if (r.chatId !== null) id(r.chatId, `${what}.chatId (the chat it was written from, or null)`);
  if (typeof r.at !== "number" || !Number.isFinite(r.at) || r.at < 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.at must be a time in milliseconds since the epoch; got ${describe(r.at)}.`,
    );
  }
  return r;
}

/** A record as a store hands it back: a copy with exactly the record's fields. */
export const copyRecord = (r: MemoryRecord): MemoryRecord => ({
  revision: r.revision,
  path: r.path,
  kind: r.kind,
  content: r.content,
  schema: r.schema,
  by: r.by,
  chatId: r.chatId,
  at: r.at,
});

/** Records in the order a store answers them: revision, then path. */
export const recordOrder = (a: MemoryRecord, b: MemoryRecord): number =>
  a.revision - b.revision || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The records of a history query, from all of a memory's records in order. */
export function queried(all: readonly MemoryRecord[], q: MemoryQuery): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  for (const r of all) {
    if (q.after !== undefined && r.revision <= q.after) continue;
    if (q.upTo !== undefined && r.revision > q.upTo) break;
    if (q.path !== undefined && r.path !== q.path) continue;
    out.push(copyRecord(r));
    if (q.limit !== undefined && out.length >= q.limit) break;
  }
  return out;
}
