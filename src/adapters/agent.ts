// What the agent loops share (chatLoop, openAILoop, anthropicLoop, ctxloomMiddleware): clearing of
// old tool results on unless the chat's settings say otherwise, and the read tool offered.
import type { Chat } from "../chat/chat.js";
import { CtxloomError, describe } from "../errors.js";
import type { ToolResultOptions } from "../models/tool-results.js";
import { checkReadToolOptions, type ReadToolOptions } from "./read-tool.js";

/**
 * The `toolResults` an agent loop builds with: the loop's own, with clearing turned on
 * (`clear: true`) where neither they nor the chat's settings (its own, its Loom's) set it.
 */
export function agentToolResults(chat: Chat, given: unknown): ToolResultOptions | undefined {
  const sets =
    given !== null &&
    typeof given === "object" &&
    !Array.isArray(given) &&
    (given as ToolResultOptions).clear !== undefined;
  if (sets || chat.agentSettings().clears) return given as ToolResultOptions | undefined;
  const object = given !== null && typeof given === "object" && !Array.isArray(given);
  if (given !== undefined && !object) return given as never; // the build refuses it
  return { ...(given as ToolResultOptions | undefined), clear: true };
}

/** `readTool` checked: its options, or null when the loop offers no read tool. @throws INVALID_ARGUMENT */
export function readToolOf(value: unknown, what: string): ReadToolOptions | null {
  if (value === undefined || value === true) return {};
  if (value === false) return null;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.readTool must be true, false or { maxTokens }; got ${describe(value)}.`,
    );
  }
  return checkReadToolOptions(value, `${what}.readTool`);
}

/** Throws INVALID_ARGUMENT unless `chat` is a chat. */
export function checkChat(chat: unknown, what: string): asserts chat is Chat {
  const c = chat as Partial<Chat> | null;
  const isChat =
    c !== null &&
    typeof c === "object" &&
    [c.append, c.buildContext, c.agentSettings].every((f) => typeof f === "function");
  if (!isChat) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`,
    );
  }
}

/**
 * Answers the calls left open "cancelled" after a failure (whose error is the one thrown): the chat takes the next
 * turn.
 */
export async function closeCalls(chat: Chat): Promise<void> {
  try {
    await chat.cancelToolCalls();
  } catch {
    // the store failed again: the failure thrown says so
  }
}
