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
  Loom, type AnthropicMessage, type ContextFormat, type ContextWindow, type ContextWindowFor, type OpenAIMessage,
  type ResponsesItem,
} from "../../src/index.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(source: ContextSource, format: ContextFormat): void {
  const openai: ChatCompletionMessageParam[] = buildContext(source).messages;
  const openai2: ChatCompletionMessageParam[] = buildContext(source, { format: "openai", maxMessages: 4 }).messages;
  const openai3: ChatCompletionMessageParam[] = buildContext(source, { system: "Be brief." }).messages;
  const anthropic = buildContext(source, { format: "anthropic" });
  const params: MessageParam[] = anthropic.messages;
  const system: string = anthropic.system;
  expectTypeOf(anthropic.format).toEqualTypeOf<"anthropic">();
  expectTypeOf(buildContext(source).format).toEqualTypeOf<"openai">();

  // Chosen at run time: a union, narrowed by `format`.
  const either = buildContext(source, { format });
  expectTypeOf(either).toEqualTypeOf<ContextWindow<OpenAIMessage> | ContextWindow<AnthropicMessage> | ContextWindow<ResponsesItem>>();
  if (either.format === "anthropic") {
    const p: MessageParam[] = either.messages;
    void p;
  } else if (either.format === "responses") {
    const p: ResponseInputItem[] = either.messages;
    void p;
  } else {
    const p: ChatCompletionMessageParam[] = either.messages;
    void p;
  }
  expectTypeOf<ContextWindowFor<{ format?: ContextFormat }>>().toEqualTypeOf<ContextWindow<OpenAIMessage> | ContextWindow<AnthropicMessage> | ContextWindow<ResponsesItem>>();
  const responses: ResponseInputItem[] = buildContext(source, { format: "responses" }).messages;
  expectTypeOf(buildContext(source, { format: "responses" }).format).toEqualTypeOf<"responses">();
  // @ts-expect-error Responses items are not chat messages
  const wrong3: ChatCompletionMessageParam[] = buildContext(source, { format: "responses" }).messages;
  void [responses, wrong3];
  expectTypeOf<ContextWindowFor<undefined>>().toEqualTypeOf<ContextWindow<OpenAIMessage>>();
  // @ts-expect-error an Anthropic context is not OpenAI messages
  const wrong: ChatCompletionMessageParam[] = anthropic.messages;
  // @ts-expect-error nor the other way round (an OpenAI system message is not a MessageParam)
  const wrong2: MessageParam[] = buildContext(source).messages;
  void [openai, openai2, openai3, params, system, wrong, wrong2];
}
void typeChecks;

/** The same through the Chat, as users call it. Never called. */
async function chatTypeChecks(chat: Awaited<ReturnType<ReturnType<Loom["user"]>["create"]>>, format: ContextFormat): Promise<void> {
  const openai: ChatCompletionMessageParam[] = (await chat.buildContext()).messages;
  const openai2: ChatCompletionMessageParam[] = (await chat.buildContext({ maxMessages: 4 })).messages;
  const anthropic: MessageParam[] = (await chat.buildContext({ format: "anthropic" })).messages;
  const either = await chat.buildContext({ format });
  if (either.format === "anthropic") {
    const p: MessageParam[] = either.messages;
    void p;
  } else if (either.format === "responses") {
    const p: ResponseInputItem[] = either.messages;
    void p;
  } else {
    const p: ChatCompletionMessageParam[] = either.messages;
    void p;
  }
  // @ts-expect-error an Anthropic context is not OpenAI messages
  const wrong: ChatCompletionMessageParam[] = (await chat.buildContext({ format: "anthropic" })).messages;
  void [openai, openai2, anthropic, wrong];
}
void chatTypeChecks;

describe("typed output", () => {
  it("the built messages are the SDKs' message params, in both formats and when chosen at run time", async () => {
    const loom = await Loom.open({ engine: "js" });
    const chat = await loom.user("u").create({ model: "gpt-4o", system: "Be brief." });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    await chat.append({ role: "assistant", content: "", toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] });
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
