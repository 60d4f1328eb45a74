// Every from* converter has one shape (issue 24, item 3): one SDK message or a list of them in
// (an empty list gives an empty list), append's inputs out, and options { reasoning } checked
// the same way, unknown keys refused.
import { AIMessage } from "@langchain/core/messages";
import type { ModelMessage, UIMessage } from "ai";
import type { ResponseReasoningItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { fromModelMessages, fromUIMessages } from "../../src/ai-sdk.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromLangChainMessages } from "../../src/langchain.js";
import { fromOpenAIMessages, fromResponseItems } from "../../src/openai.js";
import { expectThrowCode } from "../helpers.js";

type Converter = (messages: never, options?: never) => unknown[];

// One assistant reply of each SDK, saying "Hi." (with reasoning where the SDK carries it).
const CASES: [string, Converter, unknown][] = [
  ["fromOpenAIMessages", fromOpenAIMessages as Converter, { role: "assistant", content: "Hi.", refusal: null }],
  [
    "fromResponseItems",
    fromResponseItems as Converter,
    {
      type: "message",
      role: "assistant",
      id: "m",
      status: "completed",
      content: [{ type: "output_text", text: "Hi.", annotations: [] }],
    },
  ],
  [
    "fromAnthropicMessages",
    fromAnthropicMessages as Converter,
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Greet.", signature: "sig" },
        { type: "text", text: "Hi." },
      ],
    },
  ],
  [
    "fromModelMessages",
    fromModelMessages as Converter,
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "Greet." },
        { type: "text", text: "Hi." },
      ],
    } satisfies ModelMessage,
  ],
  [
    "fromUIMessages",
    fromUIMessages as Converter,
    {
      id: "1",
      role: "assistant",
      parts: [
        { type: "reasoning", text: "Greet." },
        { type: "text", text: "Hi." },
      ],
    } satisfies UIMessage,
  ],
  [
    "fromLangChainMessages",
    fromLangChainMessages as Converter,
    new AIMessage({
      content: [
        { type: "reasoning", reasoning: "Greet." },
        { type: "text", text: "Hi." },
      ],
    }),
  ],
];

describe.each(CASES)("%s", (name, convert, message) => {
  const one = message as never;

  it("takes one message or a list, and an empty list gives none", () => {
    expect(convert(one)).toEqual(convert([message] as never));
    expect(convert([message, message] as never)).toEqual([...convert(one), ...convert(one)]);
    expect(convert([] as never)).toEqual([]);
  });

  it("takes { reasoning }: dropped reasoning leaves the text", () => {
    expect(convert(one, { reasoning: "drop" } as never)).toEqual([{ role: "assistant", content: "Hi." }]);
  });

  it("refuses unknown options, a bad reasoning mode and options that are no object", () => {
    expectThrowCode(() => convert(one, { reasonning: "drop" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => convert(one, { reasoning: "maybe" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => convert(one, "drop" as never), "INVALID_ARGUMENT");
    expectThrowCode(() => convert(one, null as never), "INVALID_ARGUMENT");
  });

  it("names where a bad message sits", () => {
    try {
      convert([message, 42] as never);
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).toContain(`${name}(`);
      expect(String((error as Error).message)).toContain("[1]");
    }
  });
});

describe("reasoning the SDK carries", () => {
  it("Anthropic thinking: kept with its signature (default), dropped, or refused", () => {
    const [, convert, message] = CASES[2]!;
    expect(convert(message as never)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Greet.", signature: "sig" },
          { type: "text", text: "Hi." },
        ],
      },
    ]);
    expectThrowCode(() => convert(message as never, { reasoning: "refuse" } as never), "UNSUPPORTED_CONTENT");
    const redacted = {
      role: "assistant",
      content: [
        { type: "redacted_thinking", data: "xyz" },
        { type: "text", text: "Hi." },
      ],
    };
    expect(fromAnthropicMessages(redacted as never, { reasoning: "drop" })).toEqual([
      { role: "assistant", content: "Hi." },
    ]);
  });

  it("Responses reasoning items: kept as they came with the message they go with (default), dropped, or refused", () => {
    const reasoning = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Greet." }],
      encrypted_content: "gAAA",
    } satisfies ResponseReasoningItem;
    const items = [reasoning, CASES[1]![2]];
    expect(fromResponseItems(items as never)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Greet.", item: JSON.stringify(reasoning) },
          { type: "text", text: "Hi." },
        ],
      },
    ]);
    expect(fromResponseItems(items as never, { reasoning: "drop" })).toEqual([{ role: "assistant", content: "Hi." }]);
    expectThrowCode(() => fromResponseItems(items as never, { reasoning: "refuse" }), "UNSUPPORTED_CONTENT");
  });
});
