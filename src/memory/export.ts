// A memory as portable JSON (`memory.export()`; a chat's own memory travels in its ChatExport):
// its whole history, the records of revisions 1 to `revision`. An import checks it whole before
// anything is written: every record well formed, revisions dense from 1, each typed object the
// JSON object its schema admits, each deletion of a document the memory held.
import { CtxloomError, checkKeys, describe } from "../errors.js";
import { checkWrite, copyRecord } from "./checks.js";
import { compileSchema } from "./schema.js";
import type { JsonValue, MemoryRecord } from "./types.js";

/** The version of the memory format this release writes (and the newest it reads). */
export const MEMORY_EXPORT_VERSION = 1;

/** A memory and its history, as `memory.export()` gives it and `memory.import()` takes it. */
export interface MemoryExport {
  /** What the JSON is: a ctxloom memory. */
  format: "ctxloom.memory";
  /** The format's version (MEMORY_EXPORT_VERSION when written by this release). */
  version: number;
  /** The memory's newest revision (0: empty). */
  revision: number;
  /** Every record, in revision order (then path order): revisions 1 to `revision`. */
  records: MemoryRecord[];
}

const fail = (what: string) =>
  new CtxloomError(
    "INVALID_ARGUMENT",
    `This memory export cannot be imported: ${what}. Nothing was ` + `imported; fix it and retry.`,
  );

/** An export (or its JSON text), checked whole. @throws INVALID_ARGUMENT naming what is wrong */
export function checkMemoryExport(value: unknown): MemoryExport {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch (error) {
      throw fail(`it is not JSON (${(error as Error).message})`);
    }
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw fail(`it is ${describe(data)}, not a memory export`);
  const x = data as Partial<MemoryExport>;
  checkKeys(x, ["format", "version", "revision", "records"], "A memory export");
  if (x.format !== "ctxloom.memory") throw fail(`its format is ${describe(x.format)}, not "ctxloom.memory"`);
  if (!Number.isInteger(x.version) || (x.version as number) < 1)
    throw fail(`its version ${describe(x.version)} is not a version number`);
  if ((x.version as number) > MEMORY_EXPORT_VERSION)
    throw fail(
      `it was written in version ${x.version} of the format, newer than this ` + `release reads; upgrade ctxloom`,
    );
  const records = checkHistory(x.records, "its records");
  const last = records.length ? records[records.length - 1]!.revision : 0;
  if (x.revision !== last) throw fail(`its revision ${describe(x.revision)} is not its last record's (${last})`);
  return { format: "ctxloom.memory", version: x.version as number, revision: last, records };
}

/**
 * A memory's whole history, checked: well-formed records of revisions 1, 2, ... in order, each
 * typed object a JSON object its (compiling) schema admits, each deletion of a live document.
 * Returns copies. @throws INVALID_ARGUMENT (or the code of what is wrong), naming the record
 */
export function checkHistory(value: unknown, what: string, refuse: (what: string) => Error = fail): MemoryRecord[] {
  if (!Array.isArray(value)) throw refuse(`${what} are ${describe(value)}, not an array`);
  if (value.length === 0) return [];
  try {
    checkWrite("user", null, 0, value);
  } catch (error) {
    throw refuse(`${what}: ${(error as Error).message}`);
  }
  const live = new Set<string>();
  return (value as MemoryRecord[]).map((r, i) => {
    const at = `${what}[${i}] (${r.path}, revision ${r.revision})`;
    if (r.kind === "deleted") {
      if (!live.delete(r.path)) throw refuse(`${at} deletes a document the memory did not hold`);
    } else {
      live.add(r.path);
    }
    if (r.kind === "object") {
      let problem: string | undefined;
      try {
        const v = JSON.parse(r.content) as JsonValue;
        problem = compileSchema(JSON.parse(r.schema!))(v);
      } catch (error) {
        problem = (error as Error).message;
      }
      if (problem !== undefined) throw refuse(`${at} is not a typed object its schema admits: ${problem}`);
    }
    return copyRecord(r);
  });
}
