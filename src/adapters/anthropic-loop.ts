// Anthropic's tool loop kept in a chat, and the read tool in Anthropic's shape. Nothing of
// `@anthropic-ai/sdk` is imported: its objects are taken by their shape.
import type { Chat } from "../chat/chat.js";
import type { AnthropicMessage } from "../context/format.js";
import type { AnthropicToolLike } from "../tokens/tools.js";
import { checkChat } from "./agent.js";
import { fromAnthropicMessages, type AnthropicMessageLike } from "./anthropic.js";
import {
  READ_TOOL_DESCRIPTION,
  READ_TOOL_NAME,
  checkReadToolOptions,
  readRunner,
  readToolSchema,
  type ReadTool,
  type ReadToolOptions,
} from "./read-tool.js";
import { toolLoop, type LoopFormat, type ToolExecute, type ToolLoopOptions } from "./tool-loop.js";

/** The read tool as an Anthropic tool. */
export interface AnthropicReadToolDefinition {
  /** The tool's name: "readToolResult". */
  name: "readToolResult";
  /** What the tool does, for the model. */
  description: string;
  /** The JSON schema of the tool's input. */
  input_schema: { type: "object"; [key: string]: unknown };
}

/** A tool_use block of an Anthropic answer. */
export interface AnthropicToolUseLike {
  /** Always "tool_use". */
  type: "tool_use";
  /** The call's id, which the tool_result answering it names. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The tool's input, as the model wrote it. */
  input: unknown;
}

const definition = (): AnthropicReadToolDefinition => ({
  name: READ_TOOL_NAME,
  description: READ_TOOL_DESCRIPTION,
  input_schema: readToolSchema(),
});

/**
 * The read tool in Anthropic's shape: send `definition` with your tools, answer its tool_use
 * blocks with `run(block.input)` (a text starting "Error: " is a failed call: send it with
 * `is_error: true`, or as it is). `anthropicLoop` does both. See `readToolResult`.
 * @throws INVALID_ARGUMENT (not a chat; bad options)
 */
export function anthropicReadTool(chat: Chat, options?: ReadToolOptions): ReadTool<AnthropicReadToolDefinition> {
  const what = "anthropicReadTool(chat, options)";
  checkChat(chat, what);
  return { name: READ_TOOL_NAME, definition: definition(), run: readRunner(chat, checkReadToolOptions(options, what)) };
}

/**
 * Options of `anthropicLoop`: the agent loop's, and `cacheControl` (a prompt-caching breakpoint on the request's last
 * block).
 */
export interface AnthropicLoopOptions<T> extends ToolLoopOptions<T> {
  /** Mark the request's last block as a prompt-caching breakpoint (as buildContext's `cacheControl`). */
  cacheControl?: boolean;
}

/** What `anthropicLoop` returns: `context()` for each request, `step(answer, execute)` for each answer. */
export interface AnthropicLoop<T> {
  /** The request's system prompt (left out when empty), messages and tools, to spread into `messages.create`. */
  context(): Promise<{ system?: string; messages: AnthropicMessage[]; tools?: (T | AnthropicReadToolDefinition)[] }>;
  /**
   * Appends the model's answer (a `Message`), runs its tool_use blocks (the read tool's itself,
   * the others with `execute`, in order) and appends their results. Returns how many calls it
   * answered: 0 when the answer ends the turn. When a step fails (a tool throws, an append
   * fails), the calls left without a result are answered "cancelled" (`chat.cancelToolCalls()`),
   * then the error is thrown: the chat takes the next turn.
   */
  step(answer: AnthropicMessageLike, execute: ToolExecute<AnthropicToolUseLike>): Promise<number>;
}

/**
 * An Anthropic tool loop kept in `chat`, with an agent's defaults: older tool results sent
 * cleared (`toolResults: { clear: true }`) unless the loop's `toolResults` or the chat's
 * settings say otherwise, the read tool (`readToolResult`) offered and answered, and the tools
 * counted in every request's budget (with the tool-use system prompt Anthropic adds).
 * @throws INVALID_ARGUMENT (not a chat; bad options; tools not in Anthropic's shape)
 */
export function anthropicLoop<T extends AnthropicToolLike = never>(
  chat: Chat,
  options?: AnthropicLoopOptions<T>,
): AnthropicLoop<T> {
  const what = "anthropicLoop(chat, options)";
  checkChat(chat, what);
  const fmt: LoopFormat<AnthropicMessageLike, AnthropicToolUseLike> = {
    what,
    format: "anthropic",
    readTool: definition(),
    toolShape: "an Anthropic tool ({ name, description, input_schema })",
    toolName: (t) => {
      const tool = t as Partial<AnthropicToolLike> | null;
      const custom =
        tool !== null &&
        typeof tool === "object" &&
        (tool.type === undefined || tool.type === null || tool.type === "custom");
      return custom && typeof tool.name === "string" && tool.input_schema !== undefined ? tool.name : undefined;
    },
    from: (answer, o) => fromAnthropicMessages(answer, o),
    calls: (answer) => {
      const blocks = Array.isArray(answer.content) ? (answer.content as readonly { type: string }[]) : [];
      return new Map(
        blocks
          .filter((b) => b.type === "tool_use")
          .map((b) => [(b as AnthropicToolUseLike).id, b as AnthropicToolUseLike]),
      );
    },
  };
  const core = toolLoop(chat, options, fmt, ["cacheControl"]);
  return {
    async context() {
      const ctx = await core.context();
      return {
        ...(ctx.system.length > 0 ? { system: ctx.system } : {}),
        messages: ctx.messages as AnthropicMessage[],
        ...(core.tools.length > 0 ? { tools: [...core.tools] as (T | AnthropicReadToolDefinition)[] } : {}),
      };
    },
    step: (answer, execute) => core.step(answer, execute),
  };
}
