// The memory tool in each SDK's shape (OpenAI's function tools for Chat Completions and Responses,
// Anthropic's own memory tool memory_20250818 or a plain Anthropic tool; the AI SDK's in
// ai-sdk-memory-tool.ts): a definition to send with the request's tools and `run` for its calls,
// on a Memory (`chat.memory`: the user's, or the chat's own), every edit a revision by the model
// from that chat. A call the memory refuses goes back to the model as a tool error ("Error: ..."),
// never as an exception; the app's own errors (a store down, a closed Loom) are thrown.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { runMemoryCommand } from "../memory/commands.js";
import {
  MEMORY_TOOL_DESCRIPTION,
  MEMORY_TOOL_NAME,
  checkMemoryToolOptions,
  memoryToolSchema,
  type MemoryToolOptions,
} from "../memory/tool-schema.js";
import type { MemoryLimits } from "../memory/changes.js";
import { Memory } from "../memory/memory.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";

/** A memory tool in one SDK's shape: its definition to send, and `run` for its calls. */
export interface MemoryTool<D> {
  /** The tool's name, as the model calls it. */
  readonly name: "memory";
  /** The tool's definition in the SDK's shape, to send with the request's tools. */
  readonly definition: D;
  /**
   * Answers a call: its arguments (JSON text, or the parsed input) to what the model reads; for a
   * call the memory refuses (a path outside /memories, a file too large, old_str not found...), a
   * text starting "Error: " that says what to do (Anthropic: send it with `is_error: true`).
   */
  run(input: unknown): Promise<string>;
}

/** The memory tool as a Chat Completions function tool. */
export interface OpenAIMemoryToolDefinition {
  /** Always "function". */
  type: "function";
  /** The function: its name "memory", description and the JSON schema of its commands. */
  function: { name: "memory"; description: string; parameters: { [key: string]: unknown }; strict: false };
}

/** The memory tool as a Responses function tool. */
export interface ResponsesMemoryToolDefinition {
  /** Always "function". */
  type: "function";
  /** The tool's name: "memory". */
  name: "memory";
  /** What the tool does, for the model. */
  description: string;
  /** The JSON schema of the tool's commands. */
  parameters: { [key: string]: unknown };
  /** Strict mode off: the schema has optional fields. */
  strict: false;
}

/** Anthropic's own memory tool (`{ type: "memory_20250818", name: "memory" }`): its commands are answered by `run`. */
export interface AnthropicMemoryToolDefinition {
  /** Anthropic's memory tool version. */
  type: "memory_20250818";
  /** The tool's name: "memory". */
  name: "memory";
}

/** The memory tool as a plain Anthropic tool (`anthropicMemoryTool(memory, { native: false })`). */
export interface AnthropicMemoryFunctionDefinition {
  /** The tool's name: "memory". */
  name: "memory";
  /** What the tool does, for the model. */
  description: string;
  /** The JSON schema of the tool's commands. */
  input_schema: { type: "object"; [key: string]: unknown };
}

/** The refusals a model gets as the call's error result (the others are the app's). */
const REFUSALS = new Set([
  "INVALID_ARGUMENT",
  "INVALID_PATH",
  "UNKNOWN_PATH",
  "PATH_EXISTS",
  "MEMORY_TOO_LARGE",
  "SCHEMA_MISMATCH",
  "MEMORY_CONFLICT",
  "INVALID_SCHEMA",
]);

/** A memory, checked; `what` names the call. @throws INVALID_ARGUMENT */
export function checkMemory(memory: unknown, what: string): Memory {
  if (!(memory instanceof Memory)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes a memory (chat.memory, or loom.user(id).memory); got ${describe(memory)}.`,
    );
  }
  return memory;
}

/** Answers a call: the text, or the memory's refusal as `{ error }`; the app's errors are thrown. */
export async function answerMemoryTool(
  memory: Memory,
  input: unknown,
  limits: MemoryLimits,
  update: boolean,
): Promise<{ text: string } | { error: CtxloomError }> {
  try {
    return { text: await runMemoryCommand(memory, input, limits, update) };
  } catch (error) {
    if (error instanceof CtxloomError && REFUSALS.has(error.code)) return { error };
    throw error;
  }
}

/** `run` of a tool: refusals as "Error: " texts. */
function runner(memory: Memory, limits: MemoryLimits, update: boolean): (input: unknown) => Promise<string> {
  return async (input) => {
    const answer = await answerMemoryTool(memory, input, limits, update);
    return "text" in answer ? answer.text : TOOL_ERROR_PREFIX + answer.error.message;
  };
}

/**
 * The memory tool in OpenAI's shape (Chat Completions by default, Responses with `format:
 * "responses"`): send `definition` with your tools, answer its calls with `run(call.function.arguments)`.
 * The commands are Anthropic's memory tool's, with `update` for typed objects.
 * @throws INVALID_ARGUMENT (not a memory; bad options)
 */
export function openAIMemoryTool(
  memory: Memory,
  options: MemoryToolOptions & { format: "responses" },
): MemoryTool<ResponsesMemoryToolDefinition>;
/** The memory tool as a Chat Completions function tool (the default). */
export function openAIMemoryTool(
  memory: Memory,
  options?: MemoryToolOptions & { format?: "openai" },
): MemoryTool<OpenAIMemoryToolDefinition>;
export function openAIMemoryTool(
  memory: Memory,
  options?: MemoryToolOptions & { format?: "openai" | "responses" },
): MemoryTool<OpenAIMemoryToolDefinition | ResponsesMemoryToolDefinition> {
  const what = "openAIMemoryTool(memory, options)";
  const m = checkMemory(memory, what);
  const limits = checkMemoryToolOptions(options, what, ["format"]);
  const format = (options as { format?: unknown } | undefined)?.format;
  if (format !== undefined && format !== "openai" && format !== "responses") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.format must be "openai" (Chat Completions, the default) or "responses"; got ` + `${describe(format)}.`,
    );
  }
  const definition =
    format === "responses"
      ? {
          type: "function" as const,
          name: MEMORY_TOOL_NAME,
          description: MEMORY_TOOL_DESCRIPTION,
          parameters: memoryToolSchema(),
          strict: false as const,
        }
      : {
          type: "function" as const,
          function: {
            name: MEMORY_TOOL_NAME,
            description: MEMORY_TOOL_DESCRIPTION,
            parameters: memoryToolSchema(),
            strict: false as const,
          },
        };
  return { name: MEMORY_TOOL_NAME, definition, run: runner(m, limits, true) };
}

/**
 * Anthropic's memory tool (`memory_20250818`) answered from a memory: send `definition` with
 * your tools, answer its tool_use blocks with `run(block.input)` (a text starting "Error: " is a
 * failed call: send it with `is_error: true`). Its paths are confined to /memories: a path
 * outside, a name outside letters, digits, ".", "_" and "-", a file past `maxChars` or a memory
 * past `maxDocuments` is refused, nothing written. With `{ native: false }`, a plain tool of the
 * same commands (and `update` for typed objects), for gateways without Anthropic's own.
 * @throws INVALID_ARGUMENT (not a memory; bad options)
 */
export function anthropicMemoryTool(
  memory: Memory,
  options: MemoryToolOptions & { native: false },
): MemoryTool<AnthropicMemoryFunctionDefinition>;
/** Anthropic's own memory tool (the default). */
export function anthropicMemoryTool(
  memory: Memory,
  options?: MemoryToolOptions & { native?: true },
): MemoryTool<AnthropicMemoryToolDefinition>;
export function anthropicMemoryTool(
  memory: Memory,
  options?: MemoryToolOptions & { native?: boolean },
): MemoryTool<AnthropicMemoryToolDefinition | AnthropicMemoryFunctionDefinition> {
  const what = "anthropicMemoryTool(memory, options)";
  const m = checkMemory(memory, what);
  const limits = checkMemoryToolOptions(options, what, ["native"]);
  const native = checkOptions<{ native?: unknown }>(options, what).native ?? true;
  if (typeof native !== "boolean")
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.native must be true (Anthropic's memory tool) or ` + `false (a plain tool); got ${describe(native)}.`,
    );
  const definition = native
    ? { type: "memory_20250818" as const, name: MEMORY_TOOL_NAME }
    : { name: MEMORY_TOOL_NAME, description: MEMORY_TOOL_DESCRIPTION, input_schema: memoryToolSchema() };
  return { name: MEMORY_TOOL_NAME, definition, run: runner(m, limits, !native) };
}
