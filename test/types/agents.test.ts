// The agent loops and read tools on the SDKs' own types, without a cast (checked by the root
// tsc): what a loop's context() gives spreads into each SDK's create call, its step() takes each
// SDK's answer, the read tools' definitions are each SDK's tool type, chatLoop's tools are a
// ToolSet generateText takes. Type imports only.
import { expectTypeOf, it } from "vitest";
import type { ToolSet, Tool } from "ai";
import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionCreateParamsNonStreaming,
} from "openai/resources/chat/completions";
import type { FunctionTool, Response, ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Message,
  MessageCreateParamsNonStreaming,
  Tool as AnthropicTool,
} from "@anthropic-ai/sdk/resources/messages";
import type { Chat } from "../../src/index.js";
import { chatLoop, aiSdkReadTool, type ToolResultRequest } from "../../src/ai-sdk.js";
import { openAILoop, openAIReadTool } from "../../src/openai.js";
import { anthropicLoop, anthropicReadTool } from "../../src/anthropic.js";
import { ctxloomMiddleware, langchainReadTool } from "../../src/langchain.js";
import type { AgentMiddleware } from "langchain";
import type { StructuredToolInterface } from "@langchain/core/tools";

/** Never called: what tsc checks is the types of these calls. */
async function typeChecks(
  chat: Chat,
  openai: OpenAI,
  anthropic: Anthropic,
  tools: ToolSet,
  completionsTools: ChatCompletionFunctionTool[],
  responsesTools: FunctionTool[],
  anthropicTools: AnthropicTool[],
  completion: ChatCompletion,
  response: Response,
  message: Message,
): Promise<void> {
  const completions = openAILoop(chat, { tools: completionsTools });
  expectTypeOf({
    model: "gpt-4o",
    ...(await completions.context()),
  }).toExtend<ChatCompletionCreateParamsNonStreaming>();
  await openai.chat.completions.create({ model: "gpt-4o", ...(await completions.context()) });
  await completions.step(completion, (call) => call.function.arguments);
  await completions.step(completion.choices[0]!.message, () => [{ type: "text", text: "ok" }]);

  const responses = openAILoop(chat, { format: "responses", tools: responsesTools });
  expectTypeOf({ model: "gpt-4o", ...(await responses.context()) }).toExtend<ResponseCreateParamsNonStreaming>();
  await openai.responses.create({ model: "gpt-4o", ...(await responses.context()) });
  await responses.step(response, (call) => call.arguments);
  await responses.step(response.output, (call) => call.name);
  // @ts-expect-error a Responses loop takes Responses tools, not Chat Completions ones
  openAILoop(chat, { format: "responses", tools: completionsTools });

  const claude = anthropicLoop(chat, { tools: anthropicTools, cacheControl: true });
  expectTypeOf({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    ...(await claude.context()),
  }).toExtend<MessageCreateParamsNonStreaming>();
  await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, ...(await claude.context()) });
  await claude.step(message, (call) => JSON.stringify(call.input));
  await anthropicLoop(chat).context(); // no tools: the read tool alone

  expectTypeOf(openAIReadTool(chat).definition).toExtend<ChatCompletionFunctionTool>();
  expectTypeOf(openAIReadTool(chat, { format: "responses" }).definition).toExtend<FunctionTool>();
  expectTypeOf(anthropicReadTool(chat).definition).toExtend<AnthropicTool>();
  expectTypeOf(aiSdkReadTool(chat)).toEqualTypeOf<Tool<ToolResultRequest, string>>();

  expectTypeOf(ctxloomMiddleware(chat)).toExtend<AgentMiddleware>();
  expectTypeOf(langchainReadTool(chat)).toExtend<StructuredToolInterface>();

  const loop = chatLoop(chat, { tools });
  expectTypeOf(loop.tools).toExtend<ToolSet>();
  expectTypeOf(loop.tools.readToolResult).toEqualTypeOf<Tool<ToolResultRequest, string>>();
  const own = chatLoop(chat, { tools: { weather: aiSdkReadTool(chat) }, readTool: false });
  expectTypeOf(own.tools.weather).toEqualTypeOf<Tool<ToolResultRequest, string>>();
  // @ts-expect-error with readTool: false, the loop's tools are the ones given
  void own.tools.readToolResult;
}
void typeChecks;

it("is checked by tsc", () => {});
