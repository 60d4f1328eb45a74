import type { TokenCounter } from "./types.js";
import type { ContentPart } from "../parts.js";
import { partTokens, type ImageRule } from "./parts.js";

/** The fields of a chat message that count towards the prompt. */
export interface CountableMessage {
  role: string;
  content: string;
  name?: string;
  toolCalls?: readonly { id: string; type: string; function: { name: string; arguments: string } }[];
  toolCallId?: string;
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
 */
export function messageTokens(counter: TokenCounter, m: CountableMessage, images: ImageRule = "openai"): number {
  let n = TOKENS_PER_MESSAGE + count(counter, m.role) + count(counter, m.content);
  if (m.name !== undefined) n += TOKENS_PER_NAME + count(counter, m.name);
  if (m.toolCallId !== undefined) n += count(counter, m.toolCallId);
  if (m.toolCalls) {
    for (const call of m.toolCalls) {
      n += count(counter, call.id) + count(counter, call.type) + count(counter, call.function.name) + count(counter, call.function.arguments);
    }
  }
  if (m.parts) for (const part of m.parts) n += partTokens(part, images, (text) => count(counter, text));
  if (n > MAX_TOKENS) {
    throw new CtxloomError("MESSAGE_TOO_LARGE", `A message of ${n} tokens is past what any model takes (${MAX_TOKENS}); split it.`);
  }
  return n;
}

/** A counter's count of one text, checked: counters may be the user's own, and the engines store whole 32-bit counts. */
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
