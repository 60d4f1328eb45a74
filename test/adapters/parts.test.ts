// Rich content through the SDK converters (issue 12, point 4): the SDKs' own objects, typed by
// their packages, keep their images, files and reasoning as parts, and go back out in the
// shape each SDK takes.
import { describe, expect, it } from "vitest";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { ModelMessage } from "ai";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Loom } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromOpenAIMessages, fromResponseItems } from "../../src/openai.js";
import { fromModelMessages, toModelMessages } from "../../src/ai-sdk.js";
import { fromLangChainMessages, toLangChainMessages } from "../../src/langchain.js";
import { forEachEngine } from "../helpers.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK";

describe("the SDKs' objects keep their parts", () => {
  it("Anthropic: image and document blocks, thinking with its signature, redacted_thinking", () => {
    const user: MessageParam = {
      role: "user",
      content: [
        { type: "text", text: "Read these." },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "a.pdf" },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "plain" } },
      ],
    };
    const assistant: MessageParam = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me look.", signature: "sig" },
        { type: "redacted_thinking", data: "REDACTED" },
        { type: "tool_use", id: "t1", name: "read", input: { page: 1 } },
      ],
    };
    expect(fromAnthropicMessages([user, assistant])).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Read these." },
          { type: "image", image: PNG, mediaType: "image/png" },
          { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
          { type: "file", data: btoa("plain"), mediaType: "text/plain" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Let me look.", signature: "sig" },
          { type: "redacted-reasoning", data: "REDACTED" },
        ],
        toolCalls: [{ id: "t1", type: "function", function: { name: "read", arguments: '{"page":1}' } }],
      },
    ]);
  });

  it("OpenAI: image_url and file parts of a user message; Responses: input_image and input_file", () => {
    const m: ChatCompletionMessageParam = {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "high" } },
        { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "a.pdf" } },
      ],
    };
    expect(fromOpenAIMessages(m)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", image: "https://example.com/a.png", detail: "high" },
          { type: "file", data: `data:application/pdf;base64,${PDF}`, mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
    ]);
    const item: ResponseInputItem = {
      role: "user",
      content: [
        { type: "input_text", text: "And this?" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "low" },
        { type: "input_file", file_url: "https://example.com/b.pdf" },
      ],
    };
    expect(fromResponseItems(item)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "And this?" },
          { type: "image", image: `data:image/png;base64,${PNG}`, detail: "low" },
          { type: "file", data: "https://example.com/b.pdf", mediaType: "application/pdf" },
        ],
      },
    ]);
  });

  it("AI SDK: image, file and reasoning parts both ways, the Anthropic signature in providerOptions", () => {
    const messages: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Look." },
          {
            type: "image",
            image: new URL("https://example.com/a.png"),
            providerOptions: { openai: { imageDetail: "low" } },
          },
          { type: "image", image: Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)) },
          { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Thinking.", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "REDACTED" } } },
          { type: "text", text: "A cat." },
        ],
      },
    ];
    const inputs = fromModelMessages(messages);
    expect(inputs).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look." },
          { type: "image", image: "https://example.com/a.png", detail: "low" },
          { type: "image", image: PNG, mediaType: "image/png" },
          { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Thinking.", signature: "sig" },
          { type: "redacted-reasoning", data: "REDACTED" },
          { type: "text", text: "A cat." },
        ],
      },
    ]);
    const back: ModelMessage[] = toModelMessages(inputs);
    expect(back[1]).toEqual(messages[1]);
    expect(back[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Look." },
        {
          type: "image",
          image: new URL("https://example.com/a.png"),
          providerOptions: { openai: { imageDetail: "low" } },
        },
        { type: "image", image: PNG, mediaType: "image/png" },
        { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
      ],
    });
    expect(fromModelMessages(back)).toEqual(inputs);
  });

  it("LangChain: standard image and file blocks, thinking blocks, both ways", () => {
    const inputs = fromLangChainMessages([
      new HumanMessage({
        content: [
          { type: "text", text: "Look." },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
          { type: "file", data: PDF, mimeType: "application/pdf", metadata: { filename: "a.pdf" } },
        ],
      }),
      new AIMessage({
        content: [
          { type: "thinking", thinking: "Hmm.", signature: "sig" },
          { type: "redacted_thinking", data: "R" },
          { type: "text", text: "A cat." },
        ],
      }),
    ]);
    expect(inputs).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look." },
          { type: "image", image: "https://example.com/a.png", detail: "low" },
          { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Hmm.", signature: "sig" },
          { type: "redacted-reasoning", data: "R" },
          { type: "text", text: "A cat." },
        ],
      },
    ]);
    const back = toLangChainMessages(inputs);
    expect(back[0]!.content).toEqual([
      { type: "text", text: "Look." },
      { type: "image", url: "https://example.com/a.png", mimeType: "image/png" },
      { type: "file", data: PDF, mimeType: "application/pdf", metadata: { filename: "a.pdf" } },
    ]);
    expect(back[1]!.content).toEqual([
      { type: "thinking", thinking: "Hmm.", signature: "sig" },
      { type: "redacted_thinking", data: "R" },
      { type: "text", text: "A cat." },
    ]);
  });
});

forEachEngine((engine) => {
  it("an Anthropic tool turn with thinking appended as it comes goes back with its thinking before the tool_use", async () => {
    const chat = await (await Loom.open({ engine })).user("u").create({ model: "claude-sonnet-4-5" });
    await chat.append({ role: "user", content: "Weather?" });
    const reply: MessageParam = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Call it.", signature: "sig" },
        { type: "tool_use", id: "t1", name: "weather", input: {} },
      ],
    };
    for (const m of fromAnthropicMessages(reply)) await chat.append(m);
    for (const m of fromAnthropicMessages({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "sunny" }],
    }))
      await chat.append(m);
    const ctx = await chat.buildContext({ format: "anthropic" });
    const sent: MessageParam[] = ctx.messages;
    expect(sent[1]).toEqual(reply);
  });
});
