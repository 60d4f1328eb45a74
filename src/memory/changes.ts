// What a write makes of a memory: the records of its revision, planned on the memory as it is
// now for a caller who read it at revision `expected`. A document written since that revision
// is a conflict (MEMORY_CONFLICT), unless the change is to other keys of a typed object than
// the ones written since: then it merges. Documents nobody wrote since are written as asked,
// whatever else changed: nothing anyone wrote is ever lost, and nobody is told a write landed
// that did not.
import { CtxloomError, describe } from "../errors.js";
import { MAX_DOCUMENTS, MAX_DOCUMENT_CHARS } from "./checks.js";
import { carryOver, changedPaths, mergePatch, overlap, patchPaths } from "./patch.js";
import { checkPath, within } from "./paths.js";
import { compileSchema } from "./schema.js";
import type { JsonObject, JsonSchema, MemoryAuthor, MemoryRecord } from "./types.js";

/** A change of a memory. */
export type MemoryChange =
  | { op: "text"; path: string; text: string }
  | { op: "value"; path: string; value: JsonObject; schema?: JsonSchema }
  | { op: "update"; path: string; patch: JsonObject }
  | { op: "delete"; path: string }
  | { op: "rename"; path: string; to: string };

/** The memory as a write finds it: its revision and each path's newest record (deletions included). */
export interface MemoryNow {
  revision: number;
  byPath: ReadonlyMap<string, MemoryRecord>;
}

/** Who writes, from where, when. */
export interface Stamp {
  by: MemoryAuthor;
  chatId: string | null;
  at: number;
}

/** Caps of a write (a memory tool may set lower ones). */
export interface MemoryLimits {
  maxChars: number;
  maxDocuments: number;
}

export const DEFAULT_LIMITS: MemoryLimits = { maxChars: MAX_DOCUMENT_CHARS, maxDocuments: MAX_DOCUMENTS };

/** A path's newest record at or before a revision (the one the caller read): for merges. */
export type RecordAt = (path: string, revision: number) => Promise<MemoryRecord | undefined>;

const live = (r: MemoryRecord | undefined): r is MemoryRecord => r !== undefined && r.kind !== "deleted";

/**
 * The records a change makes on `now`, for a caller who read revision `expected`, and whether it
 * merged over revisions written since. @throws MEMORY_CONFLICT, MEMORY_TOO_LARGE, UNKNOWN_PATH,
 * PATH_EXISTS, INVALID_PATH, INVALID_SCHEMA, SCHEMA_MISMATCH, INVALID_ARGUMENT
 */
export async function planChange(
  now: MemoryNow,
  expected: number,
  change: MemoryChange,
  stamp: Stamp,
  limits: MemoryLimits,
  recordAt: RecordAt,
): Promise<{ records: MemoryRecord[]; merged: boolean }> {
  if (expected > now.revision) {
    throw new CtxloomError(
      "MEMORY_CONFLICT",
      `Revision ${expected} is not one of this memory's: its newest is ${now.revision}. Read it ` +
        `again (memory.read()), then redo the change.`,
    );
  }
  const revision = now.revision + 1;
  const record = (path: string, kind: MemoryRecord["kind"], content: string, schema: string | null): MemoryRecord => ({
    revision,
    path,
    kind,
    content,
    schema,
    ...stamp,
  });
  const since = (r: MemoryRecord | undefined) => r !== undefined && r.revision > expected;
  const conflict = (path: string, r: MemoryRecord, extra = "") =>
    new CtxloomError(
      "MEMORY_CONFLICT",
      `${path} was ${r.kind === "deleted" ? "deleted" : "written"} at revision ${r.revision} (by the ${r.by}), ` +
        `after revision ` +
        `${expected} that this change was made on${extra}. ` +
        "Nothing was written: read the memory again (memory.read()) and redo the change on what it holds now.",
    );
  const cur = now.byPath.get(change.path);
  const merged = now.revision > expected;
  switch (change.op) {
    case "text": {
      size(change.path, change.text, limits);
      if (live(cur) && cur.kind === "object") {
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `${change.path} is a typed object: write it a value ({ path, value }) or update it ` +
            `({ path, patch }), not a text.`,
        );
      }
      if (since(cur)) throw conflict(change.path, cur!);
      placeable(now, change.path, live(cur), limits);
      return { records: [record(change.path, "text", change.text, null)], merged };
    }
    case "value":
    case "update": {
      const { value, schema } = await objectAfter(now, expected, change, cur, recordAt, conflict);
      const content = JSON.stringify(value);
      size(change.path, content, limits);
      if (change.op === "value") placeable(now, change.path, live(cur), limits);
      return { records: [record(change.path, "object", content, schema)], merged };
    }
    case "delete": {
      const targets = documentsAt(now, change.path);
      touchedSince(now, change.path, since, conflict);
      return { records: targets.map((r) => record(r.path, "deleted", "", null)), merged };
    }
    case "rename": {
      const to = checkPath(change.to, "to");
      if (within(to, change.path))
        throw new CtxloomError("INVALID_PATH", `${change.path} cannot move into itself (${to}).`);
      const targets = documentsAt(now, change.path);
      touchedSince(now, change.path, since, conflict);
      const moved = targets.map((r) => ({ r, path: checkPath(to + r.path.slice(change.path.length), "the new path") }));
      for (const { path } of moved) {
        if (live(now.byPath.get(path)))
          throw new CtxloomError(
            "PATH_EXISTS",
            `${path} exists already; delete it first, or move to ` + `another path. Nothing was moved.`,
          );
        clash(now, path, change.path);
      }
      return {
        records: [
          ...targets.map((r) => record(r.path, "deleted", "", null)),
          ...moved.map(({ r, path }) => record(path, r.kind, r.content, r.schema)),
        ],
        merged,
      };
    }
  }
}

/**
 * The object a value or an update leaves, checked against its schema; merged over keys written since when they are
 * others.
 */
async function objectAfter(
  _now: MemoryNow,
  expected: number,
  change: Extract<MemoryChange, { op: "value" | "update" }>,
  cur: MemoryRecord | undefined,
  recordAt: RecordAt,
  conflict: (path: string, r: MemoryRecord, extra?: string) => CtxloomError,
): Promise<{ value: JsonObject; schema: string }> {
  const path = change.path;
  if (live(cur) && cur.kind === "text")
    throw new CtxloomError("INVALID_ARGUMENT", `${path} is a text: write it a text ({ path, text }).`);
  if (change.op === "update" && !live(cur)) {
    throw new CtxloomError(
      "UNKNOWN_PATH",
      `The memory has no typed object at ${path}; write one first ({ path, value, schema }).`,
    );
  }
  const schema =
    change.op === "value" && change.schema !== undefined
      ? JSON.stringify(change.schema)
      : cur?.kind === "object"
        ? cur.schema!
        : undefined;
  if (schema === undefined)
    throw new CtxloomError(
      "INVALID_SCHEMA",
      `${path} is a new typed object: give its JSON schema ({ path, ` + `value, schema }).`,
    );
  const check = compileSchema(JSON.parse(schema));
  const current = live(cur) ? (JSON.parse(cur.content) as JsonObject) : undefined;
  let value: JsonObject;
  if (cur !== undefined && cur.revision > expected) {
    // Written since the caller's revision: merge only over other keys of the same object, under the same schema.
    const base = await recordAt(path, expected);
    if (!live(base) || !live(cur) || base.schema !== cur.schema || schema !== cur.schema) throw conflict(path, cur);
    const before = JSON.parse(base.content) as JsonObject;
    const theirs = changedPaths(before, current!);
    const mine = change.op === "update" ? patchPaths(change.patch) : changedPaths(before, change.value);
    const met = overlap(mine, theirs);
    if (met) throw conflict(path, cur, `, to the same key ${JSON.stringify("/" + met.join("/"))}`);
    value =
      change.op === "update"
        ? (mergePatch(current, change.patch) as JsonObject)
        : carryOver(current!, before, change.value);
  } else {
    value = change.op === "update" ? (mergePatch(current, change.patch) as JsonObject) : change.value;
  }
  const problem = check(value);
  if (problem !== undefined) {
    throw new CtxloomError("SCHEMA_MISMATCH", `${path} would not match its schema: ${problem}. Nothing was written.`);
  }
  return { value, schema };
}

/** MEMORY_TOO_LARGE past the cap. */
function size(path: string, content: string, limits: MemoryLimits): void {
  if (content.length > limits.maxChars) {
    throw new CtxloomError(
      "MEMORY_TOO_LARGE",
      `${path} would hold ${content.length} characters; a memory document holds at most ${limits.maxChars}. Shorten ` +
        `it, or split it in ` +
        `several documents. Nothing was written.`,
    );
  }
}

/** A new document must find room (the count) and a place (no document where its folders are, none under it). */
function placeable(now: MemoryNow, path: string, exists: boolean, limits: MemoryLimits): void {
  clash(now, path);
  if (exists) return;
  let count = 0;
  for (const r of now.byPath.values()) if (live(r)) count++;
  if (count + 1 > limits.maxDocuments) {
    throw new CtxloomError(
      "MEMORY_TOO_LARGE",
      `The memory holds ${count} documents, its most; delete one (or merge two) before adding ` +
        `${path}. Nothing was written.`,
    );
  }
}

/**
 * PATH_EXISTS when a document stands where `path`'s folders are, or `path` is a folder of documents (those under
 * `moving` aside).
 */
function clash(now: MemoryNow, path: string, moving?: string): void {
  for (const r of now.byPath.values()) {
    if (!live(r) || r.path === path || (moving !== undefined && within(r.path, moving))) continue;
    if (within(path, r.path) || within(r.path, path)) {
      const [doc, folder] = within(path, r.path) ? [r.path, path] : [path, r.path];
      throw new CtxloomError(
        "PATH_EXISTS",
        `${doc} is a document, so it cannot also be a folder (of ${folder}). Choose another path. ` +
          `Nothing was written.`,
      );
    }
  }
}

/** The documents at a path: the one there, or every one under that folder. @throws UNKNOWN_PATH */
function documentsAt(now: MemoryNow, path: string): MemoryRecord[] {
  const found = [...now.byPath.values()]
    .filter((r) => live(r) && within(r.path, path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  if (found.length === 0)
    throw new CtxloomError("UNKNOWN_PATH", `The memory has no document or folder at ${describe(path)}.`);
  return found;
}

/** MEMORY_CONFLICT when anything at or under `path` was written (or deleted) since the caller's revision. */
function touchedSince(
  now: MemoryNow,
  path: string,
  since: (r: MemoryRecord) => boolean,
  conflict: (path: string, r: MemoryRecord) => CtxloomError,
): void {
  for (const r of now.byPath.values()) if (within(r.path, path) && since(r)) throw conflict(r.path, r);
}
