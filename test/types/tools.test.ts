// buildContext({ tools }) takes each SDK's tools without a cast (checked by the root tsc): an
// AI SDK ToolSet, OpenAI's Chat Completions and Responses function tools, Anthropic's tools.
// Type imports only.
import { expectTypeOf, it } from "vitest";
import type { ToolSet } from "ai";
import type { ChatCompletionFunctionTool, ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool } from "openai/resources/responses/responses";
import type { Tool as AnthropicTool, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import type { BuildOptions } from "../../src/index.js";
import type { ChatLoopOptions } from "../../src/ai-sdk.js";

type Tools = NonNullable<BuildOptions["tools"]>;

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(
  toolSet: ToolSet,
  completions: ChatCompletionFunctionTool[],
  responses: FunctionTool[],
  anthropic: AnthropicTool[],
  custom: ChatCompletionTool[],
  union: ToolUnion[],
): void {
  expectTypeOf(toolSet).toExtend<Tools>();
  expectTypeOf(completions).toExtend<Tools>();
  expectTypeOf(responses).toExtend<Tools>();
  expectTypeOf(anthropic).toExtend<Tools>();
  expectTypeOf(toolSet).toExtend<NonNullable<ChatLoopOptions["tools"]>>();
  // The SDK's own union, custom tools included (a build refuses those at run time: UNSUPPORTED_TOOL).
  expectTypeOf(custom).toExtend<Tools>();
  expectTypeOf(union).toExtend<Tools>(); // Anthropic's tools with its built-in ones
  expectTypeOf<"a tool">().not.toExtend<Tools>();
}
void typeChecks;

it("is checked by tsc", () => {});
