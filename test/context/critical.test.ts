// The critical promise (issue 7, item 3): a CRITICAL message is sent or the build fails with
// a coded error. A critical assistant message whose tool calls are not all answered cannot be
// sent (a call never goes without its results): the build says so instead of dropping it.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type ToolCall } from "../../src/index.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";

const call = (id: string): ToolCall => ({ id, type: "function", function: { name: "lookup", arguments: "{}" } });

forEachEngine((engine) => {
  describe("critical tool units", () => {
    it("calls left unanswered when the user spoke again: the build fails naming the calls", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "look it up" });
      const a = await chat.append({ role: "assistant", content: "", toolCalls: [call("c1"), call("c2")], priority: "critical" });
      await chat.append({ role: "tool", content: "one", toolCallId: "c1" });
      await chat.append({ role: "user", content: "never mind" });
      let message = "";
      await chat.buildContext().catch((e: Error) => (message = e.message));
      expect(message).toContain('"c2"');
      expect(message).toContain(`message ${a.id}`);
      await expectRejectCode(() => chat.buildContext(), "INVALID_TOOL_CALL");
      await expectRejectCode(() => chat.buildContext({ format: "anthropic" }), "INVALID_TOOL_CALL");
      // Answering on a branch from the assistant message makes it sendable again.
      await chat.checkout(a.id + 1);
      await chat.append({ role: "tool", content: "two", toolCallId: "c2" });
      const ctx = await chat.buildContext();
      expect(ctx.conversation.map((m) => m.id)).toContain(a.id);
      await loom.close();
    });

    it("a critical assistant message awaiting its results at the head fails the build too", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "look it up" });
      await chat.append({ role: "assistant", content: "checking", toolCalls: [call("c1")], priority: "critical" });
      await expectRejectCode(() => chat.buildContext(), "INVALID_TOOL_CALL");
      await chat.append({ role: "tool", content: "found", toolCallId: "c1" });
      expect((await chat.buildContext()).conversation.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
      await loom.close();
    });

    it("from stored data: a reopened chat with such a unit fails the same way", async () => {
      const store = memoryStore();
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "q" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("c1")], priority: "critical" });
      await chat.append({ role: "user", content: "q2" });
      await loom.close();
      const again = await Loom.open({ engine, store });
      const reopened = await again.user("u").open(chat.id);
      await expectRejectCode(() => reopened.buildContext(), "INVALID_TOOL_CALL");
      await again.close();
    });

    it("an unanswered unit of lower priority is still left out quietly, and complete critical units are sent", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "q" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("n1")], priority: "high" });
      await chat.append({ role: "user", content: "q2" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("k1")], priority: "critical" });
      await chat.append({ role: "tool", content: "ok", toolCallId: "k1" });
      const ctx = await chat.buildContext();
      expect(ctx.conversation.map((m) => m.content)).toEqual(["q", "q2", "", "ok"]);
      await loom.close();
    });
  });
});
