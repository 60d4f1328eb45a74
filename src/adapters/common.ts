// What the SDK converters share: refusals with a code, checked lists, JSON arguments.
import { CtxloomError, describe } from "../errors.js";
import { checkMessageInput, type ContentPart, type MessageInput } from "../message.js";

/** Throws UNSUPPORTED_CONTENT: `what` (at `where`) cannot be carried by a chat message. */
export function unsupported(where: string, what: string, todo: string): never {
  throw new CtxloomError("UNSUPPORTED_CONTENT", `${where} is ${what}, which a ctxloom message cannot carry; ${todo}`);
}

/** The object at `where`, or INVALID_ARGUMENT. */
export function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${where} must be an object; got ${describe(value)}.`);
  }
  return value as Record<string, unknown>;
}

/** One value or a list of them, as a list (an empty list is refused). */
export function listOf(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new CtxloomError("INVALID_ARGUMENT", `${what} got an empty list; pass at least one message.`);
    return value;
  }
  return [value];
}

/** A string at `where`, or INVALID_ARGUMENT. */
export function stringAt(value: unknown, where: string): string {
  if (typeof value !== "string") throw new CtxloomError("INVALID_ARGUMENT", `${where} must be a string; got ${describe(value)}.`);
  return value;
}

/** Tool-call arguments as JSON text (a value that JSON cannot write is refused). */
export function argumentsText(input: unknown, where: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(input ?? {});
  } catch (cause) {
    throw new CtxloomError("INVALID_ARGUMENT", `${where} cannot be written as JSON (${String(cause)}).`, { cause });
  }
  if (text === undefined) throw new CtxloomError("INVALID_ARGUMENT", `${where} cannot be written as JSON; got ${describe(input)}.`);
  return text;
}

/** Tool-call arguments back to a value; text that is not JSON is kept as `{ arguments: text }`. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { arguments: text };
  }
}

/** Every input checked as `chat.append` would check it, so a converter never hands back what append refuses. */
export function checked(inputs: MessageInput[]): MessageInput[] {
  for (const input of inputs) checkMessageInput(input);
  return inputs;
}

/** Bytes as base64 (chunked: no argument list grows with the input). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** UTF-8 text as base64. */
export const textToBase64 = (text: string): string => bytesToBase64(new TextEncoder().encode(text));

/** The media type of a data: URL, or undefined. */
export const dataUrlType = (url: string): string | undefined => /^data:([^;,]+)/.exec(url)?.[1]?.toLowerCase();

/** The content of an input: the text alone when every part is text (joined with `join`), else the parts. */
export function contentOf(parts: ContentPart[], join: string): string | ContentPart[] {
  if (parts.every((p) => p.type === "text")) return parts.map((p) => (p as { text: string }).text).join(join);
  return parts.filter((p) => p.type !== "text" || p.text.length > 0);
}
