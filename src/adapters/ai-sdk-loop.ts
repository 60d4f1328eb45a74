// A tool loop of the AI SDK kept in a chat: every step's messages go into the chat as they
// come, and every step is sent the context the chat builds within the budget: an agent's
// defaults (older tool results cleared, the read tool offered, the tools counted).
import type { ModelMessage, ToolSet } from "ai";
import { BUILD_KEYS, type BuildOptions } from "../context/types.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Chat } from "../chat/chat.js";
import { toModelContext, type ModelContext } from "./ai-sdk.js";
import { fromModelMessages } from "./ai-sdk-from.js";
import { resolveToolSet } from "./ai-sdk-tools.js";
import { aiSdkReadTool, type ReadToolSet } from "./ai-sdk-read-tool.js";
import { agentToolResults, checkChat, closeCalls, readToolOf } from "./agent.js";
import { READ_TOOL_NAME, type ReadToolOptions } from "./read-tool.js";
import type { FromOptions } from "./common.js";
import { reportedInputTokens } from "../models/calibration.js";

/**
 * Options of `chatLoop`: the build's (its format excepted), the loop's tools, the read tool, how reasoning parts are
 * taken.
 */
export interface ChatLoopOptions<TOOLS extends ToolSet = ToolSet>
  extends Omit<BuildOptions, "format" | "cacheControl" | "input" | "tools" | "providerCounter">,
    FromOptions {
  /**
   * The ToolSet the loop's model calls offer: counted in every step's budget (with the read
   * tool) by the rule of the chat's model's provider. Give generateText `loop.tools`.
   */
  tools?: TOOLS;
  /**
   * The read tool (`readToolResult`, in `loop.tools`): offered by default; false leaves it out; `{ maxTokens }` sizes
   * its pages.
   */
  readTool?: boolean | ReadToolOptions;
}

/** What chatLoop takes: every build option its type names, and `reasoning`, `readTool`. */
const LOOP_KEYS = [
  ...BUILD_KEYS.filter((k) => k !== "format" && k !== "input" && k !== "cacheControl"),
  "recall",
  "reasoning",
  "readTool",
];

/**
 * What `chatLoop` returns: give generateText / streamText `tools` and `prepareStep`, start it
 * with `context()`, then `await finish(result)`.
 */
export interface ChatLoop<TOOLS extends ToolSet = ToolSet> {
  /**
   * The tools for generateText / streamText: the loop's `tools` and the read tool (`readToolResult`) unless `readTool:
   * false`.
   */
  readonly tools: TOOLS;
  /** The context of the chat now, to start the call with. */
  context(): Promise<ModelContext>;
  /** Appends the previous steps' new messages to the chat, then returns the chat's context for this step. */
  prepareStep(step: { responseMessages: readonly ModelMessage[] }): Promise<ModelContext>;
  /**
   * Appends what the last step added (the final answer): pass the generateText result, or the
   * streamText result (its `responseMessages` is awaited). A call left without a result (a tool
   * with no `execute`, one waiting for an approval) is answered "cancelled". Returns how many
   * messages were appended.
   */
  finish(result: { responseMessages: readonly ModelMessage[] | PromiseLike<readonly ModelMessage[]> }): Promise<number>;
}

/**
 * A tool loop kept in `chat`, with an agent's defaults: `prepareStep` appends each finished
 * step's response messages (tool calls with their results) and rebuilds the step's
 * `{ instructions, messages }` from the chat within the model's budget; `finish` appends the
 * rest. One loop per call. Older tool results are sent cleared (`toolResults: { clear: true }`)
 * unless the loop's `toolResults` or the chat's settings (its own, its Loom's) say otherwise;
 * the read tool lets the model read them again; the tools (`loop.tools`) are counted.
 * A failed step never leaves the chat refusing the next turn: when an append fails part way,
 * and at `finish`, the calls left without a result are answered "cancelled"
 * (`chat.cancelToolCalls()`), as `chatTurn` does.
 * The build's options are checked here, as buildContext checks them (the ToolSet's tools when
 * they are first counted), so that a bad one fails before a step's messages are appended.
 * @throws INVALID_ARGUMENT (bad options; a result whose messages do not continue the loop)
 */
export function chatLoop<TOOLS extends ToolSet = {}>(
  chat: Chat,
  options: ChatLoopOptions<TOOLS> & { readTool: false },
): ChatLoop<TOOLS>;
/** `chatLoop` offering the read tool (the default): `loop.tools` has `readToolResult` beside the loop's tools. */
export function chatLoop<TOOLS extends ToolSet = {}>(
  chat: Chat,
  options?: ChatLoopOptions<TOOLS>,
): ChatLoop<TOOLS & ReadToolSet>;
export function chatLoop(chat: Chat, options?: ChatLoopOptions): ChatLoop {
  checkChat(chat, "chatLoop");
  const what = "chatLoop(chat, options)";
  const o = checkOptions<ChatLoopOptions>(options, what, LOOP_KEYS);
  const { reasoning, tools: given, readTool: readOption, ...rest } = o;
  const from: FromOptions = reasoning === undefined ? {} : { reasoning };
  fromModelMessages([], from); // checks `reasoning` now rather than at the first step
  const read = readToolOf(readOption, what);
  if (given !== undefined && (given === null || typeof given !== "object" || Array.isArray(given))) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.tools is the AI SDK ToolSet the loop offers ({ weather: tool({ ... }) }); got ${describe(given)}.`,
    );
  }
  if (read && given && READ_TOOL_NAME in given) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.tools has a tool named ${READ_TOOL_NAME}, the read tool's name: rename yours, or pass readTool: false.`,
    );
  }
  const tools: ToolSet = read ? { ...given, [READ_TOOL_NAME]: aiSdkReadTool(chat, read) } : { ...given };
  const build: Omit<BuildOptions, "tools" | "format"> = { ...rest };
  const toolResults = agentToolResults(chat, rest.toolResults);
  if (toolResults !== undefined) build.toolResults = toolResults;
  chat.preflight([], build);
  let appended = 0;
  const catchUp = async (messages: readonly ModelMessage[]): Promise<number> => {
    if (!Array.isArray(messages) || messages.length < appended) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `The loop has appended ${appended} response messages, and got ${describe(messages)} with fewer: pass the ` +
          `same call's messages.`,
      );
    }
    const inputs = fromModelMessages(messages.slice(appended), from);
    try {
      for (const input of inputs) await chat.append(input);
    } catch (error) {
      await closeCalls(chat);
      throw error;
    }
    const added = messages.length - appended;
    appended = messages.length;
    return added;
  };
  // The ToolSet is counted from the JSON schemas the AI SDK's asSchema gives (Zod 3 and promised schemas too), resolved
  // once.
  let counted: Promise<BuildOptions["tools"]> | undefined;
  let last: object | undefined;
  const context = async (): Promise<ModelContext> => {
    if (Object.keys(tools).length === 0) return toModelContext((last = await chat.buildForSdk(build)));
    counted ??= resolveToolSet(tools);
    return toModelContext((last = await chat.buildForSdk({ ...build, tools: await counted })));
  };
  // The usage of the step the AI SDK ran last, against the context built for it: the chat learns its count.
  const observe = (steps: unknown): void => {
    const done = Array.isArray(steps) ? (steps[steps.length - 1] as { usage?: unknown } | undefined) : undefined;
    if (last && done && reportedInputTokens(done.usage) !== undefined) chat.observeUsage(last, done.usage);
    last = undefined;
  };
  return {
    tools,
    context,
    async prepareStep(step) {
      observe((step as { steps?: unknown }).steps);
      await catchUp(step.responseMessages);
      return context();
    },
    async finish(result) {
      const r = result as { responseMessages?: unknown } | null;
      if (r === null || typeof r !== "object" || !("responseMessages" in r)) {
        throw new CtxloomError(
          "INVALID_ARGUMENT",
          `finish(result) takes the generateText or streamText result (with its responseMessages); got ` +
            `${describe(result)}.`,
        );
      }
      observe(await (r as { steps?: unknown }).steps);
      const added = await catchUp(
        await (r.responseMessages as readonly ModelMessage[] | PromiseLike<readonly ModelMessage[]>),
      );
      appended = 0;
      return added + (await chat.cancelToolCalls()).length;
    },
  };
}
