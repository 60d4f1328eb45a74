// Anthropic both ways (issue 12, point 2): the SDK's own client over a fake fetch returns a
// Message with text and tool_use blocks; fromAnthropicMessages turns it into chat messages, the
// tool results go in as tool messages, and the next request the SDK sends has the
// tool_use / tool_result pairs Anthropic expects. What a message cannot carry is refused.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

function fakeFetch(replies: unknown[]): { fetch: typeof fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(replies.shift()), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const message = (content: unknown[], stop = "end_turn") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-opus-4-5",
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});

forEachEngine((engine) => {
  it("a tool loop: text + tool_use appended as they come back, tool_result blocks answered, the context sent again", async () => {
    const { fetch, bodies } = fakeFetch([
      message(
        [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
        ],
        "tool_use",
      ),
      message([{ type: "text", text: "12C and rain." }]),
    ]);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const chat = await (await Loom.open({ engine }))
      .user("u")
      .create({ model: "claude-opus-4-5", system: "Be brief." });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    for (let step = 0; step < 4; step++) {
      const ctx = await chat.buildContext({ format: "anthropic" });
      const reply = await client.messages.create({
        model: "claude-opus-4-5",
        max_tokens: 256,
        system: ctx.system,
        messages: ctx.messages,
      });
      for (const input of fromAnthropicMessages(reply)) await chat.append(input);
      const uses = reply.content.filter((b) => b.type === "tool_use");
      if (uses.length === 0) break;
      // The results as the user would send them: a user message of tool_result blocks.
      const results = fromAnthropicMessages({
        role: "user",
        content: uses.map((b) => ({ type: "tool_result" as const, tool_use_id: b.id, content: "12C rain" })),
      });
      for (const input of results) await chat.append(input);
    }
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Weather in Paris?"],
      ["assistant", "Let me check."],
      ["tool", "12C rain"],
      ["assistant", "12C and rain."],
    ]);
    expect(bodies[1]).toMatchObject({
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me check." },
            { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "12C rain" }] },
      ],
    });
  });
});

describe("fromAnthropicMessages", () => {
  it("tool results first (each its own tool message), then the user's text; a failed result marked; texts joined", () => {
    expect(
      fromAnthropicMessages([
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "a",
              content: [
                { type: "text", text: "1" },
                { type: "text", text: "2" },
              ],
            },
            { type: "tool_result", tool_use_id: "b", content: "boom", is_error: true },
            { type: "text", text: "Thanks." },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "One." },
            { type: "text", text: "Two." },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "c", name: "f", input: {} }] },
      ]),
    ).toEqual([
      { role: "tool", toolCallId: "a", content: "1\n\n2" },
      { role: "tool", toolCallId: "b", content: "Error: boom" },
      { role: "user", content: "Thanks." },
      { role: "assistant", content: "One.\n\nTwo." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    ]);
  });

  it.each([
    [
      "a document by file id",
      { role: "user", content: [{ type: "document", source: { type: "file", file_id: "f" } }] },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a thinking block from the user",
      { role: "user", content: [{ type: "thinking", thinking: "hmm", signature: "sig" }] },
      "INVALID_CONTENT",
    ],
    [
      "an image block from the assistant",
      { role: "assistant", content: [{ type: "image", source: { type: "url", url: "https://x" } }] },
      "INVALID_CONTENT",
    ],
    [
      "a server tool use",
      { role: "assistant", content: [{ type: "server_tool_use", id: "s", name: "web_search", input: {} }] },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a document in a tool result",
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "a",
            content: [
              { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
            ],
          },
        ],
      },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "an image by file id in a tool result",
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "a",
            content: [{ type: "image", source: { type: "file", file_id: "f1" } }],
          },
        ],
      },
      "UNSUPPORTED_CONTENT",
    ],
    [
      "a tool_use from the user",
      { role: "user", content: [{ type: "tool_use", id: "a", name: "f", input: {} }] },
      "INVALID_TOOL_CALL",
    ],
    [
      "a tool_result from the assistant",
      { role: "assistant", content: [{ type: "tool_result", tool_use_id: "a", content: "x" }] },
      "INVALID_TOOL_CALL",
    ],
    ["a system role", { role: "system", content: "x" }, "INVALID_ROLE"],
    [
      "tool input JSON cannot write",
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "f", input: { n: 1n } }] },
      "INVALID_ARGUMENT",
    ],
    ["content that is a number", { role: "user", content: 3 }, "INVALID_CONTENT"],
    ["an empty text", { role: "user", content: "" }, "INVALID_CONTENT"],
    ["not an object", null, "INVALID_ARGUMENT"],
  ])("refuses %s with a code", (_what, input, code) => {
    expectThrowCode(() => fromAnthropicMessages(input as never), code);
  });
});

describe("cacheControl", () => {
  it("marks the last block as a cache breakpoint, and the next request repeats the marked prefix unchanged", async () => {
    const chat = await (await Loom.open()).user("u").create({ model: "claude-opus-4-5", system: "Be brief." });
    await chat.append({ role: "user", content: "Hi" });
    const first = await chat.buildContext({ format: "anthropic", cacheControl: true });
    expect(first.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] },
    ]);
    await chat.append({ role: "assistant", content: "Hello." });
    await chat.append({ role: "user", content: "Tell me more." });
    const next = await chat.buildContext({ format: "anthropic", cacheControl: true });
    expect(next.messages[0]).toEqual({ role: "user", content: "Hi" });
    expect(next.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Tell me more.", cache_control: { type: "ephemeral" } }],
    });
    expect((await chat.buildContext({ format: "anthropic" })).messages.at(-1)).toEqual({
      role: "user",
      content: "Tell me more.",
    });
    await expectRejectCode(() => chat.buildContext({ cacheControl: true }), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => chat.buildContext({ format: "anthropic", cacheControl: "yes" as never }),
      "INVALID_ARGUMENT",
    );
  });
});
