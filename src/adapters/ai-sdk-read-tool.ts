// The read tool as an AI SDK tool, for a ToolSet: `{ readToolResult: aiSdkReadTool(chat) }`.
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import type { Chat } from "../chat/chat.js";
import type { CtxloomError } from "../errors.js";
import { checkChat } from "./agent.js";
import {
  READ_TOOL_DESCRIPTION,
  answerReadTool,
  checkReadToolOptions,
  readToolSchema,
  type ReadToolOptions,
  type ToolResultRequest,
} from "./read-tool.js";

/** The read tool in a ToolSet, under its name. */
export type ReadToolSet = { readToolResult: Tool<ToolResultRequest, string> };

/**
 * The read tool as an AI SDK tool (put it in a ToolSet as `readToolResult`; `chatLoop` does):
 * the model reads a tool result its context shows cleared or cut, by the message id the
 * marker names, a page at a time (see `readToolResult`). A call the chat refuses (an id that
 * is no tool result of this conversation, a page past the last) fails as the AI SDK reports
 * a tool's failure: the model gets its message as the call's error result, and the loop goes on.
 * @throws INVALID_ARGUMENT (not a chat; bad options)
 */
export function aiSdkReadTool(chat: Chat, options?: ReadToolOptions): Tool<ToolResultRequest, string> {
  checkChat(chat, "aiSdkReadTool(chat, options)");
  const o = checkReadToolOptions(options, "aiSdkReadTool(chat, options)");
  return tool({
    description: READ_TOOL_DESCRIPTION,
    inputSchema: jsonSchema<ToolResultRequest>(readToolSchema() as JSONSchema7),
    execute: async (input) => {
      const answer = await answerReadTool(chat, input, o);
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
