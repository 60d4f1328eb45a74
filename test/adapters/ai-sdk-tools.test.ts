// buildContext({ tools }) takes an AI SDK ToolSet as it is (issue 24, item 3): counted from the
// JSON schema each tool's inputSchema gives (jsonSchema(), Zod 4), by the rule of the model's
// provider; what only the AI SDK converts (Zod 3, a promised schema) goes through
// resolveToolSet, the SDK's own asSchema, which chatLoop uses itself.
import { dynamicTool, generateText, jsonSchema, tool, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as z3 from "zod/v3";
import { Loom, type Chat } from "../../src/index.js";
import { chatLoop, resolveToolSet } from "../../src/ai-sdk.js";
import { expectRejectCode, forEachEngine, snapshot } from "../helpers.js";

// The OpenAI cookbook's weather tool: the API counts 101 prompt tokens with its messages on gpt-4o.
const description = "Get the current weather in a given location";
const parameters = {
  type: "object" as const,
  properties: {
    location: { type: "string" as const, description: "The city and state, e.g. San Francisco, CA" },
    unit: {
      type: "string" as const,
      description: "The unit of temperature to return",
      enum: ["celsius", "fahrenheit"],
    },
  },
  required: ["location"],
};
const OPENAI_TOOL = { type: "function" as const, function: { name: "get_current_weather", description, parameters } };
const zod4 = z.object({
  location: z.string().describe("The city and state, e.g. San Francisco, CA"),
  unit: z.enum(["celsius", "fahrenheit"]).describe("The unit of temperature to return").optional(),
});
const zod3 = z3.object({
  location: z3.string().describe("The city and state, e.g. San Francisco, CA"),
  unit: z3.enum(["celsius", "fahrenheit"]).describe("The unit of temperature to return").optional(),
});
const execute = async () => ({ celsius: 12 });

async function cookbookChat(engine: "wasm" | "js", model = "gpt-4o"): Promise<Chat> {
  const chat = await (await Loom.open({ engine }))
    .user("u")
    .create({ model, system: "You are a helpful assistant that can answer to questions about the weather." });
  await chat.append({ role: "user", content: "What's the weather like in San Francisco?" });
  return chat;
}

forEachEngine((engine) => {
  it("a ToolSet of jsonSchema() or Zod 4 tools counts as the same tool in OpenAI's shape: the cookbook's 101 tokens", async () => {
    const chat = await cookbookChat(engine);
    const expected = (await chat.buildContext({ tools: [OPENAI_TOOL] })).usage;
    expect(expected.total).toBe(101);
    for (const inputSchema of [jsonSchema(parameters), zod4]) {
      const tools = { get_current_weather: tool({ description, inputSchema, execute }) };
      expect((await chat.buildContext({ tools })).usage).toEqual(expected);
    }
    const dynamic = { get_current_weather: dynamicTool({ description, inputSchema: jsonSchema(parameters), execute }) };
    expect((await chat.buildContext({ tools: dynamic })).usage).toEqual(expected);
  });

  it("on a Claude model a ToolSet counts as Anthropic counts: its tool-use system prompt and the definitions", async () => {
    const chat = await cookbookChat(engine, "claude-sonnet-4-5");
    const tools = { get_current_weather: tool({ description, inputSchema: jsonSchema(parameters), execute }) };
    const set = await chat.buildContext({ tools });
    const list = await chat.buildContext({
      tools: [{ name: "get_current_weather", description, input_schema: parameters }],
    });
    expect(set.usage.tools).toBe(list.usage.tools);
    expect(set.usage.tools).toBeGreaterThan(346);
    // The same ToolSet for an OpenAI model: OpenAI's rule.
    expect((await chat.buildContext({ tools, model: "gpt-4o" })).usage.tools).toBeLessThan(100);
  });

  it("a Zod 3 schema or a promised one is refused by the build, and counts once resolved with the AI SDK", async () => {
    const chat = await cookbookChat(engine);
    const before = await snapshot(chat);
    const expected = (await chat.buildContext({ tools: [OPENAI_TOOL] })).usage.tools;
    const sets: ToolSet[] = [
      { get_current_weather: tool({ description, inputSchema: zod3, execute }) },
      {
        get_current_weather: tool({
          description,
          inputSchema: jsonSchema(Promise.resolve(parameters) as never),
          execute,
        }),
      },
    ];
    for (const tools of sets) {
      await expectRejectCode(() => chat.buildContext({ tools }), "INVALID_ARGUMENT");
      expect((await chat.buildContext({ tools: await resolveToolSet(tools) })).usage.tools).toBe(expected);
    }
    expect(await snapshot(chat)).toEqual(before);
  });

  it("refuses what is no ToolSet, provider tools and bad names with a code; nothing changes", async () => {
    const chat = await cookbookChat(engine);
    const before = await snapshot(chat);
    const provider = {
      type: "provider",
      id: "anthropic.web_search_20250305",
      isProviderExecuted: true,
      args: {},
      inputSchema: jsonSchema({ type: "object" }),
    };
    await expectRejectCode(() => chat.buildContext({ tools: { weather: provider } as never }), "UNSUPPORTED_TOOL");
    const bad: unknown[] = [
      { weather: "a tool" },
      { "get weather": tool({ description, inputSchema: zod4, execute }) },
      { weather: tool({ description: (() => "d") as never, inputSchema: zod4, execute }) },
      { weather: { inputSchema: { "~standard": { vendor: "other", version: 1, validate: () => ({ value: 1 }) } } } },
    ];
    for (const tools of bad)
      await expectRejectCode(() => chat.buildContext({ tools: tools as never }), "INVALID_ARGUMENT");
    await expectRejectCode(() => resolveToolSet([OPENAI_TOOL] as never), "INVALID_ARGUMENT");
    await expectRejectCode(
      () =>
        resolveToolSet({
          weather: { inputSchema: { "~standard": { vendor: "other", version: 1, validate: () => ({ value: 1 }) } } },
        } as never),
      "INVALID_ARGUMENT",
    );
    expect(await snapshot(chat)).toEqual(before);
  });
});

describe("what is counted is what the AI SDK sends", () => {
  it("resolveToolSet gives the JSON schema generateText hands the model", async () => {
    const tools = { get_current_weather: tool({ description, inputSchema: zod3, execute }) };
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const model = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: "text", text: "ok" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      },
    });
    await generateText({ model, tools, prompt: "Weather?" });
    const sent = model.doGenerateCalls[0]!.tools![0]!;
    const resolved = await resolveToolSet(tools);
    expect(sent).toMatchObject({ type: "function", name: "get_current_weather", description });
    expect((resolved.get_current_weather!.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(
      (sent as { inputSchema: unknown }).inputSchema,
    );
  });

  it("chatLoop counts a ToolSet the build cannot read (Zod 3) through the AI SDK", async () => {
    const chat = await (await Loom.open())
      .user("u")
      .create({ model: { name: "tiny-tools", contextWindow: 700, sizeClass: "tiny", tokensPerChar: 0.25 } });
    for (let i = 0; i < 30; i++) {
      await chat.append({ role: "user", content: `question ${i} ${"words ".repeat(8)}` });
      await chat.append({ role: "assistant", content: `answer ${i} ${"words ".repeat(8)}` });
    }
    await chat.append({ role: "user", content: "last question" });
    const plain = await chatLoop(chat).context();
    const withTools = await chatLoop(chat, {
      tools: { get_current_weather: tool({ description, inputSchema: zod3, execute }) },
    }).context();
    expect(withTools.messages.length).toBeLessThan(plain.messages.length);
    await expectRejectCode(
      () => chatLoop(chat, { tools: { "bad name": tool({ description, inputSchema: zod3, execute }) } }).context(),
      "INVALID_ARGUMENT",
    );
  });
});
