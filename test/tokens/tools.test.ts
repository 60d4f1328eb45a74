// What tools and the reply cost (issue 12, point 5): tool definitions counted by OpenAI's
// published rule and taken from the window before the conversation; maxOutputTokens kept
// free in place of the reserve; bad tools and bad limits refused with a code.
import { describe, expect, it } from "vitest";
import { Loom, countTokens, loadTokenizer, type Chat } from "../../src/index.js";
import { checkTools, toolTokens } from "../../src/tokens/tools.js";
import { heuristicCounter } from "../../src/tokens/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

// The OpenAI cookbook's example ("How to count tokens with tiktoken"): the API counted 101
// prompt tokens for these messages with this tool on gpt-4o.
const WEATHER = {
  type: "function" as const,
  function: {
    name: "get_current_weather",
    description: "Get the current weather in a given location",
    parameters: {
      type: "object",
      properties: {
        location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
        unit: { type: "string", description: "The unit of temperature to return", enum: ["celsius", "fahrenheit"] },
      },
      required: ["location"],
    },
  },
};

async function cookbookChat(
  engine: "wasm" | "js",
  model: string | { name: string; contextWindow: number; sizeClass: "tiny"; tokensPerChar: number } = "gpt-4o",
): Promise<Chat> {
  const chat = await (await Loom.open({ engine }))
    .user("u")
    .create({ model, system: "You are a helpful assistant that can answer to questions about the weather." });
  await chat.append({ role: "user", content: "What's the weather like in San Francisco?" });
  return chat;
}

forEachEngine((engine) => {
  it("tools: the cookbook's example counts 101 prompt tokens, as the API did", async () => {
    const chat = await cookbookChat(engine);
    const ctx = await chat.buildContext({ tools: [WEATHER] });
    expect(ctx.usage.total).toBe(101);
    expect(ctx.usage.tools).toBe(101 - countTokens(ctx.messages, { model: "gpt-4o" }));
    expect((await chat.buildContext()).usage.tools).toBeUndefined();
  });

  it("OpenAI's two shapes count by OpenAI's rule; Anthropic's by Anthropic's (its tool-use system prompt and the definitions' JSON)", async () => {
    const chat = await cookbookChat(engine);
    const { name, description, parameters } = WEATHER.function;
    const [completions, responses, anthropic] = await Promise.all([
      chat.buildContext({ tools: [WEATHER] }),
      chat.buildContext({ tools: [{ type: "function", name, description, parameters }] }),
      chat.buildContext({ tools: [{ name, description, input_schema: parameters }] }),
    ]);
    expect(responses.usage.tools).toBe(completions.usage.tools);
    const counter = await loadTokenizer("gpt-4o"); // the chat's counter: counts stay the chat model's
    const json = counter.count(JSON.stringify([{ name, description, input_schema: parameters }]));
    expect(anthropic.usage.tools).toBe(346 + json);
    // The figure follows the model the context is built for.
    const opus3 = {
      name: "claude-3-opus-20240229",
      contextWindow: 200_000,
      sizeClass: "xlarge" as const,
      tokensPerChar: 0.25,
    };
    const old = await chat.buildContext({ model: opus3, tools: [{ name, description, input_schema: parameters }] });
    expect(old.usage.tools).toBe(530 + json);
  });

  it("tools and maxOutputTokens come out of the conversation's room: older messages are evicted", async () => {
    const small = { name: "tools-small", contextWindow: 600, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
    const chat = await cookbookChat(engine, small);
    for (let i = 0; i < 20; i++) {
      await chat.append({ role: "assistant", content: `answer ${i} ${"x".repeat(40)}` });
      await chat.append({ role: "user", content: `question ${i} ${"y".repeat(40)}` });
    }
    const plain = await chat.buildContext();
    const withTools = await chat.buildContext({ tools: [WEATHER] });
    expect(withTools.usage.total).toBeLessThanOrEqual(withTools.usage.limit);
    expect(withTools.evicted).toBeGreaterThan(plain.evicted);
    expect(plain.usage.limit).toBe(plain.budget.effective - plain.budget.reserve);
    const capped = await chat.buildContext({ maxOutputTokens: 300 });
    expect(capped.usage.limit).toBe(capped.budget.effective - 300);
    expect(capped.usage.total).toBeLessThanOrEqual(capped.usage.limit);
    expect(capped.evicted).toBeGreaterThan(plain.evicted);
  });

  it("refuses bad tools, bad maxOutputTokens, and tools that leave no room; nothing changes", async () => {
    const tiny = { name: "tools-tiny", contextWindow: 120, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
    const chat = await cookbookChat(engine, tiny);
    const before = await snapshot(chat);
    await expectRejectCode(() => chat.buildContext({ tools: WEATHER as never }), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => chat.buildContext({ tools: [{ type: "function", function: { description: "no name" } }] as never }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () => chat.buildContext({ tools: [{ name: "f", input_schema: "string" }] as never }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () => chat.buildContext({ tools: [{ name: "f", description: 3, input_schema: {} }] as never }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(() => chat.buildContext({ maxOutputTokens: 0 }), "INVALID_ARGUMENT");
    await expectRejectCode(() => chat.buildContext({ maxOutputTokens: 1.5 }), "INVALID_ARGUMENT");
    await expectRejectCode(() => chat.buildContext({ maxOutputTokens: 10_000 }), "INVALID_ARGUMENT");
    await expectRejectCode(() => chat.buildContext({ maxOutputToken: 10 } as never), "INVALID_ARGUMENT");
    // Names providers refuse, and a schema that refers to itself (no SDK can send it as JSON).
    for (const name of ["get.weather", "get weather", "x".repeat(65), "météo"]) {
      await expectRejectCode(
        () => chat.buildContext({ tools: [{ ...WEATHER, function: { ...WEATHER.function, name } }] }),
        "INVALID_ARGUMENT",
      );
    }
    const self: Record<string, unknown> = { type: "object", properties: {} };
    self.items = self;
    const nested: Record<string, unknown> = { type: "object" };
    nested.properties = { child: nested };
    for (const schema of [self, nested]) {
      await expectRejectCode(
        () => chat.buildContext({ tools: [{ name: "f", input_schema: schema }] }),
        "INVALID_ARGUMENT",
      );
    }
    // One provider's shape a request; built-in tools, whose cost no provider publishes.
    await expectRejectCode(
      () => chat.buildContext({ tools: [WEATHER, { name: "f", input_schema: {} }] }),
      "INVALID_ARGUMENT",
    );
    for (const builtIn of [
      { type: "web_search_20250305", name: "web_search" },
      { type: "web_search" },
      { type: "custom", name: "grammar", format: { type: "text" } },
    ]) {
      await expectRejectCode(() => chat.buildContext({ tools: [builtIn] }), "UNSUPPORTED_TOOL");
    }
    const many = Array.from({ length: 20 }, (_, i) => ({
      ...WEATHER,
      function: { ...WEATHER.function, name: `tool_${i}` },
    }));
    await expectRejectCode(() => chat.buildContext({ tools: many }), "MESSAGE_TOO_LARGE");
    expect(await snapshot(chat)).toEqual(before);
  });
});

describe("toolTokens", () => {
  it("no tools cost nothing; a nested schema costs more than a flat one", () => {
    const counter = heuristicCounter(0.25);
    expect(toolTokens(counter, { rule: "openai", tools: [] }, "gpt-4o")).toBe(0);
    expect(toolTokens(counter, { rule: "anthropic", tools: [] }, "claude-sonnet-4-6")).toBe(0);
    const fn = (parameters: object) => ({ type: "function" as const, function: { name: "f", parameters } });
    const flat = checkTools([fn({ type: "object", properties: { a: { type: "object" } } })]);
    const nested = checkTools([
      fn({
        type: "object",
        properties: { a: { type: "object", properties: { b: { type: "string" }, c: { type: "number" } } } },
      }),
    ]);
    expect(toolTokens(counter, nested, "gpt-4o")).toBeGreaterThan(toolTokens(counter, flat, "gpt-4o"));
  });

  it("checkTools refuses what is no tool", () => {
    expectThrowCode(() => checkTools(null), "INVALID_ARGUMENT");
    expectThrowCode(() => checkTools([42]), "INVALID_ARGUMENT");
    expectThrowCode(() => checkTools([{ type: "function", function: null }]), "INVALID_ARGUMENT");
  });
});
