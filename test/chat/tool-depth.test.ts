// Tool call arguments nested deeper than providers parse (issue 30, item 9): 5,000 levels were
// kept, and the Anthropic context built from them had an `input` JSON.stringify could not write
// (a stack overflow), while the from* converters refused the same input. A new call's arguments
// may nest MAX_ARGUMENT_DEPTH (100) levels: past it, append, an import and every converter refuse
// (INVALID_TOOL_CALL), read without recursion (100,000 levels are refused as fast as 101).
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { fromModelMessages, fromUIMessages } from "../../src/ai-sdk.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromLangChainMessages } from "../../src/langchain.js";
import { fromOpenAIMessages, fromResponseItems } from "../../src/openai.js";
import { Loom, type ToolCall } from "../../src/index.js";
import { MAX_ARGUMENT_DEPTH } from "../../src/message.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

/** JSON of `levels` arrays and objects nested in turn, the innermost holding 1. */
function nested(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? '{"a":' : "[";
    close = (i % 2 === 0 ? "}" : "]") + close;
  }
  return open + "1" + close;
}
const callOf = (args: string): ToolCall => ({
  id: "c1",
  type: "function",
  function: { name: "lookup", arguments: args },
});

forEachEngine((engine) => {
  describe("tool call arguments nested deep", () => {
    it("past 100 levels are refused at append with INVALID_TOOL_CALL saying what to do; 100 are kept and sent to Anthropic", async () => {
      expect(MAX_ARGUMENT_DEPTH).toBe(100);
      const loom = await Loom.open({ engine });
      const chats = loom.user("u");
      const chat = await chats.create();
      await chat.append({ role: "user", content: "go" });
      const before = await snapshot(chat, chats);
      for (const levels of [101, 5_000, 100_000]) {
        let message = "";
        await chat
          .append({ role: "assistant", content: "", toolCalls: [callOf(nested(levels))] })
          .catch((e: Error) => (message = e.message));
        expect(message).toMatch(/nests arrays and objects more than 100 levels deep.*flatten the arguments/);
        await expectRejectCode(
          () => chat.append({ role: "assistant", content: "", toolCalls: [callOf(nested(levels))] }),
          "INVALID_TOOL_CALL",
        );
      }
      expect(await snapshot(chat, chats)).toEqual(before);
      // Brackets inside strings are text, not nesting.
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [callOf(JSON.stringify({ q: "[".repeat(500) }))],
      });
      await chat.append({ role: "tool", content: "r", toolCallId: "c1" });
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [{ ...callOf(nested(MAX_ARGUMENT_DEPTH)), id: "c2" }],
      });
      await chat.append({ role: "tool", content: "r", toolCallId: "c2" });
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(JSON.stringify(ctx.messages)).toContain('"input":{"a":[{"a":');
      await loom.close();
    });

    it("an import of such a call is refused, and nothing is made", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create();
      await chat.append({ role: "user", content: "go" });
      await chat.append({ role: "assistant", content: "", toolCalls: [callOf("{}")] });
      await chat.append({ role: "tool", content: "r", toolCallId: "c1" });
      const data = chat.export();
      for (const levels of [101, 5_000]) {
        const copy = structuredClone(data);
        copy.messages[1]!.toolCalls![0]!.function.arguments = nested(levels);
        let message = "";
        await loom
          .user("v")
          .import(copy)
          .catch((e: Error) => (message = e.message));
        expect(message).toMatch(/message 1 is malformed: .*more than 100 levels deep/);
        await expectRejectCode(() => loom.user("v").import(copy), "INVALID_ARGUMENT");
      }
      expect(await loom.user("v").list()).toEqual([]);
      await loom.close();
    });
  });
});

describe("the from* converters", () => {
  // One assistant tool call of each SDK, its input `input` (an object) or its JSON text.
  const shapes: [string, (input: unknown, text: string) => unknown[]][] = [
    [
      "fromOpenAIMessages",
      (_, text) =>
        fromOpenAIMessages({
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: text } }],
        }),
    ],
    [
      "fromResponseItems",
      (_, text) => fromResponseItems({ type: "function_call", call_id: "c1", name: "lookup", arguments: text }),
    ],
    [
      "fromAnthropicMessages",
      (input) =>
        fromAnthropicMessages({
          role: "assistant",
          content: [{ type: "tool_use", id: "c1", name: "lookup", input }],
        } as never),
    ],
    [
      "fromModelMessages",
      (input) =>
        fromModelMessages({
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "lookup", input }],
        }),
    ],
    [
      "fromUIMessages",
      (input) =>
        fromUIMessages({
          id: "1",
          role: "assistant",
          parts: [{ type: "tool-lookup", toolCallId: "c1", state: "input-available", input }],
        } as never),
    ],
    [
      "fromLangChainMessages",
      (input) =>
        fromLangChainMessages(
          new AIMessage({
            content: "",
            tool_calls: [{ id: "c1", name: "lookup", args: input as Record<string, unknown> }],
          }),
        ),
    ],
  ];

  it.each(shapes)(
    "%s refuses arguments nested past 100 levels (INVALID_TOOL_CALL), as append does, and takes 100",
    (_, convert) => {
      const deep = nested(MAX_ARGUMENT_DEPTH + 1);
      expectThrowCode(() => convert(JSON.parse(deep), deep), "INVALID_TOOL_CALL");
      const ok = nested(MAX_ARGUMENT_DEPTH);
      expect(convert(JSON.parse(ok), ok)).toHaveLength(1);
    },
  );
});
