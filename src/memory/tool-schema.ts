// What the memory tools show a model and take from an application: the tool's name, its
// description and the JSON schema of its arguments (the commands and the keys each takes), and the
// tools' options (caps on a file's size and the count of files), checked.
import { checkInteger, checkOptions } from "../errors.js";
import type { MemoryLimits } from "./changes.js";
import { MAX_DOCUMENTS, MAX_DOCUMENT_CHARS } from "./checks.js";

/** The commands of the memory tools, each with the keys of its arguments. */
export const COMMANDS: Record<string, readonly string[]> = {
  view: ["path", "view_range"],
  create: ["path", "file_text"],
  str_replace: ["path", "old_str", "new_str"],
  insert: ["path", "insert_line", "insert_text"],
  delete: ["path"],
  rename: ["old_path", "new_path"],
  update: ["path", "patch"],
};

/** The name the memory tool has in every SDK's shape (Anthropic's own tool is named so). */
export const MEMORY_TOOL_NAME = "memory" as const;

/** What the function tools say they do, for the model. */
export const MEMORY_TOOL_DESCRIPTION =
  "Your memory of this user, kept across conversations as files under /memories (what is in it is also shown in " +
  "your context). " +
  "View it before you start; record what you learn that will help later (preferences, facts, the state of a task), " +
  "and keep it tidy. Commands: view (path: /memories or a file; view_range [start, end]), create (path, file_text: " +
  "a new file), " +
  "str_replace (path, old_str: text that appears once, new_str), insert (path, insert_line: 0 for the top, " +
  "insert_text), " +
  "delete (path), rename (old_path, new_path), update (path, patch: a JSON object merged by key into a typed file; " +
  "null removes a key). " +
  "Paths are /memories/ then names of letters, digits, '.', '_' and '-'.";

/** The JSON schema of the function tools' arguments. */
export function memoryToolSchema(): {
  type: "object";
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
} {
  const str = (description: string) => ({ type: "string", description });
  return {
    type: "object",
    properties: {
      command: { type: "string", enum: Object.keys(COMMANDS), description: "What to do." },
      path: str("A path under /memories: /memories itself (view), a file, or a folder (view, delete)."),
      view_range: {
        type: "array",
        items: { type: "integer" },
        minItems: 2,
        maxItems: 2,
        description: "view: the lines [start, end] to show (end -1: to the last).",
      },
      file_text: str("create: the new file's text."),
      old_str: str("str_replace: text that appears exactly once in the file."),
      new_str: str("str_replace: the text to put in its place."),
      insert_line: {
        type: "integer",
        minimum: 0,
        description: "insert: the line after which to insert (0: at the top).",
      },
      insert_text: str("insert: the text to insert."),
      old_path: str("rename: the file or folder to move."),
      new_path: str("rename: where to move it."),
      patch: {
        type: "object",
        description: "update: the keys to set in a typed file (JSON Merge Patch: null removes a key).",
      },
    },
    required: ["command"],
    additionalProperties: false,
  };
}

/** Options of the memory tools. */
export interface MemoryToolOptions {
  /** Characters a file may hold, at most (default 20,000; up to 100,000). */
  maxChars?: number;
  /** Files the memory may hold, at most (default 50; up to 200). */
  maxDocuments?: number;
}

/** The memory tools' caps, checked; `what` names the call. @throws INVALID_ARGUMENT */
export function checkMemoryToolOptions(options: unknown, what: string, more: readonly string[] = []): MemoryLimits {
  const o = checkOptions<MemoryToolOptions>(options, what, ["maxChars", "maxDocuments", ...more]);
  return {
    maxChars: o.maxChars === undefined ? 20_000 : checkInteger(o.maxChars, `${what}.maxChars`, 1, MAX_DOCUMENT_CHARS),
    maxDocuments:
      o.maxDocuments === undefined ? 50 : checkInteger(o.maxDocuments, `${what}.maxDocuments`, 1, MAX_DOCUMENTS),
  };
}
