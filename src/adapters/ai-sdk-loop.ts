// A tool loop of the AI SDK kept in a chat: every step's messages go into the chat as they
// come, and every step is sent the context the chat builds within the budget.
import type { ModelMessage, ToolSet } from "ai";
import { BUILD_KEYS, type BuildOptions } from "../context/types.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Chat } from "../chat/chat.js";
import { toModelContext, type ModelContext } from "./ai-sdk.js";
import { fromModelMessages } from "./ai-sdk-from.js";
import { resolveToolSet } from "./ai-sdk-tools.js";
import type { FromOptions } from "./common.js";

/** Options of `chatLoop`: the build's (its format excepted) and how reasoning parts are taken. */
export interface ChatLoopOptions extends Omit<BuildOptions, "format" | "cacheControl" | "input">, FromOptions {}

/** What chatLoop takes: every build option its type names, and `reasoning`. */
const LOOP_KEYS = [...BUILD_KEYS.filter((k) => k !== "format" && k !== "input" && k !== "cacheControl"), "recall", "reasoning"];

/** What `chatLoop` returns: spread `prepareStep` into generateText / streamText, then `await finish(result)`. */
export interface ChatLoop {
  /** The context of the chat now, to start the call with. */
  context(): Promise<ModelContext>;
  /** Appends the previous steps' new messages to the chat, then returns the chat's context for this step. */
  prepareStep(step: { responseMessages: readonly ModelMessage[] }): Promise<ModelContext>;
  /**
   * Appends what the last step added (the final answer): pass the generateText result, or the
   * streamText result (its `responseMessages` is awaited). Returns how many messages were appended.
   */
  finish(result: { responseMessages: readonly ModelMessage[] | PromiseLike<readonly ModelMessage[]> }): Promise<number>;
}

/**
 * A tool loop kept in `chat`: `prepareStep` appends each finished step's response messages
 * (tool calls with their results) and rebuilds the step's `{ instructions, messages }`
 * from the chat within the model's budget; `finish` appends the rest. One loop per call.
 * The build's options are checked here, as buildContext checks them (a ToolSet's tools when
 * they are first counted), so that a bad one fails before a step's messages are appended.
 * @throws INVALID_ARGUMENT (bad options; a result whose messages do not continue the loop)
 */
export function chatLoop(chat: Chat, options?: ChatLoopOptions): ChatLoop {
  if (chat === null || typeof chat !== "object" || typeof (chat as Partial<Chat>).append !== "function" || typeof (chat as Partial<Chat>).buildContext !== "function") {
    throw new CtxloomError("INVALID_ARGUMENT", `chatLoop takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`);
  }
  const o = checkOptions<ChatLoopOptions>(options, "chatLoop(chat, options)", LOOP_KEYS);
  const { reasoning, ...build } = o;
  const from: FromOptions = reasoning === undefined ? {} : { reasoning };
  fromModelMessages([], from); // checks `reasoning` now rather than at the first step
  chat.preflight([], build.tools !== undefined && !Array.isArray(build.tools) ? { ...build, tools: undefined } : build);
  let appended = 0;
  const catchUp = async (messages: readonly ModelMessage[]): Promise<number> => {
    if (!Array.isArray(messages) || messages.length < appended) {
      throw new CtxloomError("INVALID_ARGUMENT", `The loop has appended ${appended} response messages, and got ${describe(messages)} with fewer: pass the same call's messages.`);
    }
    const inputs = fromModelMessages(messages.slice(appended), from);
    for (const input of inputs) await chat.append(input);
    const added = messages.length - appended;
    appended = messages.length;
    return added;
  };
  // A ToolSet is counted from the JSON schemas the AI SDK's asSchema gives (Zod 3 and promised schemas too), resolved once.
  let tools: Promise<BuildOptions["tools"]> | undefined;
  const context = async (): Promise<ModelContext> => {
    if (build.tools !== undefined && !Array.isArray(build.tools)) tools ??= resolveToolSet(build.tools as ToolSet);
    return toModelContext(await chat.buildContext(tools === undefined ? build : { ...build, tools: await tools }));
  };
  return {
    context,
    async prepareStep(step) {
      await catchUp(step.responseMessages);
      return context();
    },
    async finish(result) {
      const r = result as { responseMessages?: unknown } | null;
      if (r === null || typeof r !== "object" || !("responseMessages" in r)) {
        throw new CtxloomError("INVALID_ARGUMENT", `finish(result) takes the generateText or streamText result (with its responseMessages); got ${describe(result)}.`);
      }
      const added = await catchUp(await (r.responseMessages as readonly ModelMessage[] | PromiseLike<readonly ModelMessage[]>));
      appended = 0;
      return added;
    },
  };
}
