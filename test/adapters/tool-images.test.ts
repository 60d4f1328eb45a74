// Tool results with images (issue 12, rich content): a tool message takes text and image
// parts; the SDKs' tool results with images come in as such (Anthropic tool_result image
// blocks, an AI SDK content output from a real tool loop with the mock model, Responses
// output lists, LangChain ToolMessage blocks) and go out in every format that takes them;
// Chat Completions, which takes text only, gets a line per image. Both engines.
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { ToolMessage } from "@langchain/core/messages";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { Loom, type Chat, type EngineKind } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromModelMessages, toModelContext } from "../../src/ai-sdk.js";
import { fromLangChainMessages, toLangChainMessages } from "../../src/langchain.js";
import { fromResponseItems } from "../../src/openai.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const call = {
  id: "toolu_1",
  type: "function" as const,
  function: { name: "screenshot", arguments: '{"url":"https://example.com"}' },
};

async function chatWithCall(
  engine: EngineKind,
  options: Parameters<typeof Loom.open>[0] = {},
): Promise<{ loom: Loom; chat: Chat }> {
  const loom = await Loom.open({ engine, ...options });
  const chat = await loom.user("u").create({ model: "claude-sonnet-4-5" });
  await chat.append({ role: "user", content: "What does example.com look like?" });
  await chat.append({ role: "assistant", content: "", toolCalls: [call] });
  return { loom, chat };
}

forEachEngine((engine) => {
  it("an Anthropic tool_result with an image: kept, and sent by every format", async () => {
    const { loom, chat } = await chatWithCall(engine);
    const reply: MessageParam = {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "text", text: "Rendered." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    };
    const inputs = fromAnthropicMessages(reply);
    expect(inputs).toEqual([
      {
        role: "tool",
        toolCallId: "toolu_1",
        content: [
          { type: "text", text: "Rendered." },
          { type: "image", image: PNG, mediaType: "image/png" },
        ],
      },
    ]);
    const m = await chat.append(inputs[0]!);
    expect(m.parts).toEqual([
      { type: "text", text: "Rendered." },
      { type: "image", image: PNG, mediaType: "image/png" },
    ]);
    expect(m.tokens).toBeGreaterThan(1600); // the image counted by Anthropic's rule (no size given: its most)

    const anthropic = await chat.buildContext({ format: "anthropic" });
    const params: MessageParam[] = anthropic.messages;
    expect(params[2]!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: "Rendered." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
      },
    ]);
    const openai = await chat.buildContext();
    expect(openai.messages[2]).toEqual({
      role: "tool",
      content: "Rendered.\n[image (image/png): not sent, a Chat Completions tool result carries text only]",
      tool_call_id: "toolu_1",
    });
    const responses: ResponseInputItem[] = (await chat.buildContext({ format: "responses" })).messages;
    expect(responses[2]).toEqual({
      type: "function_call_output",
      call_id: "toolu_1",
      output: [
        { type: "input_text", text: "Rendered." },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
      ],
    });
    const model = toModelContext(openai).messages;
    expect(model[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_1",
          toolName: "screenshot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "Rendered." },
              { type: "file", data: { type: "data", data: PNG }, mediaType: "image/png" },
            ],
          },
        },
      ],
    });
    const lc = toLangChainMessages(openai)[2]!;
    expect(lc).toBeInstanceOf(ToolMessage);
    expect(lc.content).toEqual([
      { type: "text", text: "Rendered." },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
    // Each format's tool result reads back as the same tool message.
    expect(fromModelMessages([model[2]!])).toEqual([
      { role: "tool", toolCallId: "toolu_1", name: "screenshot", content: m.parts },
    ]);
    expect(fromLangChainMessages(lc)).toEqual([{ role: "tool", toolCallId: "toolu_1", content: m.parts }]);
    expect(fromResponseItems(responses[2]!)).toEqual([
      {
        role: "tool",
        toolCallId: "toolu_1",
        content: [
          { type: "text", text: "Rendered." },
          { type: "image", image: `data:image/png;base64,${PNG}`, detail: "auto" },
        ],
      },
    ]);
    await loom.close();
  });

  it("a failed tool_result with an image starts with Error:; an image by URL is named in Chat Completions", async () => {
    const { loom, chat } = await chatWithCall(engine);
    const [input] = fromAnthropicMessages({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          is_error: true,
          content: [{ type: "image", source: { type: "url", url: "https://example.com/shot.png" } }],
        },
      ],
    });
    expect(input!.content).toEqual([
      { type: "text", text: "Error:" },
      { type: "image", image: "https://example.com/shot.png" },
    ]);
    await chat.append(input!);
    expect((await chat.buildContext()).messages[2]!.content).toBe(
      "Error:\n[image at https://example.com/shot.png: not sent, a Chat Completions tool result carries text only]",
    );
    await loom.close();
  });

  it("an AI SDK tool loop whose tool returns a screenshot: the image is kept in the chat", async () => {
    const { loom, chat } = await chatWithCall(engine);
    await chat.cancelToolCalls();
    await chat.append({ role: "assistant", content: "Let me look." });
    await chat.append({ role: "user", content: "Please take the screenshot." });
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "call_9", toolName: "screenshot", input: '{"url":"https://example.com"}' },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "A plain page." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const screenshot = tool({
      inputSchema: jsonSchema<{ url: string }>({
        type: "object",
        properties: { url: { type: "string" } },
        required: ["url"],
      }),
      execute: async () => ({ png: PNG }),
      toModelOutput: ({ output }) => ({
        type: "content",
        value: [
          { type: "text", text: "Done." },
          { type: "file", mediaType: "image/png", data: { type: "data", data: output.png } },
        ],
      }),
    });
    const result = await generateText({
      model,
      tools: { screenshot },
      stopWhen: stepCountIs(3),
      ...toModelContext(await chat.buildContext()),
    });
    for (const input of fromModelMessages(result.responseMessages)) await chat.append(input);
    const tool_ = chat.path().find((m) => m.toolCallId === "call_9")!;
    expect(tool_).toMatchObject({
      role: "tool",
      name: "screenshot",
      content: "Done.",
      parts: [
        { type: "text", text: "Done." },
        { type: "image", image: PNG, mediaType: "image/png" },
      ],
    });
    expect(chat.path().at(-1)!.content).toBe("A plain page.");
    // The second model call was sent the image as the tool's content output.
    const sent = model.doGenerateCalls[1]!.prompt.filter((m) => m.role === "tool").at(-1)!;
    expect(JSON.stringify(sent.content)).toContain(PNG);
    await loom.close();
  });

  it("a tool result sent cut to the Loom's policy keeps its images; the chat and the store keep it whole", async () => {
    const { loom, chat } = await chatWithCall(engine, { toolResults: { truncate: { maxTokens: 1700 } } });
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} of the page text`).join("\n");
    const image = { type: "image" as const, image: "https://example.com/a.png", width: 200, height: 150 };
    const m = await chat.append({
      role: "tool",
      toolCallId: "toolu_1",
      content: [{ type: "text", text: long }, image],
    });
    expect(m.content).toBe(long);
    const sent = (await chat.buildContext()).conversation.find((x) => x.id === m.id)!;
    expect(sent.content.length).toBeLessThan(long.length);
    expect(sent.content).toContain("omitted");
    expect(sent.parts).toEqual([{ type: "text", text: sent.content }, image]);
    expect(sent.tokens).toBeLessThanOrEqual(1700);
    const copy = await loom.user("u").import(chat.export());
    expect(copy.get(m.id)).toEqual(m);
    await loom.close();
  });

  it("a tool message refuses files and reasoning with INVALID_CONTENT, and nothing changes", async () => {
    const { loom, chat } = await chatWithCall(engine);
    const before = await snapshot(chat);
    await expectRejectCode(
      () =>
        chat.append({
          role: "tool",
          toolCallId: "toolu_1",
          content: [{ type: "file", data: PNG, mediaType: "application/pdf" }],
        }),
      "INVALID_CONTENT",
    );
    await expectRejectCode(
      () => chat.append({ role: "tool", toolCallId: "toolu_1", content: [{ type: "reasoning", text: "x" }] }),
      "INVALID_CONTENT",
    );
    expect(await snapshot(chat)).toEqual(before);
    await loom.close();
  });
});

describe("tool results the converters still refuse", () => {
  it.each([
    [
      "a LangChain ToolMessage with a file",
      () =>
        fromLangChainMessages(
          new ToolMessage({ tool_call_id: "a", content: [{ type: "file", data: PNG, mimeType: "application/pdf" }] }),
        ),
    ],
    [
      "a Responses output with a file",
      () =>
        fromResponseItems({
          type: "function_call_output",
          call_id: "a",
          output: [{ type: "input_file", file_data: `data:application/pdf;base64,${PNG}`, filename: "a.pdf" }],
        }),
    ],
    [
      "an AI SDK content output with a text file",
      () =>
        fromModelMessages([
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "a",
                toolName: "f",
                output: {
                  type: "content",
                  value: [{ type: "file", mediaType: "text/plain", data: { type: "text", text: "hi" } }],
                },
              },
            ],
          },
        ]),
    ],
    [
      "an AI SDK content output with a custom part",
      () =>
        fromModelMessages([
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "a",
                toolName: "f",
                output: { type: "content", value: [{ type: "custom", providerOptions: {} }] },
              },
            ],
          },
        ] as never),
    ],
  ])("%s: UNSUPPORTED_CONTENT", (_what, run) => {
    expectThrowCode(run, "UNSUPPORTED_CONTENT");
  });
});
