// LangChain (issue 12, point 3): a tool loop with @langchain/core's own fake streaming chat
// model and a real LangChain tool: the AIMessage with tool_calls and the ToolMessage the
// tool returns go into the chat; the chat's context goes back as BaseMessages.
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { fromLangChainMessages, toLangChainMessages } from "../../src/langchain.js";
import { expectThrowCode, forEachEngine } from "../helpers.js";

const weather = tool(async ({ city }: { city: string }) => `12C in ${city}`, {
  name: "weather",
  description: "The weather in a city",
  schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

forEachEngine((engine) => {
  it("a tool loop: the model's tool_calls and the tool's ToolMessage kept, the context sent as BaseMessages", async () => {
    const model = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({
          content: "Checking.",
          tool_call_chunks: [
            { id: "call_1", name: "weather", args: '{"city":"Paris"}', index: 0, type: "tool_call_chunk" },
          ],
        }),
      ],
    });
    const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o", system: "Be brief." });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    const sent: BaseMessage[][] = [];
    const reply = await model.invoke((sent[0] = toLangChainMessages(await chat.buildContext())));
    expect(reply.text.length).toBeGreaterThan(0); // the fake model answers with some text (it echoes its prompt's first message)
    for (const input of fromLangChainMessages(reply)) await chat.append(input);
    for (const call of reply.tool_calls ?? []) {
      const result: ToolMessage = await (weather as unknown as { invoke(c: unknown): Promise<ToolMessage> }).invoke({
        ...call,
        type: "tool_call",
      });
      for (const input of fromLangChainMessages(result)) await chat.append(input);
    }
    sent.push(toLangChainMessages(await chat.buildContext()));
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", reply.text],
      ["tool", "12C in Paris"],
    ]);
    expect(chat.path()[2]).toMatchObject({ toolCallId: "call_1", name: "weather" });
    const last = sent[1]!;
    expect(last.map((m) => m.type)).toEqual(["system", "human", "ai", "tool"]);
    expect((last[2] as AIMessage).tool_calls).toEqual([
      { id: "call_1", name: "weather", args: { city: "Paris" }, type: "tool_call" },
    ]);
    expect(last[3]).toMatchObject({ tool_call_id: "call_1", content: "12C in Paris", name: "weather" });
  });
});

describe("fromLangChainMessages / toLangChainMessages", () => {
  it("round trip of every kind; an error status marked; text blocks joined", () => {
    const inputs = fromLangChainMessages([
      new SystemMessage("Be brief."),
      new HumanMessage({
        content: [
          { type: "text", text: "Hi " },
          { type: "text", text: "there" },
        ],
      }),
      new AIMessage({ content: "Looking.", tool_calls: [{ id: "a", name: "f", args: { q: 1 } }] }),
      new ToolMessage({ content: "boom", tool_call_id: "a", status: "error" }),
    ]);
    expect(inputs).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi there" },
      {
        role: "assistant",
        content: "Looking.",
        toolCalls: [{ id: "a", type: "function", function: { name: "f", arguments: '{"q":1}' } }],
      },
      { role: "tool", toolCallId: "a", content: "Error: boom" },
    ]);
    const back = toLangChainMessages(inputs.map((m) => ({ ...m })));
    expect(back.map((m) => m.type)).toEqual(["system", "human", "ai", "tool"]);
    expect(fromLangChainMessages(back)).toEqual(inputs);
  });

  it.each([
    [
      "an audio block",
      new HumanMessage({ content: [{ type: "audio", data: "aGk=", mimeType: "audio/wav" }] }),
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file block by id",
      new HumanMessage({ content: [{ type: "file", fileId: "f", mimeType: "application/pdf" }] }),
      "UNSUPPORTED_CONTENT",
    ],
    [
      "an invalid tool call",
      new AIMessage({
        content: "",
        invalid_tool_calls: [{ id: "a", name: "f", args: "{oops", error: "bad", type: "invalid_tool_call" }],
      }),
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool call without id",
      new AIMessage({ content: "", tool_calls: [{ name: "f", args: {} }] }),
      "INVALID_TOOL_CALL",
    ],
    ["a message of another type", { type: "generic", content: "x", role: "critic" }, "UNSUPPORTED_CONTENT"],
    ["not an object", "hi", "INVALID_ARGUMENT"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromLangChainMessages(input as never), code);
  });

  it("reasoning kept, left out or refused on request; bad options and contexts refused", async () => {
    const reasoned = new AIMessage({
      content: [
        { type: "reasoning", reasoning: "hmm" },
        { type: "text", text: "ok" },
      ],
    });
    expect(fromLangChainMessages(reasoned)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "ok" },
        ],
      },
    ]);
    expect(fromLangChainMessages(reasoned, { reasoning: "drop" })).toEqual([{ role: "assistant", content: "ok" }]);
    expectThrowCode(() => fromLangChainMessages(reasoned, { reasoning: "refuse" }), "UNSUPPORTED_CONTENT");
    expectThrowCode(() => fromLangChainMessages(reasoned, { reasonig: "drop" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => fromLangChainMessages(reasoned, { reasoning: "maybe" } as never), "INVALID_ARGUMENT");
    const chat = await (await Loom.open()).user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "hi" });
    const anthropic = await chat.buildContext({ format: "anthropic" });
    expectThrowCode(() => toLangChainMessages(anthropic as never), "INVALID_ARGUMENT");
  });
});
