// How a chat cuts a tool result too large for a request: the policy in force (the append's,
// else the chat's, else the Loom's) and the cut that leaves its tool unit room in a request.
import { CtxloomError } from "../errors.js";
import { checkToolResultLevel, cutToolResult, toolResultPolicy, type ToolResultPolicy } from "../context/tool-result.js";
import type { CheckedInput } from "../message.js";
import { withText } from "../parts.js";
import type { ChatRecord } from "../store/types.js";
import { REPLY_PRIMING, messageTokens } from "../tokens/chat.js";
import type { TokenCounter } from "../tokens/index.js";
import { storeCorrupt } from "./restore.js";

/**
 * A chat's policy: its own (`create({ toolResults })`, kept with it) when it set one, else the
 * Loom's. @throws STORE_CORRUPT when the one kept with the chat is malformed
 */
export function chatToolResults(record: ChatRecord, loom: ToolResultPolicy | null): ToolResultPolicy | null {
  const kept = record.options?.toolResults;
  if (kept === undefined) return loom;
  try {
    return toolResultPolicy(checkToolResultLevel(kept, "options.toolResults"), loom);
  } catch (error) {
    throw storeCorrupt(record.id)(`its options.toolResults are malformed: ${(error as Error).message}`);
  }
}

/** One append's policy: `append(message, { toolResults })` when it sets one, else the chat's. @throws INVALID_ARGUMENT */
export function appendToolResults(given: unknown, chat: ToolResultPolicy | null): ToolResultPolicy | null {
  return given === undefined ? chat : toolResultPolicy(checkToolResultLevel(given, "append(message, options).toolResults"), chat);
}

/** What a tool result is sent with, in tokens, and what one request may hold. */
export interface ToolResultRoom {
  counter: TokenCounter;
  /** What one request may hold (the effective window less the reserve). */
  appendLimit: number;
  /** The tokens of the unit so far: its call message and the results before this one, with the newest user turn. */
  unitTokens: number;
  /** The system prompt's tokens as a context sends it (within its slice). */
  systemTokens: number;
}

/**
 * Cuts tool result `m`'s text (in place) to `policy` and to what leaves its unit room in a
 * request: the call message, the results before it, the newest user turn and the system
 * prompt are sent with it. Its text stays as it is when it fits; images stay either way.
 * @throws MESSAGE_TOO_LARGE when they leave no room for a result of one token
 */
export function fitToolResult(m: CheckedInput, policy: ToolResultPolicy, room: ToolResultRoom): void {
  const left = room.appendLimit - REPLY_PRIMING - room.unitTokens - room.systemTokens;
  const limit = Math.min(policy.maxTokens, left);
  const fields = messageTokens(room.counter, { ...m, content: "" });
  if (left - fields < 1) {
    // Not even a result of one token fits beside its unit: cut, it would be sent never.
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `This tool result cannot be sent with its tool call, the results before it, the newest user turn and the system prompt: ` +
        `they leave ${Math.max(0, left)} of the request's ${room.appendLimit} tokens, and a result needs at least ${fields + 1}. ` +
        `Shorten the call's arguments or the user's message, or use a model with a larger window.`,
    );
  }
  const cut = cutToolResult(m.content, Math.max(1, limit - fields), room.counter, policy.keep);
  if (m.parts && cut !== m.content) m.parts = withText(m.parts, cut); // images kept, the text cut
  m.content = cut;
}
