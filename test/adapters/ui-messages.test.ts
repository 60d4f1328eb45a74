// UIMessages both ways (issue 12, point 1): a chat's branch as the UIMessages useChat shows,
// with stable string ids and "2 / 3" branch metadata, accepted by the SDK's own
// validateUIMessages and convertToModelMessages; UIMessages back into a chat.
import { convertToModelMessages, validateUIMessages, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { fromUIMessages, toUIMessages } from "../../src/ai-sdk.js";
import { expectThrowCode, forEachEngine } from "../helpers.js";

forEachEngine((engine) => {
  it("a branch with a tool unit and a regenerated answer: ids, branch metadata, tool parts with outputs", async () => {
    const chat = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o" });
    await chat.append({ role: "user", content: "Weather in Paris?" });
    await chat.append({ role: "assistant", content: "", toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] });
    await chat.append({ role: "tool", toolCallId: "c1", content: "12C" });
    const first = await chat.append({ role: "assistant", content: "12C." });
    await chat.regenerate(first.id);
    const second = await chat.append({ role: "assistant", content: "It is 12C in Paris." });
    const ui = toUIMessages(chat);
    expect(ui.map((m) => m.id)).toEqual(["0", "1", String(second.id)]);
    expect(ui[1]!.parts).toEqual([{ type: "dynamic-tool", toolName: "weather", toolCallId: "c1", state: "output-available", input: { city: "Paris" }, output: "12C" }]);
    expect(ui[2]!.metadata).toEqual({ messageId: second.id, parentId: 2, branch: { index: 1, count: 2, ids: [first.id, second.id] } });
    expect(toUIMessages(chat, { leaf: first.id })[2]!.metadata!.branch.index).toBe(0);
    // The SDK's own checks take them, and its conversion gives back the tool unit.
    const valid = await validateUIMessages({ messages: ui });
    const model = await convertToModelMessages(valid);
    expect(model.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);

    // Back into a fresh chat: the same messages.
    const copy = await (await Loom.open({ engine })).user("u").create({ model: "gpt-4o" });
    for (const input of fromUIMessages(ui)) await copy.append(input);
    expect(copy.path().map((m) => [m.role, m.content, m.toolCallId ?? null])).toEqual([
      ["user", "Weather in Paris?", null], ["assistant", "", null], ["tool", "12C", "c1"], ["assistant", "It is 12C in Paris.", null],
    ]);
  });
});

describe("fromUIMessages", () => {
  it("an assistant message spanning steps becomes several messages; typed tool parts; errors marked", () => {
    const ui: UIMessage[] = [{
      id: "x", role: "assistant", parts: [
        { type: "step-start" },
        { type: "text", text: "Checking." },
        { type: "tool-weather", toolCallId: "a", state: "output-error", input: { city: "Oslo" }, errorText: "timeout" } as never,
        { type: "step-start" },
        { type: "text", text: "The service timed out." },
      ],
    }];
    expect(fromUIMessages(ui)).toEqual([
      { role: "assistant", content: "Checking.", toolCalls: [{ id: "a", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { role: "tool", toolCallId: "a", name: "weather", content: "Error: timeout" },
      { role: "assistant", content: "The service timed out." },
    ]);
  });

  it.each([
    ["a reasoning part in a user message", [{ id: "1", role: "user", parts: [{ type: "reasoning", text: "hmm" }] }], "UNSUPPORTED_CONTENT"],
    ["reasoning with only another provider's metadata", [{ id: "1", role: "assistant", parts: [{ type: "reasoning", text: "", providerMetadata: { openai: { itemId: "rs_1" } } }] }], "UNSUPPORTED_CONTENT"],
    ["a file part in a system message", [{ id: "1", role: "system", parts: [{ type: "file", mediaType: "application/pdf", url: "https://x.test/a.pdf" }] }], "UNSUPPORTED_CONTENT"],
    ["a file by provider reference", [{ id: "1", role: "user", parts: [{ type: "file", mediaType: "application/pdf", url: "https://x.test/a.pdf", providerReference: { openai: "file-1" } }] }], "UNSUPPORTED_CONTENT"],
    ["a file with a top-level media type only", [{ id: "1", role: "user", parts: [{ type: "file", mediaType: "application", url: "https://x.test/a" }] }], "UNSUPPORTED_CONTENT"],
    ["a file URL that is no URL", [{ id: "1", role: "user", parts: [{ type: "file", mediaType: "application/pdf", url: "ftp:x" }] }], "INVALID_CONTENT"],
    ["a source part", [{ id: "1", role: "assistant", parts: [{ type: "source-url", sourceId: "s", url: "https://x.test" }] }], "UNSUPPORTED_CONTENT"],
    ["a data part", [{ id: "1", role: "assistant", parts: [{ type: "data-weather", data: {} }] }], "UNSUPPORTED_CONTENT"],
    ["a reasoning file", [{ id: "1", role: "assistant", parts: [{ type: "reasoning-file", mediaType: "image/png", url: "https://x.test/a.png" }] }], "UNSUPPORTED_CONTENT"],
    ["a tool output with a PDF", [{ id: "1", role: "assistant", parts: [{ type: "dynamic-tool", toolName: "f", toolCallId: "a", state: "output-available", input: {}, output: { type: "content", value: [{ type: "file", mediaType: "application/pdf", data: { type: "data", data: "JVBERi0=" } }] } }] }], "UNSUPPORTED_CONTENT"],
    ["a call awaiting approval", [{ id: "1", role: "assistant", parts: [{ type: "dynamic-tool", toolName: "f", toolCallId: "a", state: "approval-requested", input: {}, approval: { id: "p" } }] }], "UNSUPPORTED_CONTENT"],
    ["a tool part in a user message", [{ id: "1", role: "user", parts: [{ type: "dynamic-tool", toolName: "f", toolCallId: "a", state: "input-available", input: {} }] }], "UNSUPPORTED_CONTENT"],
    ["no parts", [{ id: "1", role: "user", parts: [] }], "INVALID_CONTENT"],
    ["parts not a list", [{ id: "1", role: "user", parts: "hi" }], "INVALID_CONTENT"],
    ["a tool role", [{ id: "1", role: "tool", parts: [] }], "INVALID_ROLE"],
    ["not a list", { id: "1", role: "user", parts: [] }, "INVALID_ARGUMENT"],
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
