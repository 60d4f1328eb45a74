// The tool loops of the SDKs that leave the loop to the app (OpenAI's Chat Completions and
// Responses, Anthropic's Messages), kept in a chat with an agent's defaults: each request is
// the context the chat builds (older tool results cleared, the tools counted, the read tool
// offered), each answer and its calls' results go into the chat, and a step that fails answers
// the calls it leaves open "cancelled", so that the chat takes the next turn.
import type { Chat } from "../chat/chat.js";
import { BUILD_KEYS, type BuildOptions, type ContextFormat, type ContextWindow } from "../context/types.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { MessageInput } from "../message.js";
import { agentToolResults, checkChat, closeCalls, readToolOf } from "./agent.js";
import { fromOptions, type FromOptions } from "./common.js";
import { READ_TOOL_NAME, readRunner, type ReadToolOptions } from "./read-tool.js";
import { reportedInputTokens } from "../models/calibration.js";

/**
 * Options every SDK's tool loop takes: the build's (but its format, input and tools), the tools, the read tool,
 * reasoning.
 */
export interface ToolLoopOptions<T>
  extends Omit<BuildOptions, "format" | "input" | "cacheControl" | "tools">,
    FromOptions {
  /**
   * The tool definitions the loop's requests offer, in the SDK's shape: counted in every request's budget with the read
   * tool.
   */
  tools?: readonly T[];
  /** The read tool (`readToolResult`): offered by default; false leaves it out; `{ maxTokens }` sizes its pages. */
  readTool?: boolean | ReadToolOptions;
}

/** What a tool result's content may be: a text, or text and image parts. */
export type ToolResultContent = MessageInput["content"];

/** Runs one of the model's tool calls (the SDK's own call object) and gives its result. */
export type ToolExecute<C> = (call: C) => ToolResultContent | PromiseLike<ToolResultContent>;

/**
 * What one SDK's loop knows: its format, its tools' shape, how its answers become chat messages, where their calls are.
 */
export interface LoopFormat<A, C> {
  readonly what: string;
  readonly format: ContextFormat;
  /** Whether `tool` is a definition in this SDK's shape, and its name. */
  toolName(tool: unknown): string | undefined;
  readonly toolShape: string;
  readonly readTool: unknown;
  from(answer: A, options: FromOptions): MessageInput[];
  /** The SDK's own call objects of an answer, by call id. */
  calls(answer: A): Map<string, C>;
}

/** The loop's core, wrapped by each SDK's loop. */
export interface LoopCore<A, C> {
  readonly tools: readonly unknown[];
  context(): Promise<ContextWindow>;
  step(answer: A, execute: ToolExecute<C>): Promise<number>;
}

const KEYS = [
  ...BUILD_KEYS.filter((k) => k !== "format" && k !== "input" && k !== "cacheControl"),
  "recall",
  "providerCounter",
  "reasoning",
  "readTool",
];

/**
 * The loop of `chat` for one SDK's format; `extra` names the options this SDK's loop takes
 * besides (they reach the build as given). @throws INVALID_ARGUMENT (bad options or tools)
 */
export function toolLoop<A, C>(
  chat: Chat,
  options: unknown,
  fmt: LoopFormat<A, C>,
  extra: readonly string[] = [],
): LoopCore<A, C> {
  checkChat(chat, fmt.what);
  const o = checkOptions<ToolLoopOptions<unknown> & Record<string, unknown>>(options, fmt.what, [...KEYS, ...extra]);
  const { reasoning, tools: given, readTool: readOption, ...rest } = o;
  const from = fromOptions(reasoning === undefined ? undefined : { reasoning }, fmt.what);
  const read = readToolOf(readOption, fmt.what);
  const tools = checkLoopTools(given, fmt, read !== null);
  const build: BuildOptions = { ...rest, format: fmt.format };
  const toolResults = agentToolResults(chat, rest.toolResults);
  if (toolResults !== undefined) build.toolResults = toolResults;
  if (tools.length > 0) build.tools = tools as BuildOptions["tools"];
  chat.preflight([], build); // every build option checked, the tools counted once, before anything is appended
  let last: ContextWindow | undefined;
  return {
    tools,
    context: async () => (last = await chat.buildContext(build)),
    step: (answer, execute) => {
      // The answer to the request built last, with the provider's usage (a ChatCompletion, a
      // Response, an Anthropic Message): the chat learns its count.
      if (last && reportedUsage(answer) !== undefined) chat.observeUsage(last, reportedUsage(answer));
      last = undefined;
      return step(chat, fmt, from, read, answer, execute);
    },
  };
}

/** The usage an answer carries (`answer.usage` with input tokens), if any. */
export function reportedUsage(answer: unknown): unknown {
  const usage = answer !== null && typeof answer === "object" ? (answer as { usage?: unknown }).usage : undefined;
  return reportedInputTokens(usage) === undefined ? undefined : usage;
}

function checkLoopTools<A, C>(given: unknown, fmt: LoopFormat<A, C>, read: boolean): unknown[] {
  if (given === undefined) return read ? [fmt.readTool] : [];
  if (!Array.isArray(given))
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${fmt.what}.tools must be a list of ${fmt.toolShape}; got ${describe(given)}.`,
    );
  given.forEach((tool: unknown, i) => {
    const name = fmt.toolName(tool);
    if (name === undefined)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${fmt.what}.tools[${i}] must be ${fmt.toolShape}; got ${describe(tool)}.`,
      );
    if (read && name === READ_TOOL_NAME) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${fmt.what}.tools[${i}] is named ${READ_TOOL_NAME}, the read tool's name: rename it, or pass readTool: false.`,
      );
    }
  });
  return read ? [...given, fmt.readTool] : [...given];
}

async function step<A, C>(
  chat: Chat,
  fmt: LoopFormat<A, C>,
  from: FromOptions,
  read: ReadToolOptions | null,
  answer: A,
  execute: ToolExecute<C>,
): Promise<number> {
  if (Array.isArray(answer) && fmt.format !== "responses") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `step(answer, execute) takes the model's answer, one message; got a list.`,
    );
  }
  const inputs = fmt.from(answer, from); // checked before anything is appended
  const other = inputs.find((input) => input.role !== "assistant");
  if (other)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `step(answer, execute) takes the model's answer; got a ${other.role} message. Append it with chat.append.`,
    );
  const calls = inputs.flatMap((input) => input.toolCalls ?? []);
  const own = calls.length > 0 ? fmt.calls(answer) : new Map<string, C>();
  if (calls.some((c) => !(read && c.function.name === READ_TOOL_NAME)) && typeof execute !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `step(answer, execute) needs execute, a function that runs a tool call and gives its result; got ` +
        `${describe(execute)}.`,
    );
  }
  try {
    for (const input of inputs) await chat.append(input);
    for (const call of calls) {
      let content: ToolResultContent;
      if (read && call.function.name === READ_TOOL_NAME)
        content = await readRunner(chat, read)(call.function.arguments);
      else content = await execute(own.get(call.id) as C);
      await chat.append({ role: "tool", toolCallId: call.id, content });
    }
  } catch (error) {
    await closeCalls(chat);
    throw error;
  }
  return calls.length;
}
