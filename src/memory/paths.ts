// The names of a memory's documents, and the memory tool's paths under /memories. A name is a
// path of at most four segments of letters, digits, "_", "-" and "." ("-" and "." never first), so that no
// name can climb out ("..", "/", "\", "%2e", "~", a drive letter, a control or look-alike
// character) or hide (".env"); the store has no links, so none can lead elsewhere.
import { CtxloomError, describe } from "../errors.js";

/** The memory tool's root: every path it takes starts with it. */
export const MEMORY_ROOT = "/memories";
/** Segments of a document's path, at most. */
export const MAX_DEPTH = 4;
/** Characters of a segment, at most. */
export const MAX_SEGMENT = 64;
/** Characters of a document's path, at most. */
export const MAX_PATH = 200;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Why `path` is not a document's path, or undefined when it is one. */
export function pathProblem(path: unknown): string | undefined {
  if (typeof path !== "string") return `it is ${describe(path)}, not a string`;
  if (path.length === 0) return "it is empty";
  if (path.length > MAX_PATH) return `it has ${path.length} characters (at most ${MAX_PATH})`;
  const segments = path.split("/");
  if (segments.length > MAX_DEPTH) return `it has ${segments.length} segments (at most ${MAX_DEPTH})`;
  for (const s of segments) {
    if (s.length === 0) return "it has an empty segment (a leading, trailing or double /)";
    if (s === "." || s === "..") return `it has the segment ${JSON.stringify(s)}`;
    if (s.length > MAX_SEGMENT) return `its segment ${describe(s)} has ${s.length} characters (at most ${MAX_SEGMENT})`;
    if (!SEGMENT.test(s))
      return `its segment ${describe(s)} is not made of letters, digits, "_", "-" and "." ("-" and "." never first)`;
  }
  return undefined;
}

/** A document's path, checked. @throws INVALID_PATH */
export function checkPath(path: unknown, what = "path"): string {
  const problem = pathProblem(path);
  if (problem !== undefined) {
    throw new CtxloomError(
      "INVALID_PATH",
      `${what} ${describe(path)} is not a memory document's path: ${problem}. Give a path such as "preferences.md" ` +
        `or "projects/trip.md".`,
    );
  }
  return path as string;
}

/**
 * A memory tool's path ("/memories/notes.md") as a document's path ("notes.md"); "" for the
 * root itself ("/memories", "/memories/"). @throws INVALID_PATH for anything outside, or not a safe name
 */
export function fromToolPath(path: unknown, what = "path"): string {
  if (typeof path !== "string")
    throw new CtxloomError(
      "INVALID_PATH",
      `${what} must be a string under ${MEMORY_ROOT}; got ` + `${describe(path)}.`,
    );
  if (path === MEMORY_ROOT || path === `${MEMORY_ROOT}/`) return "";
  if (!path.startsWith(`${MEMORY_ROOT}/`)) {
    throw new CtxloomError(
      "INVALID_PATH",
      `${what} ${describe(path)} is outside the memory: every path starts with ${MEMORY_ROOT}/, ` +
        `e.g. ${MEMORY_ROOT}/notes.md.`,
    );
  }
  const rest = path.slice(MEMORY_ROOT.length + 1);
  // A folder may be named with a trailing slash ("/memories/projects/"); a document never.
  const name = rest.endsWith("/") && rest.length > 1 ? rest.slice(0, -1) : rest;
  const problem = pathProblem(name);
  if (problem !== undefined) {
    throw new CtxloomError(
      "INVALID_PATH",
      `${what} ${describe(path)} is not a path the memory holds: ${problem}. Nothing was changed.`,
    );
  }
  return name;
}

/** A document's path as the memory tool names it. */
export const toToolPath = (path: string): string => (path === "" ? MEMORY_ROOT : `${MEMORY_ROOT}/${path}`);

/** Whether `path` is `folder` or under it ("" holds everything). */
export const within = (path: string, folder: string): boolean =>
  folder === "" || path === folder || path.startsWith(`${folder}/`);
