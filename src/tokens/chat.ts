import type { TokenCounter } from "./types.js";

/** The fields of a chat message that count towards the prompt. */
export interface CountableMessage {
  role: string;
  content: string;
  name?: string;
  toolCalls?: readonly { id: string; type: string; function: { name: string; arguments: string } }[];
  toolCallId?: string;
}

/** OpenAI cookbook rules: every message costs 3 tokens, a `name` 1 more, the reply primer 3. */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 1;
export const REPLY_PRIMING = 3;

/**
 * Tokens one message costs in a chat request: the per-message overhead plus every
 * field's value encoded (role, content, name, and the tool call fields).
 */
export function messageTokens(counter: TokenCounter, m: CountableMessage): number {
  let n = TOKENS_PER_MESSAGE + counter.count(m.role) + counter.count(m.content);
  if (m.name !== undefined) n += TOKENS_PER_NAME + counter.count(m.name);
  if (m.toolCallId !== undefined) n += counter.count(m.toolCallId);
  if (m.toolCalls) {
    for (const call of m.toolCalls) {
      n += counter.count(call.id) + counter.count(call.type) + counter.count(call.function.name) + counter.count(call.function.arguments);
    }
  }
  return n;
}
