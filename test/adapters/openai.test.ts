// OpenAI both ways (issue 12, point 2): the SDK's own client, over a fake fetch that answers
// like the API, returns ChatCompletionMessages (content null with tool_calls) that fromOpenAIMessages
// turns into chat messages; the chat's context goes back through the same client, and the
// body the SDK sends is what the API expects. The Responses API likewise.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { fromOpenAIMessages, fromResponseItems } from "../../src/openai.js";
import { expectThrowCode, forEachEngine } from "../helpers.js";

/** A fetch that records each request body and answers with the next reply. */
function fakeFetch(replies: unknown[]): { fetch: typeof fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies.shift();
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const completion = (message: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o",
  choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { refusal: null, ...message } }],
});

forEachEngine((engine) => {
  describe("Chat Completions", () => {
    it("a tool loop: content null + tool_calls appended as they come back, results answered, the context sent again", async () => {
      const { fetch, bodies } = fakeFetch([
        completion({
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        }),
        completion({ role: "assistant", content: "12C and rain in Paris." }),
      ]);
      const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
      const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o", system: "Be brief." });
      await chat.append({ role: "user", content: "Weather in Paris?" });
      for (let step = 0; step < 4; step++) {
        const ctx = await chat.buildContext();
        const reply = await client.chat.completions.create({ model: "gpt-4o", messages: ctx.messages });
        const message = reply.choices[0]!.message;
        for (const input of fromOpenAIMessages(message)) await chat.append(input);
        if (!message.tool_calls) break;
        for (const call of message.tool_calls)
          await chat.append({ role: "tool", toolCallId: call.id, content: "12C rain" });
      }
      expect(chat.path().map((m) => [m.role, m.content])).toEqual([
        ["user", "Weather in Paris?"],
        ["assistant", ""],
        ["tool", "12C rain"],
        ["assistant", "12C and rain in Paris."],
      ]);
      expect(chat.path()[1]!.toolCalls).toEqual([
        { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
      ]);
      expect((bodies[1] as { messages: unknown[] }).messages).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", content: "12C rain", tool_call_id: "call_1" },
      ]);
    });

    it("the Responses API: output items appended, the context sent as input items", async () => {
      const response = (output: unknown[]) => ({
        id: "resp_1",
        object: "response",
        created_at: 1,
        model: "gpt-4o",
        status: "completed",
        output,
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
      });
      const { fetch, bodies } = fakeFetch([
        response([
          {
            type: "function_call",
            id: "fc_1",
            call_id: "call_9",
            name: "weather",
            arguments: '{"city":"Lyon"}',
            status: "completed",
          },
        ]),
        response([
          {
            type: "message",
            id: "msg_1",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "Sunny in Lyon.", annotations: [] }],
          },
        ]),
      ]);
      const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
      const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o", system: "Be brief." });
      await chat.append({ role: "user", content: "Weather in Lyon?" });
      for (let step = 0; step < 4; step++) {
        const ctx = await chat.buildContext({ format: "responses" });
        const reply = await client.responses.create({ model: "gpt-4o", input: ctx.messages });
        for (const input of fromResponseItems(reply.output)) await chat.append(input);
        const calls = reply.output.filter((item) => item.type === "function_call");
        if (calls.length === 0) break;
        for (const call of calls) await chat.append({ role: "tool", toolCallId: call.call_id, content: "sunny" });
      }
      expect((bodies[1] as { input: unknown[] }).input).toEqual([
        { type: "message", role: "system", content: "Be brief." },
        { type: "message", role: "user", content: "Weather in Lyon?" },
        { type: "function_call", call_id: "call_9", name: "weather", arguments: '{"city":"Lyon"}' },
        { type: "function_call_output", call_id: "call_9", output: "sunny" },
      ]);
      expect(chat.path().at(-1)!.content).toBe("Sunny in Lyon.");
    });
  });
});

describe("fromOpenAIMessages", () => {
  it("converts request messages too: developer to system, text parts joined, a refusal as content, a whole completion", () => {
    expect(
      fromOpenAIMessages([
        {
          role: "developer",
          content: [
            { type: "text", text: "Be " },
            { type: "text", text: "brief." },
          ],
        },
        { role: "user", content: "hi", name: "ann" },
        { role: "assistant", content: null, refusal: "I can't help with that." },
      ]),
    ).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi", name: "ann" },
      { role: "assistant", content: "I can't help with that." },
    ]);
    expect(fromOpenAIMessages(completion({ role: "assistant", content: "ok" }) as never)).toEqual([
      { role: "assistant", content: "ok" },
    ]);
  });

  it.each([
    [
      "an audio input part",
      { role: "user", content: [{ type: "input_audio", input_audio: { data: "aGk=", format: "wav" } }] },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a file by upload id",
      { role: "user", content: [{ type: "file", file: { file_id: "file-1" } }] },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "an image that is not a URL or bytes",
      { role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x/y.png" } }] },
      "INVALID_CONTENT",
    ],
    [
      "an audio reply",
      { role: "assistant", content: null, audio: { id: "a", data: "", expires_at: 0, transcript: "" } },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a custom tool call",
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "custom", custom: { name: "x", input: "" } }] },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a legacy function call",
      { role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } },
      "UNSUPPORTED_CONTENT",
    ],
    ["a function message", { role: "function", content: "x", name: "f" }, "UNSUPPORTED_CONTENT"],
    ["an unknown role", { role: "robot", content: "x" }, "INVALID_ROLE"],
    ["a tool message without its call id", { role: "tool", content: "x" }, "INVALID_TOOL_CALL"],
    ["tool_calls that is not a list", { role: "assistant", content: null, tool_calls: {} }, "INVALID_TOOL_CALL"],
    ["an empty message", { role: "user", content: null }, "INVALID_CONTENT"],
    ["not an object", 42, "INVALID_ARGUMENT"],
    ["a completion without choices", { choices: [] }, "INVALID_ARGUMENT"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromOpenAIMessages(input as never), code);
  });
});

describe("fromResponseItems", () => {
  it("joins function_call items to the assistant message before them", () => {
    expect(
      fromResponseItems([
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
        { type: "function_call", call_id: "a", name: "f", arguments: "{}" },
        { type: "function_call", call_id: "b", name: "g", arguments: "{}" },
        { type: "function_call_output", call_id: "a", output: "1" },
        { role: "developer", content: "Be brief." },
      ]),
    ).toEqual([
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [
          { id: "a", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "b", type: "function", function: { name: "g", arguments: "{}" } },
        ],
      },
      { role: "tool", toolCallId: "a", content: "1" },
      { role: "system", content: "Be brief." },
    ]);
  });

  it.each([
    ["a reasoning item without an id", { type: "reasoning", summary: [] }, "INVALID_CONTENT"],
    ["a reasoning item whose summary is no list", { type: "reasoning", id: "r", summary: "s" }, "INVALID_CONTENT"],
    ["a compaction item without encrypted content", { type: "compaction", id: "c" }, "INVALID_CONTENT"],
    ["a web search call", { type: "web_search_call", id: "w", status: "completed" }, "UNSUPPORTED_CONTENT"],
    [
      "an image input part by file id",
      { role: "user", content: [{ type: "input_image", file_id: "f", detail: "auto" }] },
      "UNSUPPORTED_CONTENT",
    ],
    ["a function call without a name", { type: "function_call", call_id: "a", arguments: "{}" }, "INVALID_ARGUMENT"],
    ["a tool role", { type: "message", role: "tool", content: "x" }, "INVALID_ROLE"],
    ["not an object", "hi", "INVALID_ARGUMENT"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromResponseItems(input as never), code);
  });
});
