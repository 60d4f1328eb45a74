// Tool calls of an assistant message: their shape and what providers accept of a new one (a
// name, JSON arguments no deeper than their parsers go). Part of the message room.
import { CtxloomError, closest, describe } from "./errors.js";
import { checkLabel, checkWellFormed } from "./text-checks.js";

/** An OpenAI-style tool call carried by an assistant message. */
export interface ToolCall {
  /** The call's id, unique in the chat; the tool result answering it names it in `toolCallId`. */
  id: string;
  /** Always "function". */
  type: "function";
  /** The function called: its name and its arguments as JSON text. */
  function: { name: string; arguments: string };
}

/** A tool or function name every provider accepts (OpenAI's rule; Anthropic's is the same). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The deepest nesting of arrays and objects a new tool call's arguments may have. Providers
 * parse a request whole, the arguments a few levels down in it (Anthropic's `input` sits five
 * deep), and their parsers stop near 128 levels (serde_json's limit; Python's json recurses);
 * JSON.stringify overflows the stack past a few thousand. 100 leaves room for the request's own.
 */
export const MAX_ARGUMENT_DEPTH = 100;

const checkText = (value: unknown, what: string): string => checkLabel(value, what, "INVALID_TOOL_CALL");

/**
 * Throws INVALID_TOOL_CALL naming `what` when `value` has a key outside `known` (a misspelled key is never dropped).
 */
function checkCallKeys(value: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = closest(key, known);
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `${what} has no key ${JSON.stringify(key)}` +
        (hint ? `; did you mean ${JSON.stringify(hint)}?` : `; its keys are ${known.join(", ")}.`),
    );
  }
}

/**
 * Whether JSON text nests arrays and objects more than `limit` levels deep: its brackets
 * outside strings, read in one pass without recursion (a text 100,000 levels deep is read as
 * any other). Meant for text JSON.parse accepts; other text gives some answer, never a throw.
 */
export function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next unit is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** What providers accept of a new call's name and arguments. @throws INVALID_TOOL_CALL */
function checkSendable(name: string, args: string, at: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `${at}.function.name ${describe(name)} is not a tool name providers accept: 1 to 64 letters, digits, "_" or "-".`,
    );
  }
  if (nestsDeeper(args, MAX_ARGUMENT_DEPTH)) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `${at}.function.arguments nests arrays and objects more than ${MAX_ARGUMENT_DEPTH} levels deep, past what ` +
        `providers' JSON parsers ` +
        `read (about 128 levels, the request's own included); flatten the arguments, or pass a deep structure as a ` +
        `JSON string inside them.`,
    );
  }
  try {
    JSON.parse(args);
  } catch {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `${at}.function.arguments must be JSON text (e.g. "{}" or JSON.stringify(args)), as providers parse it; got ` +
        `${describe(args)}.`,
    );
  }
}

/**
 * A validated copy of tool calls: a non-empty array of `{ id, type: "function", function:
 * { name, arguments } }` with distinct ids and no other key. New calls (`fresh`, the default:
 * an append, an import) must also be what providers accept: a name of `TOOL_NAME`, arguments
 * that are JSON text nested at most MAX_ARGUMENT_DEPTH levels. Calls a store kept are read as
 * they were written. @throws INVALID_TOOL_CALL
 */
export function checkToolCalls(calls: unknown, fresh = true): ToolCall[] {
  if (!Array.isArray(calls) || calls.length === 0) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `toolCalls must be a non-empty array of { id, type: "function", function: { name, arguments } }; got ` +
        `${describe(calls)}.`,
    );
  }
  const ids = new Set<string>();
  return calls.map((call: unknown, i) => {
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `toolCalls[${i}] must be an object { id, type, function }; got ${describe(call)}.`,
      );
    }
    checkCallKeys(call, ["id", "type", "function"], `toolCalls[${i}]`);
    const c = call as Partial<ToolCall>;
    const id = checkText(c.id, `toolCalls[${i}].id`);
    if (ids.has(id))
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `toolCalls[${i}].id ${describe(id)} repeats an earlier call's id; give every call its own id.`,
      );
    ids.add(id);
    if (c.type !== "function")
      throw new CtxloomError("INVALID_TOOL_CALL", `toolCalls[${i}].type must be "function"; got ${describe(c.type)}.`);
    const fn = c.function as Partial<ToolCall["function"]> | undefined;
    if (fn === null || typeof fn !== "object" || Array.isArray(fn)) {
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `toolCalls[${i}].function must be an object { name, arguments }; got ${describe(fn)}.`,
      );
    }
    checkCallKeys(fn, ["name", "arguments"], `toolCalls[${i}].function`);
    const name = checkText(fn.name, `toolCalls[${i}].function.name`);
    if (typeof fn.arguments !== "string") {
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `toolCalls[${i}].function.arguments must be a string (JSON text); got ${describe(fn.arguments)}.`,
      );
    }
    checkWellFormed(fn.arguments, `toolCalls[${i}].function.arguments`, "INVALID_TOOL_CALL");
    if (fresh) checkSendable(name, fn.arguments, `toolCalls[${i}]`);
    return { id, type: "function", function: { name, arguments: fn.arguments } };
  });
}
