// The critical promise (issue 7, item 3): a CRITICAL message is sent or the build fails with
// a coded error. A critical assistant message whose tool calls are not all answered cannot be
// sent (a call never goes without its results): the build says so instead of dropping it.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type ToolCall } from "../../src/index.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";

const call = (id: string): ToolCall => ({ id, type: "function", function: { name: "lookup", arguments: "{}" } });

forEachEngine((engine) => {
  describe("critical tool units", () => {
    // A unit left open under a later message cannot arise: append and restore refuse a
    // non-tool message under open calls (OPEN_TOOL_CALLS, STORE_CORRUPT; see test/tree). What
    // remains is a unit still awaiting its results at the head.
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

    it("a chat reopened from its store still fails the build on such a unit (the check is skipped only in trees without one)", async () => {
      const store = memoryStore();
      const first = await Loom.open({ engine, store });
      const chat = await first.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "look it up" });
      await chat.append({ role: "assistant", content: "checking", toolCalls: [call("c1")], priority: "critical" });
      await first.close();
      const second = await Loom.open({ engine, store });
      const reopened = await second.user("u").open(chat.id);
      await expectRejectCode(() => reopened.buildContext(), "INVALID_TOOL_CALL");
      // A high-priority unit awaiting its results is no promise broken: it is left out.
      const other = await second.user("u").create({ model: "gpt-4o" });
      await other.append({ role: "user", content: "q" });
      await other.append({ role: "assistant", content: "", toolCalls: [call("h1")], priority: "high" });
      expect((await other.buildContext()).conversation.map((m) => m.role)).toEqual(["user"]);
      await second.close();
    });

    it("a cancelled unit is sent with its cancelled results, and complete critical units are sent", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "q" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("n1")], priority: "high" });
      await chat.cancelToolCalls();
      await chat.append({ role: "user", content: "q2" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("k1")], priority: "critical" });
      await chat.append({ role: "tool", content: "ok", toolCallId: "k1" });
      const ctx = await chat.buildContext();
      expect(ctx.conversation.map((m) => m.content)).toEqual(["q", "", "cancelled", "q2", "", "ok"]);
      await loom.close();
    });
  });
});
