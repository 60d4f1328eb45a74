// Typed output (issue 7, item 6), checked by the root tsc (this file is in its include):
// ctx.messages is the openai package's ChatCompletionMessageParam[] without a cast, the
// Anthropic output its SDK's MessageParam[] plus a system string, and a format chosen at
// run time gives a union told apart by `format`. Type imports only: nothing of the SDKs
// is loaded. The runtime half sends the built messages through the SDKs' own types.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { buildContext, type ContextSource } from "../../src/context/build.js";
import {
  Loom,
  type AnthropicMessage,
  type ContextFormat,
  type ContextWindow,
  type ContextWindowFor,
  type OpenAIMessage,
  type ResponsesItem,
} from "../../src/index.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(source: ContextSource, format: ContextFormat): void {
  expectTypeOf(buildContext(source).messages).toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf(buildContext(source, { format: "openai", maxMessages: 4 }).messages).toExtend<
    ChatCompletionMessageParam[]
  >();
  expectTypeOf(buildContext(source, { system: "Be brief." }).messages).toExtend<ChatCompletionMessageParam[]>();
  const anthropic = buildContext(source, { format: "anthropic" });
  expectTypeOf(anthropic.messages).toExtend<MessageParam[]>();
  expectTypeOf(anthropic.system).toEqualTypeOf<string>();
  expectTypeOf(anthropic.format).toEqualTypeOf<"anthropic">();
  expectTypeOf(buildContext(source).format).toEqualTypeOf<"openai">();

  // Chosen at run time: a union, narrowed by `format`.
  const either = buildContext(source, { format });
  expectTypeOf(either).toEqualTypeOf<
    ContextWindow<OpenAIMessage> | ContextWindow<AnthropicMessage> | ContextWindow<ResponsesItem>
  >();
  if (either.format === "anthropic") expectTypeOf(either.messages).toExtend<MessageParam[]>();
  else if (either.format === "responses") expectTypeOf(either.messages).toExtend<ResponseInputItem[]>();
  else expectTypeOf(either.messages).toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf<ContextWindowFor<{ format?: ContextFormat }>>().toEqualTypeOf<
    ContextWindow<OpenAIMessage> | ContextWindow<AnthropicMessage> | ContextWindow<ResponsesItem>
  >();
  expectTypeOf(buildContext(source, { format: "responses" }).messages).toExtend<ResponseInputItem[]>();
  expectTypeOf(buildContext(source, { format: "responses" }).format).toEqualTypeOf<"responses">();
  // Responses items are not chat messages
  expectTypeOf(buildContext(source, { format: "responses" }).messages).not.toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf<ContextWindowFor<undefined>>().toEqualTypeOf<ContextWindow<OpenAIMessage>>();
  // An Anthropic context is not OpenAI messages, nor the other way round (an OpenAI system message is not a MessageParam)
  expectTypeOf(anthropic.messages).not.toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf(buildContext(source).messages).not.toExtend<MessageParam[]>();
}
void typeChecks;

/** The same through the Chat, as users call it. Never called. */
async function chatTypeChecks(
  chat: Awaited<ReturnType<ReturnType<Loom["user"]>["create"]>>,
  format: ContextFormat,
): Promise<void> {
  expectTypeOf((await chat.buildContext()).messages).toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf((await chat.buildContext({ maxMessages: 4 })).messages).toExtend<ChatCompletionMessageParam[]>();
  expectTypeOf((await chat.buildContext({ format: "anthropic" })).messages).toExtend<MessageParam[]>();
  const either = await chat.buildContext({ format });
  if (either.format === "anthropic") expectTypeOf(either.messages).toExtend<MessageParam[]>();
  else if (either.format === "responses") expectTypeOf(either.messages).toExtend<ResponseInputItem[]>();
  else expectTypeOf(either.messages).toExtend<ChatCompletionMessageParam[]>();
  // An Anthropic context is not OpenAI messages
  expectTypeOf((await chat.buildContext({ format: "anthropic" })).messages).not.toExtend<
    ChatCompletionMessageParam[]
  >();
}
void chatTypeChecks;

describe("typed output", () => {
  it("the built messages are the SDKs' message params, in both formats and when chosen at run time", async () => {
    const loom = await Loom.open({ engine: "js" });
    const chat = await loom.user("u").create({ model: "gpt-4o", system: "Be brief." });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
    });
    await chat.append({ role: "tool", content: "sunny", toolCallId: "c1" });
    const openai: ChatCompletionMessageParam[] = (await chat.buildContext()).messages;
    expect(openai.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    const ctx = await chat.buildContext({ format: "anthropic" });
    const anthropic: { system: string; messages: MessageParam[] } = ctx;
    expect(anthropic.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(ctx.format).toBe("anthropic");
    await loom.close();
  });
});
