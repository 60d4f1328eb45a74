// OpenAI's tool loops kept in a chat (Chat Completions, or Responses with format "responses"),
// and the read tool in OpenAI's shapes. Nothing of `openai` is imported: its objects are taken
// by their shape, and what the loop gives back is typed to be sent as it is.
import type { Chat } from "../chat/chat.js";
import type { OpenAIMessage, ResponsesItem } from "../context/format.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { ChatCompletionsToolLike, ResponsesToolLike } from "../tokens/tools.js";
import { checkChat } from "./agent.js";
import { fromOpenAIMessages, type OpenAICompletionLike, type OpenAIMessageLike } from "./openai.js";
import {
  READ_TOOL_DESCRIPTION,
  READ_TOOL_NAME,
  checkReadToolOptions,
  readRunner,
  readToolSchema,
  type ReadTool,
  type ReadToolOptions,
} from "./read-tool.js";
import { fromResponseItems, type ResponsesItemLike } from "./responses.js";
import { toolLoop, type LoopFormat, type ToolExecute, type ToolLoopOptions } from "./tool-loop.js";

/** The read tool as a Chat Completions function tool. */
export interface OpenAIReadToolDefinition {
  /** Always "function". */
  type: "function";
  /** The function: its name "readToolResult", description and the JSON schema of its input. */
  function: { name: "readToolResult"; description: string; parameters: { [key: string]: unknown }; strict: false };
}

/** The read tool as a Responses function tool. */
export interface ResponsesReadToolDefinition {
  /** Always "function". */
  type: "function";
  /** The tool's name: "readToolResult". */
  name: "readToolResult";
  /** What the tool does, for the model. */
  description: string;
  /** The JSON schema of the tool's input. */
  parameters: { [key: string]: unknown };
  /** Strict mode off: the schema has optional fields. */
  strict: false;
}

/** A tool call of a Chat Completions answer (`message.tool_calls[i]`). */
export interface OpenAIToolCallLike {
  /** The call's id, which the tool message answering it names. */
  id: string;
  /** The call's type ("function"). */
  type: string;
  /** The function called: its name and its arguments as JSON text. */
  function: { name: string; arguments: string };
}

/** A function call of a Responses answer (an `output` item of type "function_call"). */
export interface ResponseFunctionCallLike {
  /** Always "function_call". */
  type: "function_call";
  /** The call's id, which the function_call_output answering it names. */
  call_id: string;
  /** The function's name. */
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
}

const openaiDefinition = (): OpenAIReadToolDefinition => ({
  type: "function",
  function: { name: READ_TOOL_NAME, description: READ_TOOL_DESCRIPTION, parameters: readToolSchema(), strict: false },
});
const responsesDefinition = (): ResponsesReadToolDefinition => ({
  type: "function",
  name: READ_TOOL_NAME,
  description: READ_TOOL_DESCRIPTION,
  parameters: readToolSchema(),
  strict: false,
});

/**
 * The read tool in OpenAI's shape (Chat Completions by default, Responses with `format:
 * "responses"`): send `definition` with your tools, answer its calls with `run(call.function.arguments)`
 * (`openAILoop` does both). See `readToolResult`.
 * @throws INVALID_ARGUMENT (not a chat; bad options)
 */
export function openAIReadTool(
  chat: Chat,
  options: ReadToolOptions & { format: "responses" },
): ReadTool<ResponsesReadToolDefinition>;
/** The read tool as a Chat Completions function tool (the default). */
export function openAIReadTool(
  chat: Chat,
  options?: ReadToolOptions & { format?: "openai" },
): ReadTool<OpenAIReadToolDefinition>;
export function openAIReadTool(
  chat: Chat,
  options?: ReadToolOptions & { format?: "openai" | "responses" },
): ReadTool<OpenAIReadToolDefinition | ResponsesReadToolDefinition> {
  const what = "openAIReadTool(chat, options)";
  checkChat(chat, what);
  const { format, ...rest } = checkOptions<ReadToolOptions & { format?: unknown }>(options, what, [
    "maxTokens",
    "format",
  ]);
  const o = checkReadToolOptions(rest, what);
  const responses = checkFormat(format, what);
  return {
    name: READ_TOOL_NAME,
    definition: responses ? responsesDefinition() : openaiDefinition(),
    run: readRunner(chat, o),
  };
}

function checkFormat(format: unknown, what: string): boolean {
  if (format !== undefined && format !== "openai" && format !== "responses") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.format must be "openai" (Chat Completions, the default) or "responses"; got ${describe(format)}.`,
    );
  }
  return format === "responses";
}

/** Options of `openAILoop`: the agent loop's, and the API (`format`). */
export interface OpenAILoopOptions<T> extends ToolLoopOptions<T> {
  /** "openai": Chat Completions (default); "responses": the Responses API. */
  format?: "openai" | "responses";
}

/** What `openAILoop` returns: `context()` for each request, `step(answer, execute)` for each answer. */
export interface OpenAILoop<R, A, C> {
  /**
   * The request's context and tools, to spread into the create call: `{ messages, tools }` (Chat Completions) or `{
   * input, tools }` (Responses).
   */
  context(): Promise<R>;
  /**
   * Appends the model's answer, runs its tool calls (the read tool's itself, the others with
   * `execute`, in order) and appends their results. Returns how many calls it answered: 0 when
   * the answer ends the turn. When a step fails (a tool throws, an append fails), the calls
   * left without a result are answered "cancelled" (`chat.cancelToolCalls()`), then the error
   * is thrown: the chat takes the next turn.
   */
  step(answer: A, execute: ToolExecute<C>): Promise<number>;
}

/**
 * An OpenAI tool loop kept in `chat`, with an agent's defaults: older tool results sent cleared
 * (`toolResults: { clear: true }`) unless the loop's `toolResults` or the chat's settings say
 * otherwise, the read tool (`readToolResult`) offered and answered, and the tools counted in
 * every request's budget. Chat Completions by default; `format: "responses"` for the Responses API.
 * @throws INVALID_ARGUMENT (not a chat; bad options; tools not in that API's shape)
 */
export function openAILoop<T extends ResponsesToolLike = never>(
  chat: Chat,
  options: OpenAILoopOptions<T> & { format: "responses" },
): OpenAILoop<
  { input: ResponsesItem[]; tools?: (T | ResponsesReadToolDefinition)[] },
  ResponseLike,
  ResponseFunctionCallLike
>;
/**
 * `openAILoop` for Chat Completions (the default): `context()` gives `{ messages, tools }`, `step` takes a
 * `ChatCompletion` or its message.
 */
export function openAILoop<T extends ChatCompletionsToolLike = never>(
  chat: Chat,
  options?: OpenAILoopOptions<T> & { format?: "openai" },
): OpenAILoop<
  { messages: OpenAIMessage[]; tools?: (T | OpenAIReadToolDefinition)[] },
  OpenAICompletionLike | OpenAIMessageLike,
  OpenAIToolCallLike
>;
export function openAILoop(chat: Chat, options?: OpenAILoopOptions<unknown>): OpenAILoop<never, never, never> {
  const what = "openAILoop(chat, options)";
  checkChat(chat, what);
  const format = options !== null && typeof options === "object" ? (options as { format?: unknown }).format : undefined;
  const responses = checkFormat(format, what);
  const fmt = responses ? responsesFormat(what, responsesDefinition()) : chatFormat(what, openaiDefinition());
  const core = toolLoop(chat, options, fmt as LoopFormat<unknown, unknown>, ["format"]);
  return {
    async context() {
      const ctx = await core.context();
      const tools = core.tools.length > 0 ? { tools: [...core.tools] } : {};
      return (responses ? { input: ctx.messages, ...tools } : { messages: ctx.messages, ...tools }) as never;
    },
    step: (answer, execute) => core.step(answer, execute as never),
  };
}

/** A Responses answer: a `Response` (its `output` is taken), or its output items. */
export type ResponseLike = { output: readonly ResponsesItemLike[] } | readonly ResponsesItemLike[];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function chatFormat(
  what: string,
  readTool: unknown,
): LoopFormat<OpenAICompletionLike | OpenAIMessageLike, OpenAIToolCallLike> {
  const message = (a: OpenAICompletionLike | OpenAIMessageLike) =>
    ("choices" in a ? a.choices[0]?.message : a) as OpenAIMessageLike;
  return {
    what,
    format: "openai",
    readTool,
    toolShape:
      'a Chat Completions function tool ({ type: "function", function: { name, description, parameters } }; for ' +
      'Responses tools pass format: "responses")',
    toolName: (t) => {
      const named = isObject(t) && t.type === "function" && isObject(t.function) && typeof t.function.name === "string";
      return named ? (t.function as { name: string }).name : undefined;
    },
    from: (answer, o) => fromOpenAIMessages(answer, o),
    calls: (answer) => new Map((message(answer).tool_calls ?? []).map((c) => [c.id, c as OpenAIToolCallLike])),
  };
}

function responsesFormat(what: string, readTool: unknown): LoopFormat<ResponseLike, ResponseFunctionCallLike> {
  const items = (a: ResponseLike): readonly ResponsesItemLike[] =>
    isObject(a) && Array.isArray(a.output) ? a.output : (a as readonly ResponsesItemLike[]);
  return {
    what,
    format: "responses",
    readTool,
    toolShape: 'a Responses function tool ({ type: "function", name, description, parameters })',
    toolName: (t) =>
      isObject(t) && t.type === "function" && typeof t.name === "string" && t.function === undefined
        ? t.name
        : undefined,
    from: (answer, o) => fromResponseItems(items(answer), o),
    calls: (answer) => {
      const calls = items(answer).filter((i) => i.type === "function_call") as ResponseFunctionCallLike[];
      return new Map(calls.map((c) => [c.call_id, c]));
    },
  };
}
