// The memory tool as an AI SDK tool, for a ToolSet: `{ memory: aiSdkMemoryTool(chat.memory) }`.
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import type { CtxloomError } from "../errors.js";
import {
  checkMemoryToolOptions,
  memoryToolSchema,
  MEMORY_TOOL_DESCRIPTION,
  type MemoryToolOptions,
} from "../memory/tool-schema.js";
import type { Memory } from "../memory/memory.js";
import { answerMemoryTool, checkMemory } from "./memory-tools.js";

/** A memory tool call's arguments: a command and its fields (see the tool's description). */
export type MemoryCommand = {
  command: "view" | "create" | "str_replace" | "insert" | "delete" | "rename" | "update";
  [key: string]: unknown;
};

/**
 * The memory tool as an AI SDK tool (put it in a ToolSet as `memory`): the model views and edits
 * the files of a memory (`chat.memory`) under /memories with Anthropic's memory commands, and
 * `update` for typed objects; every edit a revision by the model from that chat. A call the
 * memory refuses fails as the AI SDK reports a tool's failure: the model gets its message as the
 * call's error result, and the loop goes on.
 * @throws INVALID_ARGUMENT (not a memory; bad options)
 */
export function aiSdkMemoryTool(memory: Memory, options?: MemoryToolOptions): Tool<MemoryCommand, string> {
  const what = "aiSdkMemoryTool(memory, options)";
  const m = checkMemory(memory, what);
  const limits = checkMemoryToolOptions(options, what);
  return tool({
    description: MEMORY_TOOL_DESCRIPTION,
    inputSchema: jsonSchema<MemoryCommand>(memoryToolSchema() as JSONSchema7),
    execute: async (input) => {
      const answer = await answerMemoryTool(m, input, limits, true);
      if ("error" in answer) throw refusal(answer.error);
      return answer.text;
    },
  });
}

/**
 * The refusal thrown: the AI SDK sends the model `error.toString()`, which is the message alone here (the app still
 * gets the code).
 */
function refusal(error: CtxloomError): CtxloomError {
  Object.defineProperty(error, "toString", { value: () => error.message });
  return error;
}
