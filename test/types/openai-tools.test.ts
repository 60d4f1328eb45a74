// OpenAI's own tool types (issue 32, item 3), openai 7 and openai 6 (installed as openai-v6):
// `ChatCompletionTool[]` and Responses `Tool[]` go into buildContext({ tools }) without a cast,
// and the context's messages keep their format's type, ready for the same SDK's request (checked
// by the root tsc). At run time a custom tool, or a built-in one, is refused with a code.
import { describe, expect, expectTypeOf, it } from "vitest";
import type OpenAI from "openai";
import type { ChatCompletionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem, Tool as ResponsesTool } from "openai/resources/responses/responses";
import type OpenAI6 from "openai-v6";
import type {
  ChatCompletionTool as ChatCompletionTool6,
  ChatCompletionMessageParam as ChatCompletionMessageParam6,
} from "openai-v6/resources/chat/completions";
import type {
  ResponseInputItem as ResponseInputItem6,
  Tool as ResponsesTool6,
} from "openai-v6/resources/responses/responses";
import { Loom, type Chat, type OpenAIMessage, type ResponsesItem } from "../../src/index.js";
import { expectRejectCode, snapshot } from "../helpers.js";

/** Never called: what tsc checks is the types of these calls. */
async function typeChecks(
  chat: Chat,
  client: OpenAI,
  client6: OpenAI6,
  completions: ChatCompletionTool[],
  responses: ResponsesTool[],
  completions6: ChatCompletionTool6[],
  responses6: ResponsesTool6[],
): Promise<void> {
  const ctx = await chat.buildContext({ tools: completions });
  expectTypeOf(ctx.messages).toEqualTypeOf<OpenAIMessage[]>();
  expectTypeOf(ctx.messages).toExtend<ChatCompletionMessageParam[]>();
  await client.chat.completions.create({ model: "gpt-4o", messages: ctx.messages, tools: completions });
  const items = await chat.buildContext({ format: "responses", tools: responses });
  expectTypeOf(items.messages).toEqualTypeOf<ResponsesItem[]>();
  expectTypeOf(items.messages).toExtend<ResponseInputItem[]>();
  await client.responses.create({ model: "gpt-4o", input: items.messages, tools: responses });

  const ctx6 = await chat.buildContext({ tools: completions6, maxOutputTokens: 500 });
  expectTypeOf(ctx6.messages).toEqualTypeOf<OpenAIMessage[]>();
  expectTypeOf(ctx6.messages).toExtend<ChatCompletionMessageParam6[]>();
  await client6.chat.completions.create({ model: "gpt-4o", messages: ctx6.messages, tools: completions6 });
  const items6 = await chat.buildContext({ format: "responses", tools: responses6 });
  expectTypeOf(items6.messages).toEqualTypeOf<ResponsesItem[]>();
  expectTypeOf(items6.messages).toExtend<ResponseInputItem6[]>();
  await client6.responses.create({ model: "gpt-4o", input: items6.messages, tools: responses6 });

  // @ts-expect-error a string is no list of tools
  await chat.buildContext({ tools: "weather" });
  // @ts-expect-error a tool without a type or a name is no tool
  await chat.buildContext({ tools: [{ description: "no name" }] });
}
void typeChecks;

describe("OpenAI tools at run time", () => {
  it("function tools are counted; a custom tool and a built-in one are refused with a code, changing nothing", async () => {
    const loom = await Loom.open();
    const chat = await loom.user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "hi" });
    const fn: ChatCompletionTool = {
      type: "function",
      function: { name: "weather", description: "The weather", parameters: { type: "object", properties: {} } },
    };
    expect((await chat.buildContext({ tools: [fn] })).usage.tools).toBeGreaterThan(0);
    const before = await snapshot(chat);
    const custom: ChatCompletionTool = { type: "custom", custom: { name: "sql", description: "free text" } };
    await expectRejectCode(() => chat.buildContext({ tools: [fn, custom] }), "UNSUPPORTED_TOOL");
    const search: ResponsesTool = { type: "web_search" };
    await expectRejectCode(() => chat.buildContext({ format: "responses", tools: [search] }), "UNSUPPORTED_TOOL");
    const customResponses: ResponsesTool = { type: "custom", name: "sql" };
    await expectRejectCode(
      () => chat.buildContext({ format: "responses", tools: [customResponses] }),
      "UNSUPPORTED_TOOL",
    );
    expect(await snapshot(chat)).toEqual(before);
    await loom.close();
  });
});
