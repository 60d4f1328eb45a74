// UIMessages both ways (issue 12, point 1): a chat's branch as the UIMessages useChat shows,
// with stable string ids and "2 / 3" branch metadata, accepted by the SDK's own
// validateUIMessages and convertToModelMessages; UIMessages back into a chat.
import { convertToModelMessages, validateUIMessages, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { fromUIMessages, toUIMessages } from "../../src/ai-sdk.js";
import { expectThrowCode, forEachEngine } from "../helpers.js";

forEachEngine((engine) => {
  it("one UIMessage per answer (its steps joined, as useChat draws it): ids, branch metadata, tool parts with outputs", async () => {
    const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
    });
    await chat.append({ role: "tool", toolCallId: "c1", content: "12C" });
    const first = await chat.append({ role: "assistant", content: "12C." });
    await chat.regenerate(first.id);
    const second = await chat.append({ role: "assistant", content: "It is 12C in Paris." });
    const ui = toUIMessages(chat);
    expect(ui.map((m) => m.id)).toEqual(["0", "1"]); // the answer's id is its first message's
    expect(ui[1]!.parts).toEqual([
      {
        type: "dynamic-tool",
        toolName: "weather",
        toolCallId: "c1",
        state: "output-available",
        input: { city: "Paris" },
        output: "12C",
      },
      { type: "step-start" },
      { type: "text", text: "It is 12C in Paris." },
    ]);
    // The answer's place, and its last step's: regenerated, "2 / 2" among the steps after the tool result.
    expect(ui[1]!.metadata).toEqual({
      messageId: 1,
      parentId: 0,
      branch: { index: 0, count: 1, ids: [1] },
      steps: [{ messageId: second.id, parentId: 2, branch: { index: 1, count: 2, ids: [first.id, second.id] } }],
    });
    expect(toUIMessages(chat, { leaf: first.id })[1]!.parts[2]).toEqual({ type: "text", text: "12C." }); // the other last step
    // The SDK's own checks take them, and its conversion gives back the tool unit.
    const valid = await validateUIMessages({ messages: ui });
    const model = await convertToModelMessages(valid);
    expect(model.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);

    // Back into a fresh chat: the same messages.
    const copy = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o" });
    for (const input of fromUIMessages(ui)) await copy.append(input);
    expect(copy.path().map((m) => [m.role, m.content, m.toolCallId ?? null])).toEqual([
      ["user", "Weather in Paris?", null],
      ["assistant", "", null],
      ["tool", "12C", "c1"],
      ["assistant", "It is 12C in Paris.", null],
    ]);
  });
});

describe("fromUIMessages", () => {
  it("an assistant message spanning steps becomes several messages; typed tool parts; errors marked", () => {
    const ui: UIMessage[] = [
      {
        id: "x",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "text", text: "Checking." },
          {
            type: "tool-weather",
            toolCallId: "a",
            state: "output-error",
            input: { city: "Oslo" },
            errorText: "timeout",
          } as never,
          { type: "step-start" },
          { type: "text", text: "The service timed out." },
        ],
      },
    ];
    expect(fromUIMessages(ui)).toEqual([
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [{ id: "a", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      },
      { role: "tool", toolCallId: "a", name: "weather", content: "Error: timeout" },
      { role: "assistant", content: "The service timed out." },
    ]);
  });

  it.each([
    [
      "a reasoning part in a user message",
      [{ id: "1", role: "user", parts: [{ type: "reasoning", text: "hmm" }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "reasoning with only another provider's metadata",
      [
        {
          id: "1",
          role: "assistant",
          parts: [{ type: "reasoning", text: "", providerMetadata: { openai: { itemId: "rs_1" } } }],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file part in a system message",
      [
        {
          id: "1",
          role: "system",
          parts: [{ type: "file", mediaType: "application/pdf", url: "https://x.test/a.pdf" }],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file by provider reference",
      [
        {
          id: "1",
          role: "user",
          parts: [
            {
              type: "file",
              mediaType: "application/pdf",
              url: "https://x.test/a.pdf",
              providerReference: { openai: "file-1" },
            },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file with a top-level media type only",
      [{ id: "1", role: "user", parts: [{ type: "file", mediaType: "application", url: "https://x.test/a" }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file URL that is no URL",
      [{ id: "1", role: "user", parts: [{ type: "file", mediaType: "application/pdf", url: "ftp:x" }] }],
      "INVALID_CONTENT",
    ],
    [
      "a source part",
      [{ id: "1", role: "assistant", parts: [{ type: "source-url", sourceId: "s", url: "https://x.test" }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a data part",
      [{ id: "1", role: "assistant", parts: [{ type: "data-weather", data: {} }] }],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a reasoning file",
      [
        {
          id: "1",
          role: "assistant",
          parts: [{ type: "reasoning-file", mediaType: "image/png", url: "https://x.test/a.png" }],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool output with a PDF",
      [
        {
          id: "1",
          role: "assistant",
          parts: [
            {
              type: "dynamic-tool",
              toolName: "f",
              toolCallId: "a",
              state: "output-available",
              input: {},
              output: {
                type: "content",
                value: [{ type: "file", mediaType: "application/pdf", data: { type: "data", data: "JVBERi0=" } }],
              },
            },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a call awaiting approval",
      [
        {
          id: "1",
          role: "assistant",
          parts: [
            {
              type: "dynamic-tool",
              toolName: "f",
              toolCallId: "a",
              state: "approval-requested",
              input: {},
              approval: { id: "p" },
            },
          ],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool part in a user message",
      [
        {
          id: "1",
          role: "user",
          parts: [{ type: "dynamic-tool", toolName: "f", toolCallId: "a", state: "input-available", input: {} }],
        },
      ],
      "UNSUPPORTED_CONTENT",
    ],
    ["no parts", [{ id: "1", role: "user", parts: [] }], "INVALID_CONTENT"],
    ["parts not a list", [{ id: "1", role: "user", parts: "hi" }], "INVALID_CONTENT"],
    ["a tool role", [{ id: "1", role: "tool", parts: [] }], "INVALID_ROLE"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromUIMessages(input as never), code);
  });

  it("toUIMessages refuses unknown options and unknown leaves", async () => {
    const chat = await (await Loom.open()).user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "hi" });
    expectThrowCode(() => toUIMessages(chat, { leef: 0 } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => toUIMessages(chat, { leaf: 99 }), "UNKNOWN_MESSAGE");
  });
});

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK";

forEachEngine((engine) => {
  it("images, files and reasoning as the AI SDK's UI parts, which its own conversion takes, and back unchanged", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: "claude-sonnet-4-5" });
    await chat.append({
      role: "user",
      content: [
        { type: "text", text: "Compare these." },
        { type: "image", image: "https://example.com/a.jpg", detail: "high", width: 800, height: 600 },
        { type: "image", image: `data:image/png;base64,${PNG}` },
        { type: "file", data: PDF, mediaType: "application/pdf", filename: "spec.pdf" },
        { type: "file", data: PNG, mediaType: "image/png", filename: "raw.png" },
      ],
    });
    await chat.append({
      role: "assistant",
      content: [
        { type: "reasoning", text: "The first is larger.", signature: "sig==" },
        { type: "redacted-reasoning", data: "opaque" },
        { type: "text", text: "Let me measure." },
      ],
      toolCalls: [{ id: "c1", type: "function", function: { name: "measure", arguments: "{}" } }],
    });
    await chat.append({
      role: "tool",
      toolCallId: "c1",
      name: "measure",
      content: [
        { type: "text", text: "Measured." },
        { type: "image", image: PNG, mediaType: "image/png", width: 1, height: 1 },
      ],
    });
    await chat.append({ role: "assistant", content: "The first." });
    const ui = toUIMessages(chat);
    expect(ui[0]!.parts).toEqual([
      { type: "text", text: "Compare these." },
      {
        type: "file",
        mediaType: "image",
        url: "https://example.com/a.jpg",
        providerMetadata: { openai: { imageDetail: "high" }, ctxloom: { width: 800, height: 600 } },
      },
      { type: "file", mediaType: "image/png", url: `data:image/png;base64,${PNG}` },
      { type: "file", mediaType: "application/pdf", url: `data:application/pdf;base64,${PDF}`, filename: "spec.pdf" },
      {
        type: "file",
        mediaType: "image/png",
        url: `data:image/png;base64,${PNG}`,
        filename: "raw.png",
        providerMetadata: { ctxloom: { part: "file" } },
      },
    ]);
    expect(ui[1]!.parts).toEqual([
      { type: "reasoning", text: "The first is larger.", providerMetadata: { anthropic: { signature: "sig==" } } },
      { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "opaque" } } },
      { type: "text", text: "Let me measure." },
      {
        type: "dynamic-tool",
        toolName: "measure",
        toolCallId: "c1",
        state: "output-available",
        input: {},
        output: {
          type: "content",
          value: [
            { type: "text", text: "Measured." },
            {
              type: "file",
              data: { type: "data", data: PNG },
              mediaType: "image/png",
              providerOptions: { ctxloom: { width: 1, height: 1 } },
            },
          ],
        },
      },
      { type: "step-start" },
      { type: "text", text: "The first." },
    ]);
    // The SDK's own validation and conversion: files with their media types, the signature where its Anthropic provider reads it.
    const model = await convertToModelMessages(await validateUIMessages({ messages: ui }));
    expect(model.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const user = model[0]!.content as { type: string; mediaType?: string }[];
    expect(user.map((p) => p.mediaType ?? p.type)).toEqual([
      "text",
      "image",
      "image/png",
      "application/pdf",
      "image/png",
    ]);
    expect((model[1]!.content as unknown[]).slice(0, 2)).toEqual([
      { type: "reasoning", text: "The first is larger.", providerOptions: { anthropic: { signature: "sig==" } } },
      { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "opaque" } } },
    ]);
    // Back: the same messages (bytes given as base64 come back as data: URLs of the same bytes) and the same contexts.
    const copy = await loom.user("u").create({ model: "claude-sonnet-4-5" });
    for (const input of fromUIMessages(JSON.parse(JSON.stringify(ui)) as UIMessage[])) await copy.append(input);
    const [u, a, t] = copy.path();
    expect(u!.parts).toEqual([
      { type: "text", text: "Compare these." },
      { type: "image", image: "https://example.com/a.jpg", detail: "high", width: 800, height: 600 },
      { type: "image", image: `data:image/png;base64,${PNG}` },
      { type: "file", data: `data:application/pdf;base64,${PDF}`, mediaType: "application/pdf", filename: "spec.pdf" },
      { type: "file", data: `data:image/png;base64,${PNG}`, mediaType: "image/png", filename: "raw.png" },
    ]);
    expect(a!.parts).toEqual(chat.get(1).parts);
    expect(a!.toolCalls).toEqual(chat.get(1).toolCalls);
    expect(t!.parts).toEqual(chat.get(2).parts);
    expect(copy.path().map((m) => m.tokens)).toEqual(chat.path().map((m) => m.tokens));
    for (const format of ["openai", "anthropic", "responses"] as const) {
      expect(JSON.stringify((await copy.buildContext({ format })).messages)).toBe(
        JSON.stringify((await chat.buildContext({ format })).messages),
      );
    }
    await loom.close();
  });
});

describe("fromUIMessages reasoning", () => {
  const ui = [
    {
      id: "1",
      role: "assistant",
      parts: [
        { type: "reasoning", text: "hmm", providerMetadata: { anthropic: { signature: "s" } } },
        { type: "text", text: "Yes." },
      ],
    },
  ] as UIMessage[];
  it("keeps it by default, drops or refuses it when asked, refuses bad options", () => {
    expect(fromUIMessages(ui)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm", signature: "s" },
          { type: "text", text: "Yes." },
        ],
      },
    ]);
    expect(fromUIMessages(ui, { reasoning: "drop" })).toEqual([{ role: "assistant", content: "Yes." }]);
    expectThrowCode(() => fromUIMessages(ui, { reasoning: "refuse" }), "UNSUPPORTED_CONTENT");
    expectThrowCode(() => fromUIMessages(ui, { reasoning: "skip" as never }), "INVALID_ARGUMENT");
    expectThrowCode(() => fromUIMessages(ui, { reasonning: "drop" } as never), "INVALID_ARGUMENT");
  });
});
