// One validation for every way in (issue 30, item 7): an import refuses what create() and
// append() refuse (a chat id, metadata, every setting an export carries, a message's name, tool
// calls), with the same functions; a profile's own counter is tried when it is given, and each
// count is checked where it is taken. A refused call makes no chat and changes none.
import { describe, expect, it } from "vitest";
import {
  Loom,
  countTokens,
  getModelProfile,
  registerModel,
  type ChatExport,
  type TokenCounter,
} from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

const call = { id: "c1", type: "function" as const, function: { name: "lookup", arguments: '{"q":1}' } };

forEachEngine((engine) => {
  /** A Loom with one chat of user "u" (a name, a tool call and its result), and its export. */
  async function exported(): Promise<{ loom: Loom; data: ChatExport }> {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ title: "t" });
    await chat.append({ role: "user", content: "look it up", name: "ann_1" });
    await chat.append({ role: "assistant", content: "", toolCalls: [call] });
    await chat.append({ role: "tool", content: "found", toolCallId: "c1" });
    return { loom, data: chat.export() };
  }

  /** `data` changed by `change` (a deep copy), imported by user "v": refused with `code`, and "v" has no chat. */
  async function refused(
    loom: Loom,
    data: ChatExport,
    change: (x: any) => void,
    code = "INVALID_ARGUMENT",
  ): Promise<void> {
    const copy = structuredClone(data);
    change(copy);
    await expectRejectCode(() => loom.user("v").import(copy), code);
    await expectRejectCode(() => loom.user("v").import(JSON.stringify(copy)), code);
    expect(await loom.user("v").list()).toEqual([]);
  }

  describe("an import refuses what create() refuses", () => {
    it('a chat id create() would not take ("b b", empty, 129 characters, a number)', async () => {
      const { loom, data } = await exported();
      for (const id of ["b b", "", "x".repeat(129), 5, "a/b"]) await refused(loom, data, (x) => (x.chat.id = id));
      await loom.close();
    });

    it('metadata that is not a JSON object ("x", an array, NaN inside), and every other setting an export carries', async () => {
      const { loom, data } = await exported();
      const bad: Record<string, unknown>[] = [
        { metadata: "x" },
        { metadata: [1] },
        { metadata: { big: "x".repeat(70_000) } },
        { metadata: null },
        { budget: { system: 2 } },
        { budget: { sistem: 0.1 } },
        { historyLimits: { maxTurns: 0 } },
        { historyLimits: "yes" },
        { summaries: 7 },
        { summaries: { trigger: "auto" } },
        { summaries: { summarizer: "x" } },
        { summarize: 7 },
        { summaryPresentation: "sideways" },
        { toolResults: { truncate: "x" } },
        { toolResults: 5 },
        { profile: { name: "gpt-4o", contextWindow: -5 } },
        { profile: { name: "other", contextWindow: 4000 } },
        { profile: "gpt-4o" },
        { counter: 5 },
        { counter: "" },
        { source: { format: "", id: "x" } },
        { source: { format: "chatgpt", id: "x", extra: 1 } },
        { wat: 1 },
      ];
      for (const options of bad) await refused(loom, data, (x) => (x.chat.options = options));
      await refused(loom, data, (x) => (x.chat.options = "x"));
      await loom.close();
    });

    it("what create() and append() keep is imported back whole: every setting, names, tool calls", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({
        id: "trip.2024:a-b_c",
        title: "t",
        metadata: { folder: "work", tags: ["a"], n: 1 },
        model: { name: "own-model", contextWindow: 8_000 },
        budget: { system: 0.3, conversation: 0.35 },
        historyLimits: { maxTurns: 4 },
        summaries: { maxTokens: 2_000, presentation: "tool" },
        toolResults: { truncate: { maxTokens: 50, keep: "head" } },
      });
      await chat.append({ role: "user", content: "hi", name: "Ann-2" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call] });
      await chat.append({ role: "tool", content: "found", toolCallId: "c1" });
      const copy = await loom.user("v").import(chat.export());
      expect(copy.id).toBe("trip.2024:a-b_c");
      expect(copy.export()).toEqual(chat.export());
      await loom.close();
    });
  });

  describe("an import refuses the messages append() refuses", () => {
    it("a name OpenAI refuses (a space, <, |, \\, /, >, past 64 characters): INVALID_ARGUMENT at append, at import; nothing changes", async () => {
      const { loom, data } = await exported();
      const chat = await loom.user("u").open(data.chat.id!);
      const before = await snapshot(chat, loom.user("u"));
      for (const name of [
        "a b",
        "x".repeat(65),
        "tab\tname",
        "line\nbreak",
        "a<b",
        "a|b",
        "a\\b",
        "a/b",
        "a>b",
        "nbsp\u00a0",
      ]) {
        await expectRejectCode(() => chat.append({ role: "user", content: "hi", name }), "INVALID_ARGUMENT");
        await refused(loom, data, (x) => (x.messages[0].name = name));
      }
      expect(await snapshot(chat, loom.user("u"))).toEqual(before);
      for (const name of ["x".repeat(64), "ann.smith", "zoë", "José_1", "名前"])
        await chat.append({ role: "user", content: "hi", name });
      await loom.close();
    });

    it("tool calls providers would refuse: a name, arguments that are not JSON or too deep; and bad roles, priorities, call ids", async () => {
      const { loom, data } = await exported();
      const deep = "[".repeat(101) + "]".repeat(101);
      for (const fn of [
        { name: "look up", arguments: "{}" },
        { name: "lookup", arguments: "print(1)" },
        { name: "lookup", arguments: deep },
      ]) {
        await refused(loom, data, (x) => (x.messages[1].toolCalls[0].function = fn));
      }
      await refused(loom, data, (x) => (x.messages[1].toolCalls[0].extra = 1));
      await refused(loom, data, (x) => (x.messages[0].role = "robot"));
      await refused(loom, data, (x) => (x.messages[0].priority = "urgent"));
      await refused(loom, data, (x) => (x.messages[2].toolCallId = "c2"));
      await refused(loom, data, (x) => (x.messages[0].toolCallId = "c1"));
      await refused(loom, data, (x) => (x.messages[0].parts = [{ type: "image", image: { url: "https://x" } }]));
      await loom.close();
    });
  });

  describe("a profile's own counter", () => {
    const model = (counter: unknown) => ({
      name: "own-counter",
      contextWindow: 4_000,
      counter: counter as TokenCounter,
    });
    const counting = (count: (text: string) => unknown, more: object = {}) => ({
      name: "mine",
      exact: false,
      count,
      ...more,
    });

    it("is tried when given: -1, NaN, 1.5, a string, past 2^30, a throw, no name, an atLeast above its count are refused; nothing created", async () => {
      const loom = await Loom.open({ engine });
      const bad = [
        counting(() => -1),
        counting(() => Number.NaN),
        counting((t) => t.length / 7),
        counting(() => "3"),
        counting(() => 2 ** 31),
        counting(() => {
          throw new Error("not loaded");
        }),
        { exact: false, count: () => 1 },
        { name: "mine", count: () => 1 },
        counting(() => 1, { atLeast: () => 5 }),
        counting(() => 1, { countUpTo: () => -1 }),
        counting(() => 1, { fit: 3 }),
      ];
      for (const counter of bad) {
        await expectRejectCode(() => loom.user("u").create({ model: model(counter) }), "INVALID_ARGUMENT");
        expectThrowCode(() => getModelProfile(model(counter)), "INVALID_ARGUMENT");
        expectThrowCode(() => registerModel({ ...model(counter), name: "never-registered" }), "INVALID_ARGUMENT");
        expectThrowCode(
          () => countTokens([{ role: "user", content: "hi" }], { model: model(counter) }),
          "INVALID_ARGUMENT",
        );
      }
      expect(await loom.user("u").list()).toEqual([]);
      expect(() => getModelProfile("never-registered", { strict: true })).toThrow();
      await loom.close();
    });

    it("wrong only on some texts: refused where such a text is counted (append, a build's system prompt and input); the chat is unchanged", async () => {
      const loom = await Loom.open({ engine });
      const counter = counting((t) => (t.includes("BAD") ? -1 : Math.ceil(t.length / 4)));
      const chats = loom.user("u");
      const chat = await chats.create({ model: model(counter) });
      await chat.append({ role: "user", content: "fine" });
      const before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.append({ role: "user", content: "a BAD text" }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.append({ role: "user", content: "fine", name: "BAD" }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.edit(0, "BAD"), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildContext({ system: "BAD" }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildContext({ input: "BAD" }), "INVALID_ARGUMENT");
      expect(await snapshot(chat, chats)).toEqual(before);
      expect((await chat.buildContext({ input: "fine" })).usage.total).toBeGreaterThan(0);
      await loom.close();
    });
  });
});
