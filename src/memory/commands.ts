// The memory tool's commands (Anthropic's memory_20250818: view, create, str_replace, insert,
// delete, rename; and update, a merge by key into a typed object, for the function tools) run on a
// Memory: paths under /memories only, safe names only (paths.ts), caps on a file's size and the
// count of files, every edit a revision by the model from the tool's chat. Each command reads the
// memory as it is when its write is tried, and is tried again on the memory then when another
// write lands first: two models editing one file both land, or one is told why not.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { documentsOf } from "./cache.js";
import { DEFAULT_LIMITS, type MemoryChange, type MemoryLimits, type MemoryNow } from "./changes.js";
import { jsonObject } from "./json-object.js";
import type { Memory } from "./memory.js";
import { fromToolPath, toToolPath, within } from "./paths.js";
import type { JsonObject, MemoryRecord } from "./types.js";
import { COMMANDS } from "./tool-schema.js";

export { DEFAULT_LIMITS };

/** A refusal the model gets as the call's error (INVALID_ARGUMENT unless a code is given). */
const refuse = (
  message: string,
  code: "INVALID_ARGUMENT" | "UNKNOWN_PATH" | "PATH_EXISTS" | "INVALID_PATH" = "INVALID_ARGUMENT",
) => new CtxloomError(code, message);

/** A file's text as the tools show and edit it: a text as it is, a typed object as indented JSON. */
const fileText = (r: MemoryRecord): string =>
  r.kind === "object" ? JSON.stringify(JSON.parse(r.content), null, 2) : r.content;
const numbered = (lines: string[], first: number) =>
  lines.map((line, i) => `${String(i + first).padStart(6)}\t${line}`).join("\n");
const bytes = (s: string) => new TextEncoder().encode(s).length;
const size = (n: number) => (n < 1024 ? `${n}B` : `${(n / 1024).toFixed(1).replace(/\.0$/, "")}K`);

/**
 * Runs one command (its input: JSON text or the parsed object) and returns what the model reads.
 * `update` is taken only when `update` is true (the function tools; Anthropic's own tool has no such command).
 * @throws CtxloomError: INVALID_ARGUMENT, INVALID_PATH, UNKNOWN_PATH, PATH_EXISTS, MEMORY_TOO_LARGE, SCHEMA_MISMATCH,
 *   MEMORY_CONFLICT for what the model asked (send it back as the call's error), and the store's errors
 */
export async function runMemoryCommand(
  memory: Memory,
  input: unknown,
  limits: MemoryLimits,
  update: boolean,
): Promise<string> {
  let args = input;
  if (typeof input === "string") {
    try {
      args = JSON.parse(input) as unknown;
    } catch {
      throw refuse(
        `The arguments must be JSON such as {"command": "view", "path": "/memories"}; got ${describe(input)}.`,
      );
    }
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    throw refuse(`The arguments must be an object such as ` + `{"command": "view", "path": "/memories"}.`);
  const a = args as Record<string, unknown>;
  const command = a.command;
  const keys =
    typeof command === "string" && Object.hasOwn(COMMANDS, command) && (update || command !== "update")
      ? COMMANDS[command]!
      : undefined;
  if (!keys) {
    const known = Object.keys(COMMANDS).filter((c) => update || c !== "update");
    throw refuse(`The command must be one of ${known.join(", ")}; got ${describe(command)}.`);
  }
  const extra = Object.keys(a).find((k) => k !== "command" && !keys.includes(k));
  if (extra !== undefined) throw refuse(`The ${command} command takes ${keys.join(", ")}; got ${describe(extra)}.`);
  const text = (key: string) => {
    if (typeof a[key] !== "string")
      throw refuse(`The ${command} command needs ${key}, a string; got ${describe(a[key])}.`);
    return a[key] as string;
  };
  if (command === "view") return view(await memory.now(), fromToolPath(a.path), a.view_range);
  const edit = (make: (now: MemoryNow) => { change: MemoryChange; answer: string }) =>
    memory.apply(make, "model", limits).then((w) => w.answer);
  switch (command) {
    case "create": {
      const path = documentPath(a.path);
      const content = text("file_text");
      return edit((now) => {
        if (live(now, path))
          throw refuse(
            `${toToolPath(path)} already exists; edit it (str_replace, insert), or delete it ` + `first.`,
            "PATH_EXISTS",
          );
        return {
          change: { op: "text", path, text: content },
          answer: `File created successfully at: ${toToolPath(path)}`,
        };
      });
    }
    case "str_replace": {
      const path = documentPath(a.path);
      const [from, to] = [text("old_str"), text("new_str")];
      if (from === "") throw refuse("old_str must not be empty: give text that appears once in the file.");
      return edit((now) => {
        const r = file(now, path);
        const before = fileText(r);
        const first = before.indexOf(from);
        if (first < 0) throw refuse(`No replacement was made: old_str did not appear verbatim in ${toToolPath(path)}.`);
        if (before.indexOf(from, first + 1) >= 0) {
          throw refuse(
            `No replacement was made: old_str appears more than once in ${toToolPath(path)}; include more of the ` +
              `text around ` +
              `it.`,
          );
        }
        const after = before.slice(0, first) + to + before.slice(first + from.length);
        // The lines around the change, as the answer shows them.
        const lines = after.split("\n");
        const line = before.slice(0, first).split("\n").length;
        const start = Math.max(1, line - 2);
        const shown = numbered(lines.slice(start - 1, line + 1 + to.split("\n").length), start);
        return {
          change: changeOf(r, path, after),
          answer:
            `The memory file has been edited. Here is the snippet showing the change ` +
            `(with line numbers):\n${shown}`,
        };
      });
    }
    case "insert": {
      const path = documentPath(a.path);
      const at = a.insert_line;
      const added = text("insert_text");
      return edit((now) => {
        const r = file(now, path);
        const lines = fileText(r).split("\n");
        if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at > lines.length) {
          throw refuse(
            `insert_line must be a line number from 0 (the top) to ${lines.length} (the end) of ` +
              `${toToolPath(path)}; got ` +
              `${describe(at)}.`,
          );
        }
        lines.splice(at, 0, added.replace(/\n$/, ""));
        return { change: changeOf(r, path, lines.join("\n")), answer: `The file ${toToolPath(path)} has been edited.` };
      });
    }
    case "delete": {
      const path = fromToolPath(a.path);
      if (path === "")
        throw refuse("The /memories folder itself cannot be deleted; delete the files in it.", "INVALID_PATH");
      return edit((now) => ({
        change: { op: "delete", path: present(now, path) },
        answer: `Successfully deleted ${toToolPath(path)}`,
      }));
    }
    case "rename": {
      const [from, to] = [fromToolPath(a.old_path, "old_path"), fromToolPath(a.new_path, "new_path")];
      if (from === "" || to === "")
        throw refuse("The /memories folder itself cannot be moved, nor anything moved onto it.", "INVALID_PATH");
      return edit((now) => ({
        change: { op: "rename", path: present(now, from), to },
        answer: `Successfully renamed ${toToolPath(from)} ` + `to ${toToolPath(to)}`,
      }));
    }
    default: {
      const path = documentPath(a.path);
      if (a.patch === null || typeof a.patch !== "object" || Array.isArray(a.patch)) {
        throw refuse(
          `update needs patch, a JSON object of the keys to set (null removes one); got ${describe(a.patch)}.`,
        );
      }
      const patch = jsonObject(a.patch, "patch");
      return edit((now) => {
        const r = file(now, path);
        if (r.kind !== "object")
          throw refuse(
            `${toToolPath(path)} is a text file, not a typed object: edit it with str_replace or ` + `insert.`,
          );
        return {
          change: { op: "update", path, patch },
          answer: `The typed object ${toToolPath(path)} has been updated.`,
        };
      });
    }
  }
}

/** A file's path (not the root). @throws INVALID_PATH */
function documentPath(path: unknown): string {
  const p = fromToolPath(path);
  if (typeof path === "string" && path.endsWith("/") && p !== "")
    throw refuse(`${path} names a folder; name a file, e.g. ${path}notes.md.`, "INVALID_PATH");
  if (p === "")
    throw refuse("That is the /memories folder; name a file in it, e.g. /memories/notes.md.", "INVALID_PATH");
  return p;
}

const live = (now: MemoryNow, path: string) => {
  const r = now.byPath.get(path);
  return r !== undefined && r.kind !== "deleted" ? r : undefined;
};

/** The file at `path`. @throws UNKNOWN_PATH (a folder, or nothing) */
function file(now: MemoryNow, path: string): MemoryRecord {
  const r = live(now, path);
  if (r) return r;
  const folder = documentsOf(now).some((d) => within(d.path, path));
  throw refuse(
    folder
      ? `${toToolPath(path)} is a folder, not a file.`
      : `The path ${toToolPath(path)} does not exist; view /memories ` + `to see the files.`,
    "UNKNOWN_PATH",
  );
}

/** `path` when a file or folder is there. @throws UNKNOWN_PATH */
function present(now: MemoryNow, path: string): string {
  if (!documentsOf(now).some((d) => within(d.path, path)))
    throw refuse(`The path ${toToolPath(path)} does not exist.`, "UNKNOWN_PATH");
  return path;
}

/**
 * A text edit of a file as a change: a text's new text, or a typed object's new JSON (which must parse to an object).
 */
function changeOf(r: MemoryRecord, path: string, after: string): MemoryChange {
  if (r.kind === "text") return { op: "text", path, text: after };
  let value: unknown;
  try {
    value = JSON.parse(after);
  } catch (error) {
    throw new CtxloomError(
      "SCHEMA_MISMATCH",
      `${toToolPath(path)} holds a typed object: the edit must leave JSON, and it would not ` +
        `(${(error as Error).message}). Nothing was written.`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError(
      "SCHEMA_MISMATCH",
      `${toToolPath(path)} holds a typed object: the edit must leave a JSON object. Nothing was ` + `written.`,
    );
  }
  return { op: "value", path, value: value as JsonObject };
}

/** The view command: a folder's files (two levels deep) with their sizes, or a file's lines. */
function view(now: MemoryNow, path: string, range: unknown): string {
  const docs = documentsOf(now);
  const r = path === "" ? undefined : live(now, path);
  if (!r) {
    const under = docs.filter((d) => within(d.path, path));
    if (path !== "" && under.length === 0)
      throw refuse(
        `The path ${toToolPath(path)} does not exist; view /memories to see the ` + `files.`,
        "UNKNOWN_PATH",
      );
    if (range !== undefined) throw refuse("view_range applies to a file, not a folder.");
    const depth = path === "" ? 0 : path.split("/").length;
    const entries = new Map<string, number>();
    for (const d of under) {
      const parts = d.path.split("/").slice(depth);
      for (let i = 1; i <= Math.min(parts.length, 2); i++) {
        const name =
          [...d.path.split("/").slice(0, depth), ...parts.slice(0, i)].join("/") + (i < parts.length ? "/" : "");
        entries.set(name, (entries.get(name) ?? 0) + bytes(fileText(d)));
      }
    }
    const total = under.reduce((n, d) => n + bytes(fileText(d)), 0);
    const lines = [
      `${size(total)}\t${toToolPath(path)}`,
      ...[...entries].sort().map(([name, n]) => `${size(n)}\t${toToolPath(name)}`),
    ];
    return (
      `Here're the files and directories up to 2 levels deep in ${toToolPath(path)}, excluding hidden ` +
      `items:\n${lines.join("\n")}`
    );
  }
  const lines = fileText(r).split("\n");
  let first = 1;
  let shown = lines;
  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2)
      throw refuse(`view_range must be [start, end] (end -1: to the last line); got ` + `${describe(range)}.`);
    const start = checkInteger(range[0], "view_range[0]", 1, lines.length);
    const end = range[1] === -1 ? lines.length : checkInteger(range[1], "view_range[1]", start, lines.length);
    first = start;
    shown = lines.slice(start - 1, end);
  }
  const kind = r.kind === "object" ? ` (a typed object: its JSON must match the schema ${r.schema})` : "";
  return `Here's the content of ${toToolPath(path)}${kind} with line numbers:\n${numbered(shown, first)}`;
}
