// Numbers the engines cannot hold are refused at the door: both engines store whole 32-bit
// counts, so a fractional or huge count, window or bound would make them disagree.
import { describe, expect, it } from "vitest";
import { Loom, countTokens, loadTokenizer, type ModelProfile } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

const profile = (over: Partial<ModelProfile> = {}): ModelProfile => ({
  name: "limits-test",
  contextWindow: 4_000,
  sizeClass: "small",
  tokensPerChar: 0.25,
  ...over,
});

forEachEngine((engine) => {
  describe("limits", () => {
    it("a counter that returns fractions is refused at create (tried on a few texts) and at append, and nothing changes", async () => {
      const loom = await Loom.open({ engine });
      await expectRejectCode(
        () =>
          loom
            .user("u")
            .create({ model: profile({ counter: { name: "thirds", exact: false, count: (t) => t.length / 3 } }) }),
        "INVALID_ARGUMENT",
      );
      expect(await loom.user("u").list()).toEqual([]);
      // Whole on short texts, fractions on longer ones: refused where it counts one.
      const counter = {
        name: "thirds-past-30",
        exact: false,
        count: (t: string) => (t.length > 30 ? t.length / 3 : t.length),
      };
      const chat = await loom.user("u").create({ model: profile({ counter }) });
      await expectRejectCode(
        () => chat.append({ role: "user", content: "hello, this text is longer than thirty" }),
        "INVALID_ARGUMENT",
      );
      expect(chat.messageCount).toBe(0);
      expect(chat.head).toBeNull();
      const win = loom.slidingWindow({
        maxTokens: 100,
        counter: { name: "thirds", exact: false, count: (t) => t.length / 3 },
      });
      expectThrowCode(() => win.add({ role: "user", content: "hello" }), "INVALID_ARGUMENT");
      expect(win.messageCount).toBe(0);
      await loom.close();
    });

    it("windows, bounds and limits past what 32 bits hold are refused", async () => {
      const loom = await Loom.open({ engine });
      const chats = loom.user("u");
      await expectRejectCode(() => chats.create({ model: profile({ contextWindow: 5e9 }) }), "INVALID_ARGUMENT");
      expectThrowCode(() => loom.slidingWindow({ maxTokens: 2 ** 31 - 1 }), "INVALID_ARGUMENT");
      const chat = await chats.create({ model: profile() });
      await chat.append({ role: "user", content: "hi" });
      await expectRejectCode(() => chat.buildContext({ maxMessages: 2 ** 32 + 1 }), "INVALID_ARGUMENT");
      await expectRejectCode(
        () => chat.buildContext({ model: profile({ contextWindow: 2 ** 31 }) }),
        "INVALID_ARGUMENT",
      );
      for (const historyLimits of [{ maxTurns: -1 }, { maxTurns: 1.5 }, { turns: 3 }, "yes", null]) {
        await expectRejectCode(() => chats.create({ historyLimits: historyLimits as never }), "INVALID_ARGUMENT");
        await expectRejectCode(() => chat.buildContext({ historyLimits: historyLimits as never }), "INVALID_ARGUMENT");
      }
      expect((await chats.list()).length).toBe(1);
      const limited = await chats.create({ model: profile(), historyLimits: { maxTurns: 1 } });
      await limited.append({ role: "user", content: "one" });
      await limited.append({ role: "assistant", content: "two" });
      await limited.append({ role: "user", content: "three" });
      expect((await limited.buildContext()).conversation.map((m) => m.content)).toEqual(["two", "three"]);
      await loom.close();
    });

    it("the newest user turn is kept even when history limits cut it off (an agent's long tool run)", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: profile(), historyLimits: { maxTurns: 1 } });
      await chat.append({ role: "user", content: "do the task" });
      for (let i = 0; i < 4; i++) {
        const call = { id: `c${i}`, type: "function" as const, function: { name: "step", arguments: "{}" } };
        await chat.append({ role: "assistant", content: "", toolCalls: [call] });
        await chat.append({ role: "tool", content: `done ${i}`, toolCallId: call.id });
      }
      const ctx = await chat.buildContext();
      expect(ctx.conversation[0]!.content).toBe("do the task");
      expect(ctx.conversation.map((m) => m.role)).toEqual(["user", "assistant", "tool"]); // the turn, then the newest unit
      await loom.close();
    });
  });
});

describe("countTokens checks every field it counts", () => {
  it("a name, a tool call or a call id that is not text is INVALID_ARGUMENT", async () => {
    await loadTokenizer("gpt-4o");
    const ok = {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
    };
    expect(countTokens([ok], { model: "gpt-4o" })).toBeGreaterThan(3);
    for (const bad of [
      { role: "user", content: "x", name: 5 },
      { role: "assistant", content: "", tool_calls: [{}] },
      { role: "assistant", content: "", tool_calls: "f()" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: {} } }],
      },
      { role: "tool", content: "x", tool_call_id: 7 },
      { role: 1, content: "x" },
      { role: "user", content: ["x"] },
    ]) {
      expectThrowCode(() => countTokens([bad as never], { model: "gpt-4o" }), "INVALID_ARGUMENT");
    }
  });
});
