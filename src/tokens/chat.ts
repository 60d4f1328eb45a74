import type { TokenCounter } from "./types.js";
import type { ContentPart } from "../parts.js";
import { partTokens, type ImageRule } from "./parts.js";

/** The fields of a chat message that count towards the prompt. */
export interface CountableMessage {
  /** The message's role ("system", "user", "assistant", "tool"). */
  role: string;
  /** The message's text. */
  content: string;
  /** The author's name, counted when present. */
  name?: string;
  /** The tool calls, counted with their names and arguments. */
  toolCalls?: readonly { id: string; type: string; function: { name: string; arguments: string } }[];
  /** The id of the tool call a tool result answers. */
  toolCallId?: string;
  /** The content parts (images, files, reasoning...), counted by each provider's rule. */
  parts?: readonly ContentPart[];
}

import { CtxloomError, describe } from "../errors.js";

import { MAX_TOKENS } from "../message.js";

export { MAX_TOKENS };

/** OpenAI cookbook rules: every message costs 3 tokens, a `name` 1 more, the reply primer 3. */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 1;
export const REPLY_PRIMING = 3;

/**
 * Tokens one message costs in a chat request: the per-message overhead plus every
 * field's value encoded (role, content, name, and the tool call fields), plus the estimate
 * of each part that is not text (images by `images`' rule: see tokens/parts.ts).
 *
 * With `max`, a message costing more is not counted to the end: the number returned is then
 * greater than `max` (and no more than the cost), found at the cost of `max` tokens (the
 * counter's `countUpTo` or `atLeast`), so that 10 MiB sent to a small window is refused at
 * once. Without it (or past what any model takes): MESSAGE_TOO_LARGE.
 */
export function messageTokens(
  counter: TokenCounter,
  m: CountableMessage,
  images: ImageRule = "openai",
  max: number = MAX_TOKENS,
): number {
  const room = Math.min(max, MAX_TOKENS);
  let n = TOKENS_PER_MESSAGE + upTo(counter, m.role, room - TOKENS_PER_MESSAGE);
  if (m.name !== undefined) n += TOKENS_PER_NAME + upTo(counter, m.name, room - n - TOKENS_PER_NAME);
  if (m.toolCallId !== undefined) n += upTo(counter, m.toolCallId, room - n);
  if (m.toolCalls) {
    for (const call of m.toolCalls) {
      n += upTo(counter, call.id, room - n);
      n += upTo(counter, call.type, room - n);
      n += upTo(counter, call.function.name, room - n);
      n += upTo(counter, call.function.arguments, room - n);
    }
  }
  if (m.parts) for (const part of m.parts) n += partTokens(part, images, (text) => upTo(counter, text, room - n));
  n += upTo(counter, m.content, room - n); // last: the room left for it is what the other fields leave
  if (n > MAX_TOKENS || (n > room && room === MAX_TOKENS)) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `A message of ${n > room ? "more than " + room : n} tokens is past what any model takes (${MAX_TOKENS}); ` +
        `split it.`,
    );
  }
  return n;
}

/** Texts at least this long are counted up to a cap (shorter ones cost little whole). */
const LONG_TEXT = 4096;

/**
 * The count of `text` when at most `max`, else a number above `max` and at most the count:
 * the counter's countUpTo or its linear bound decide without counting the whole text.
 */
function upTo(counter: TokenCounter, text: string, max: number): number {
  if (max < 0) return 0; // already past: the caller's total is above its cap whatever this text adds
  if (text.length < LONG_TEXT) return count(counter, text);
  if (counter.countUpTo) {
    const n = callCounter(counter, () => counter.countUpTo!(text, max));
    if (typeof n === "number" && Number.isInteger(n) && n >= 0) return n;
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The token counter ${describe(counter.name)}'s countUpTo gave ${describe(n)}; it must return a whole, ` +
        `non-negative count.`,
    );
  }
  if (counter.atLeast) {
    const least = callCounter(counter, () => counter.atLeast!(text));
    if (typeof least === "number" && least > max) return Math.ceil(least);
  }
  return count(counter, text);
}

/**
 * A counter's count of one text, checked: counters may be the user's own, and the engines store whole 32-bit counts.
 */
export function countText(counter: TokenCounter, text: string): number {
  return count(counter, text);
}

function count(counter: TokenCounter, text: string): number {
  const n = callCounter(counter, () => counter.count(text));
  if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= MAX_TOKENS) return n;
  throw new CtxloomError(
    "INVALID_ARGUMENT",
    `The token counter ${describe(counter.name)} gave ${describe(n)}; a TokenCounter must return whole, ` +
      `non-negative counts (round with Math.ceil), at most ${MAX_TOKENS}.`,
  );
}

/** Runs one of a counter's methods: what it throws (counters may be the user's own) becomes INVALID_ARGUMENT. */
export function callCounter<T>(counter: TokenCounter, call: () => T): T {
  try {
    return call();
  } catch (cause) {
    if (cause instanceof CtxloomError) throw cause;
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The token counter ${describe(counter.name)} threw (${String(cause)}); a TokenCounter must handle any string.`,
      { cause },
    );
  }
}
