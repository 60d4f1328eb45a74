// The checks every text, id and name passes before a store keeps it: a string, well formed
// (no lone surrogate), non-empty where an id or a name must be, and a message's name as OpenAI
// accepts it. Part of the message room.
import { CtxloomError, describe, type ErrorCode } from "./errors.js";

/** Index of the first lone surrogate of `text` (half of a UTF-16 pair), or -1. */
export function loneSurrogate(text: string): number {
  // isWellFormed is ES2024; a scan where it is missing.
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (native?.call(text)) return -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** The path of the first string in `value` (walking objects and arrays) that holds a lone surrogate, or undefined. */
export function loneIn(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return loneSurrogate(value) >= 0 ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, v] of Object.entries(value)) {
    const found = loneIn(v, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Throws `code` when `text` holds a lone surrogate: providers reject it, and no store keeps it
 * (UTF-8 turns it into U+FFFD, PostgreSQL refuses it), so a text, an id or a name that holds
 * one would come back changed, or not at all.
 */
export function checkWellFormed(text: string, what: string, code: ErrorCode): string {
  const at = loneSurrogate(text);
  if (at >= 0) {
    throw new CtxloomError(
      code,
      `${what} holds a lone surrogate (half of a UTF-16 pair) at index ${at}, which providers reject and stores ` +
        `cannot keep; ` +
        `repair the text (e.g. text.toWellFormed()) before passing it.`,
    );
  }
  return text;
}

/** A text a provider accepts: a string with no lone surrogate. @throws INVALID_CONTENT */
export function checkContent(content: unknown, what = "content"): string {
  if (typeof content !== "string") {
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${what} must be a string; got ${describe(content)}. Serialize other values first.`,
    );
  }
  return checkWellFormed(content, what, "INVALID_CONTENT");
}

/**
 * An id or a name a store keeps (a user id, a message's name, a tool call's id): a non-empty, well-formed string.
 * @throws `code`
 */
export function checkLabel(value: unknown, what: string, code: ErrorCode = "INVALID_ARGUMENT"): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new CtxloomError(code, `${what} must be a non-empty string; got ${describe(value)}.`);
  }
  return checkWellFormed(value, what, code);
}

/**
 * A message's name OpenAI accepts (its rule for a participant's name: no white space, "<", "|",
 * "\\", "/" or ">"; white space as JavaScript's \s and Python's str.isspace() both read it), at
 * most 64 characters (its documented length). Anthropic's API has no names.
 */
export const MESSAGE_NAME = /^[^\s\u001c-\u001f\u0085<|\\/>]{1,64}$/;

/** A new message's name (`fresh`: see checkMessageInput), or one kept (well formed only). @throws INVALID_ARGUMENT */
export function checkMessageName(value: unknown, fresh: boolean): string {
  const name = checkLabel(value, "name (when given)");
  if (fresh && !MESSAGE_NAME.test(name)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `name ${describe(name)} is not a name OpenAI accepts: 1 to 64 characters, no white space, "<", "|", "\\", "/" ` +
        `or ">"; ` +
        `e.g. name.replace(/[\\s<|\\\\/>]/g, "_").slice(0, 64).`,
    );
  }
  return name;
}
