// The row codec of memory records in the SQL stores (SQLite, Durable Objects, PostgreSQL): kind
// and author cross as codes (kind 0 text, 1 object, 2 deleted; author 0 app, 1 model), a
// user's own memory as the scope "" (a chat's as its id), texts through the store's TextColumns.
import type { MemoryRecord } from "../memory/types.js";
import { PLAIN, type Corrupt } from "./sql-rows.js";

const KINDS = ["text", "object", "deleted"] as const;
const AUTHORS = ["app", "model"] as const;

/** The record columns an insert writes (after user and scope), in recordValues' order. */
export const RECORD_WRITE = "revision, path, kind, author, chat, at, json_schema, content";

/** A memory's scope column: "" for the user's own, else the chat's id. */
export const scopeOf = (chatId: string | null, text = PLAIN): string => (chatId === null ? "" : text.put(chatId));

/** A record's values, in RECORD_WRITE's order. */
export function recordValues(r: MemoryRecord, text = PLAIN): unknown[] {
  return [
    r.revision,
    r.path,
    KINDS.indexOf(r.kind),
    AUTHORS.indexOf(r.by),
    r.chatId === null ? null : text.put(r.chatId),
    r.at,
    r.schema === null ? null : text.put(r.schema),
    text.put(r.content),
  ];
}

/** A row read in RECORD_WRITE's order as a record; `corrupt` for a row ctxloom never wrote. */
export function recordOf(row: unknown[], corrupt: Corrupt, text = PLAIN): MemoryRecord {
  const [revision, path, kind, author, chat, at, schema, content] = row;
  const k = KINDS[kind as number];
  const by = AUTHORS[author as number];
  if (
    typeof revision !== "number" ||
    typeof path !== "string" ||
    k === undefined ||
    by === undefined ||
    (chat !== null && typeof chat !== "string") ||
    typeof at !== "number" ||
    (schema !== null && typeof schema !== "string") ||
    typeof content !== "string"
  ) {
    throw corrupt(`a memory record (revision ${String(revision)}, ${String(path)}) holds values ctxloom never wrote`);
  }
  return {
    revision,
    path,
    kind: k,
    content: text.get(content),
    schema: schema === null ? null : text.get(schema as string),
    by,
    chatId: chat === null ? null : text.get(chat as string),
    at,
  };
}
