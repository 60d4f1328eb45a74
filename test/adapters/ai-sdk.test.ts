// The AI SDK (issue 12, point 1): a whole tool loop offline with the SDK's own mock model
// (generateText with tools and stopWhen), every step's messages kept in the chat and every
// step sent the chat's context; ModelMessages both ways; bad input refused with a code.
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Loom, countTokens } from "../../src/index.js";
import { chatLoop, fromModelMessages, toModelContext, toModelMessages } from "../../src/ai-sdk.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const step = (content: unknown[], unified: "stop" | "tool-calls") =>
  ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] }) as never;

const weather = tool({
  description: "The weather in a city",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  }),
  execute: async ({ city }) => ({ city, celsius: 12, sky: "rain" }),
});

forEachEngine((engine) => {
  it("a tool loop with the mock model: steps kept in the chat, each step sent the chat's context", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        step(
          [
            { type: "text", text: "Checking." },
            { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: '{"city":"Paris"}' },
          ],
          "tool-calls",
        ),
        step([{ type: "text", text: "12C and rain in Paris." }], "stop"),
      ],
    });
    const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o", system: "Be brief." });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    const loop = chatLoop(chat, { memory: "The user lives in France." });
    const result = await generateText({
      model,
      tools: { weather },
      stopWhen: stepCountIs(5),
      ...(await loop.context()),
      prepareStep: loop.prepareStep,
    });
    expect(await loop.finish(result)).toBe(1); // the final answer; the tool step came in through prepareStep
    expect(result.text).toBe("12C and rain in Paris.");
    expect(chat.path().map((m) => [m.role, m.content, m.name ?? null])).toEqual([
      ["user", "Weather in Paris?", null],
      ["assistant", "Checking.", null],
      ["tool", '{"city":"Paris","celsius":12,"sky":"rain"}', "weather"],
      ["assistant", "12C and rain in Paris.", null],
    ]);
    expect(chat.path()[1]!.toolCalls).toEqual([
      { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
    ]);
    // The second step's prompt is the chat's context: instructions first, the tool unit as the SDK sends it.
    const prompt = model.doGenerateCalls[1]!.prompt;
    expect(prompt[0]).toMatchObject({ role: "system", content: "Be brief.\n\nThe user lives in France." });
    expect(prompt.slice(1).map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(prompt[3]).toMatchObject({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "weather",
          output: { type: "text", value: '{"city":"Paris","celsius":12,"sky":"rain"}' },
        },
      ],
    });
  });

  it("prepareStep keeps each step within the budget of a small window", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [step([{ type: "text", text: "ok" }], "stop")] });
    const chat = await (await Loom.open({ engine }))
      .user("u")
      .create({ model: { name: "tiny-ai", contextWindow: 400, sizeClass: "tiny", tokensPerChar: 0.25 } });
    for (let i = 0; i < 40; i++) {
      await chat.append({ role: "user", content: `question ${i} ${"words ".repeat(8)}` });
      await chat.append({ role: "assistant", content: `answer ${i} ${"words ".repeat(8)}` });
    }
    await chat.append({ role: "user", content: "last question" });
    const loop = chatLoop(chat);
    const start = await loop.context();
    await generateText({ model, ...start, prepareStep: loop.prepareStep });
    const sent = model.doGenerateCalls[0]!.prompt;
    expect(sent.length).toBeLessThan(20);
    expect(sent.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: "last question" }] });
  });
});

describe("ModelMessages both ways", () => {
  const response: ModelMessage[] = [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool-call", toolCallId: "a", toolName: "f", input: { q: 1 } },
        { type: "tool-call", toolCallId: "b", toolName: "g", input: {} },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "f", output: { type: "json", value: { n: 2 } } },
        { type: "tool-result", toolCallId: "b", toolName: "g", output: { type: "error-text", value: "boom" } },
      ],
    },
    { role: "assistant", content: "Done." },
  ];

  it("round trip: tool names kept, json output as JSON text, an error marked", () => {
    const inputs = fromModelMessages(response);
    expect(inputs).toEqual([
      {
        role: "assistant",
        content: "Let me look.",
        toolCalls: [
          { id: "a", type: "function", function: { name: "f", arguments: '{"q":1}' } },
          { id: "b", type: "function", function: { name: "g", arguments: "{}" } },
        ],
      },
      { role: "tool", toolCallId: "a", name: "f", content: '{"n":2}' },
      { role: "tool", toolCallId: "b", name: "g", content: "Error: boom" },
      { role: "assistant", content: "Done." },
    ]);
    const back = toModelMessages(inputs.map((m) => ({ ...m })));
    expect(back[0]).toEqual(response[0]);
    expect(back[1]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "f", output: { type: "text", value: '{"n":2}' } },
        { type: "tool-result", toolCallId: "b", toolName: "g", output: { type: "text", value: "Error: boom" } },
      ],
    });
  });

  it("an error output already marked is marked once; a context with no system text has no instructions (no empty system message)", async () => {
    const [m] = fromModelMessages([
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "b", toolName: "g", output: { type: "error-text", value: "Error: boom" } },
        ],
      },
    ]);
    expect(m!.content).toBe("Error: boom");
    const loom = await Loom.open();
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "hi" });
    const context = toModelContext(await chat.buildContext());
    expect(Object.keys(context)).toEqual(["messages"]);
    await loom.close();
  });

  it("a context for the AI SDK counts the reasoning toModelContext sends (the turn under way's), which Chat Completions never sends", async () => {
    const loom = await Loom.open();
    const chat = await loom.user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "Read the file." });
    const thinking = "I should read the file first, then answer. ".repeat(20);
    await chat.append({
      role: "assistant",
      content: [{ type: "reasoning", text: thinking, signature: "sig" }],
      toolCalls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
    });
    await chat.append({ role: "tool", toolCallId: "c1", content: "the file" });
    const openai = await chat.buildContext();
    const sdk = await chat.buildForSdk();
    expect(JSON.stringify(toModelContext(sdk).messages)).toContain(thinking.trim());
    expect(sdk.usage.total - openai.usage.total).toBe(
      countTokens([{ role: "user", content: thinking }], { model: "gpt-4o" }) -
        countTokens([{ role: "user", content: "" }], { model: "gpt-4o" }),
    );
    await loom.close();
  });

  it("a request's context is built at the message it answers, whatever another request did to the head (chatTurn: no retry loop)", async () => {
    const loom = await Loom.open();
    const chat = await loom.user("u").create({ model: "gpt-4o" });
    const q = await chat.append({ role: "user", content: "First question?" });
    await chat.append({ role: "assistant", content: "First answer." });
    const other = await chat.append({ role: "user", content: "Another branch's question?" }, { parent: null });
    expect(chat.head).toBe(other.id);
    const ctx = await chat.buildForSdk(undefined, q.id);
    expect(ctx.conversation.map((m) => m.id)).toEqual([q.id]);
    expect(chat.head).toBe(other.id); // the head is not moved by it
    await expectRejectCode(() => chat.buildForSdk(undefined, 99), "UNKNOWN_MESSAGE");
    await loom.close();
  });

  it("a tool result without a name takes its call's", () => {
    const back = toModelMessages([
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "x", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", content: "1", toolCallId: "x" },
    ]);
    expect(back[1]).toMatchObject({ content: [{ toolName: "lookup" }] });
  });

  it("reasoning parts are kept (default), left out or refused when asked", () => {
    const withReasoning: ModelMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "Hi." },
        ],
      },
    ];
    expect(fromModelMessages(withReasoning)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "Hi." },
        ],
      },
    ]);
    expectThrowCode(() => fromModelMessages(withReasoning, { reasoning: "refuse" }), "UNSUPPORTED_CONTENT");
    expect(fromModelMessages(withReasoning, { reasoning: "drop" })).toEqual([{ role: "assistant", content: "Hi." }]);
  });

  it.each([
    [
      "a file by provider reference",
      [
        {
          role: "user",
          content: [
            { type: "file", data: { type: "reference", reference: { openai: "file-1" } }, mediaType: "text/plain" },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file without a media subtype",
      [{ role: "user", content: [{ type: "file", data: "aGk=", mediaType: "text" }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "an image part in an assistant message",
      [{ role: "assistant", content: [{ type: "image", image: "aGk=" }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a provider-executed call",
      [
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "a", toolName: "s", input: {}, providerExecuted: true }],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "an approval response",
      [{ role: "tool", content: [{ type: "tool-approval-response", approvalId: "a", approved: true }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool output with a PDF",
      [
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "a",
              toolName: "f",
              output: {
                type: "content",
                value: [{ type: "file", data: { type: "data", data: "JVBERi0=" }, mediaType: "application/pdf" }],
              },
            },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool output image by provider reference",
      [
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "a",
              toolName: "f",
              output: {
                type: "content",
                value: [
                  {
                    type: "file",
                    data: { type: "reference", reference: { openai: "file-1" } },
                    mediaType: "image/png",
                  },
                ],
              },
            },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool output image that is not an image source",
      [
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "a",
              toolName: "f",
              output: { type: "content", value: [{ type: "file", data: "x", mediaType: "image/png" }] },
            },
          ],
        },
      ],
      "INVALID_CONTENT",
    ],
    ["a tool message as a string", [{ role: "tool", content: "x" }], "INVALID_CONTENT"],
    ["an unknown role", [{ role: "robot", content: "x" }], "INVALID_ROLE"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromModelMessages(input as never), code);
  });

  it("refuses bad options, naming the closest key", () => {
    expectThrowCode(() => fromModelMessages([], { reasonning: "drop" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => fromModelMessages([], { reasoning: "maybe" } as never), "INVALID_ARGUMENT");
  });
});

describe("toModelContext and chatLoop refuse bad input", () => {
  it("a context in another format, bad loop options, messages that do not continue the loop", async () => {
    const chat = await (await Loom.open()).user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "hi" });
    const anthropic = await chat.buildContext({ format: "anthropic" });
    expectThrowCode(() => toModelContext(anthropic as never), "INVALID_ARGUMENT");
    expectThrowCode(() => toModelContext(null as never), "INVALID_ARGUMENT");
    expectThrowCode(() => chatLoop(chat, { format: "openai" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => chatLoop(chat, { reasoning: "maybe" } as never), "INVALID_ARGUMENT");
    const loop = chatLoop(chat);
    await loop.prepareStep({ responseMessages: [{ role: "assistant", content: "a" }] });
    await expectRejectCode(() => loop.prepareStep({ responseMessages: [] }), "INVALID_ARGUMENT");
    await expectRejectCode(() => loop.finish({ response: { messages: [] } } as never), "INVALID_ARGUMENT");
  });

  it("bad build options fail at chatLoop(), before a step's messages are appended; every option its type names is taken", async () => {
    const loom = await Loom.open();
    const chats = loom.user("u");
    const chat = await chats.create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "hi" });
    const before = await snapshot(chat, chats);
    const bads = [
      { maxMessages: 0 },
      { budget: { system: 2 } },
      { model: 5 },
      { summaries: "often" },
      { recall: { k: -1 } },
      { maxOutputTokens: 1e9 },
    ];
    for (const bad of bads) {
      expectThrowCode(() => chatLoop(chat, bad as never), "INVALID_ARGUMENT");
    }
    expect(await snapshot(chat, chats)).toEqual(before);
    const loop = chatLoop(chat, { summaries: false, stablePrefix: { step: 0.2 }, recall: true, maxMessages: 8 });
    const step = await loop.prepareStep({ responseMessages: [{ role: "assistant", content: "hello" }] });
    expect(step.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    await loom.close();
  });
});
