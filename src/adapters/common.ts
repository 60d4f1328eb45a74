// What the SDK converters share: refusals with a code, checked lists, JSON arguments.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { checkMessageInput, type ContentPart, type Message, type MessageInput } from "../message.js";

/**
 * What the converters to an SDK's messages take: a chat's message or an input for `chat.append`,
 * its content a string (with `parts` when the message has rich parts) or a list of parts.
 */
export type ConvertibleMessage = Pick<Message, "role" | "name" | "toolCalls" | "toolCallId"> & {
  content: string | readonly ContentPart[];
  parts?: readonly ContentPart[];
};

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

/** What a conversion does with reasoning (thinking blocks, reasoning parts or items). */
export type ReasoningMode = "keep" | "drop" | "refuse";

/** Options of every `from*` converter. */
export interface FromOptions {
  /**
   * Reasoning: "keep" (default: as reasoning parts, with the Anthropic signature, or redacted
   * reasoning with its data), "drop" (left out: fine for providers that do not need it back)
   * or "refuse" (UNSUPPORTED_CONTENT). What a chat message cannot keep (OpenAI's encrypted
   * reasoning items) is refused unless dropped.
   */
  reasoning?: ReasoningMode;
}

/** The options of a `from*` converter, checked; reasoning defaults to "keep". @throws INVALID_ARGUMENT */
export function fromOptions(options: unknown, what: string): Required<FromOptions> {
  const o = checkOptions<FromOptions>(options, `${what}(messages, options)`, ["reasoning"]);
  const reasoning = o.reasoning ?? "keep";
  if (reasoning !== "keep" && reasoning !== "refuse" && reasoning !== "drop") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `reasoning must be "keep", "drop" or "refuse"; got ${describe(o.reasoning)}.`,
    );
  }
  return { reasoning };
}

/**
 * Every `from*` converter's shape: one SDK message or a list of them in (an empty list
 * gives an empty list), the inputs for `chat.append` out, in order, each checked as append
 * checks it. `convert` gets each message with where it sits, for error messages.
 */
export function convertEach(
  value: unknown,
  what: string,
  convert: (message: unknown, where: string) => MessageInput | MessageInput[],
  noun = "message",
): MessageInput[] {
  const out: MessageInput[] = [];
  if (Array.isArray(value))
    value.forEach((m: unknown, i) => out.push(...[convert(m, `${what}(${noun}s)[${i}]`)].flat()));
  else out.push(...[convert(value, `${what}(${noun})`)].flat());
  return checked(out);
}

/** A string at `where`, or INVALID_ARGUMENT. */
export function stringAt(value: unknown, where: string): string {
  if (typeof value !== "string")
    throw new CtxloomError("INVALID_ARGUMENT", `${where} must be a string; got ${describe(value)}.`);
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
  if (text === undefined)
    throw new CtxloomError("INVALID_ARGUMENT", `${where} cannot be written as JSON; got ${describe(input)}.`);
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
