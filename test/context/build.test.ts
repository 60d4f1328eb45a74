// chat.buildContext (issue 3, point 6; seed 001's build_context) on both engines: exact usage,
// system and memory truncated to their slices at sentence boundaries, unused slices flowing to
// the conversation, input never truncated, MESSAGE_TOO_LARGE at append and at build with no
// state change, maxMessages, history limits (off by default), stats, bad options.
import { describe, expect, it } from "vitest";
import { Loom, budgetFor, countTokens, loadTokenizer, type Chat, type ModelProfile } from "../../src/index.js";
import { heuristicCounter, messageTokens } from "../../src/tokens-entry.js";
import { expectRejectCode, forEachEngine, snapshot, type Fixture } from "../helpers.js";

/** Heuristic counting, (length + 3) >> 2: budget eff 900, system 225, memory 180, conversation 360, input 90, reserve 45; limit 855. */
const SMALL: ModelProfile = { name: "ctx-small", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25 };
/** Exact o200k counting in a small window. */
const EXACT: ModelProfile = {
  name: "ctx-exact",
  contextWindow: 2_000,
  sizeClass: "tiny",
  tokensPerChar: 0.25,
  encoding: "o200k_base",
};
/** A window of 100: a request may use 86 tokens (90 effective less a reserve of 4). */
const TINY: ModelProfile = { name: "ctx-tiny", contextWindow: 100, sizeClass: "tiny", tokensPerChar: 0.25 };

const h = heuristicCounter();
const cost = (role: string, content: string) => messageTokens(h, { role, content });

const sentences = (n: number, tag = "Sentence") =>
  Array.from({ length: n }, (_, i) => `${tag} number ${i} tells the model one more plain thing.`).join(" ");

async function open(
  engine: "wasm" | "js",
  model: ModelProfile | string,
  options: { system?: string; historyLimits?: boolean } = {},
): Promise<Fixture> {
  const loom = await Loom.open({ engine });
  const chats = loom.user("alice");
  const chat = await chats.create({ model, ...options });
  return { loom, chats, chat };
}

async function history(chat: Chat, turns: number, length = 40): Promise<void> {
  for (let i = 0; i < turns; i++) {
    await chat.append({ role: "user", content: `question ${i} `.padEnd(length, "q") });
    await chat.append({ role: "assistant", content: `answer ${i} `.padEnd(length, "a") });
  }
}

const toolCall = (id: string, name = "lookup", args = '{"q":"weather in Paris"}') => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});

forEachEngine((engine) => {
  describe("usage", () => {
    it("usage.total is the cookbook count of the messages sent (exact encoding), and within the limit", async () => {
      await loadTokenizer(EXACT);
      const { loom, chat } = await open(engine, EXACT, { system: "You are a terse assistant. Answer in one line." });
      await chat.append({ role: "user", content: "What's the weather in Paris? 🌧️", name: "alice" });
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [toolCall("c1"), toolCall("c2", "forecast", "{}")],
      });
      await chat.append({ role: "tool", content: "12°C, light rain", toolCallId: "c1" });
      await chat.append({ role: "tool", content: "rain until 18:00", toolCallId: "c2" });
      await chat.append({ role: "assistant", content: "12°C and rainy until six." });
      await chat.append({ role: "user", content: "Thanks! <|endoftext|> And tomorrow?" });
      const ctx = await chat.buildContext({
        memory: "The user lives in Paris. The user prefers Celsius.",
        input: "Also Lyon, please.",
      });
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: EXACT }));
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      const { system, memory, conversation, input, total, limit } = ctx.usage;
      expect(total).toBe(3 + system + memory + conversation + input);
      expect(conversation).toBe(ctx.conversation.reduce((s, m) => s + m.tokens, 0));
      expect(limit).toBe(ctx.budget.effective - ctx.budget.reserve);
      // OpenAI shape: system, memory, the conversation, then the input
      expect(ctx.messages.map((m) => m.role)).toEqual([
        "system",
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
        "user",
      ]);
      expect(ctx.messages[2]).toEqual({ role: "user", content: "What's the weather in Paris? 🌧️", name: "alice" });
      expect(ctx.messages[3]).toEqual({
        role: "assistant",
        content: "",
        tool_calls: [toolCall("c1"), toolCall("c2", "forecast", "{}")],
      });
      expect(ctx.messages[4]).toEqual({ role: "tool", content: "12°C, light rain", tool_call_id: "c1" });
      expect(ctx.messages[8]).toEqual({ role: "user", content: "Also Lyon, please." });
      expect(ctx.conversation.map((m) => m.id)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(ctx.evicted).toBe(0);
      expect(ctx.recalled).toEqual([]);
      expect(ctx.compressed).toBe(false);
      await loom.close();
    });

    it("a long history is cut to the budget, newest kept, evicted counted", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await history(chat, 100);
      for (const stablePrefix of [false, true]) {
        const ctx = await chat.buildContext({ stablePrefix });
        expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
        expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
        const ids = ctx.conversation.map((m) => m.id);
        expect(ids[ids.length - 1]).toBe(199);
        expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => 200 - ids.length + i)); // a suffix of the branch
        expect(ctx.evicted).toBe(200 - ids.length);
        // The plain selection: the next message would not have fit. The stable one leaves at most its step unused.
        const next = ctx.usage.total + chat.get(ids[0]! - 1).tokens;
        if (!stablePrefix) expect(next).toBeGreaterThan(ctx.usage.limit);
        const room = ctx.usage.limit - (ctx.usage.total - ctx.usage.conversation);
        const unused = ctx.usage.limit - ctx.usage.total;
        if (stablePrefix) expect(unused).toBeLessThanOrEqual(Math.floor(0.1 * room) + chat.get(ids[0]! - 1).tokens);
      }
      await loom.close();
    });

    it("the chat's system prompt is used unless the call gives one", async () => {
      const { loom, chat } = await open(engine, SMALL, { system: "Be brief." });
      await chat.append({ role: "user", content: "hi" });
      expect((await chat.buildContext()).messages[0]).toEqual({ role: "system", content: "Be brief." });
      expect((await chat.buildContext({ system: "Be verbose." })).messages[0]).toEqual({
        role: "system",
        content: "Be verbose.",
      });
      expect((await chat.buildContext({ system: "" })).messages.map((m) => m.role)).toEqual(["user"]);
      await loom.close();
    });
  });

  describe("slices", () => {
    it("the system prompt is truncated to its slice at a sentence boundary", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await chat.append({ role: "user", content: "hi" });
      const full = sentences(60);
      const budget = budgetFor(SMALL);
      const ctx = await chat.buildContext({ system: full });
      expect(full.startsWith(ctx.system)).toBe(true);
      expect(ctx.system.length).toBeLessThan(full.length);
      expect(ctx.system.endsWith(".")).toBe(true);
      expect(ctx.usage.system).toBe(cost("system", ctx.system));
      expect(ctx.usage.system).toBeLessThanOrEqual(budget.system);
      const next = full.indexOf(".", ctx.system.length) + 1; // one more sentence would not fit
      expect(cost("system", full.slice(0, next))).toBeGreaterThan(budget.system);
      expect(ctx.messages[0]).toEqual({ role: "system", content: ctx.system });
      await loom.close();
    });

    it("memory is truncated to its slice at a sentence boundary and sent as a second system message", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await chat.append({ role: "user", content: "hi" });
      const full = sentences(60, "Fact");
      const budget = budgetFor(SMALL);
      const ctx = await chat.buildContext({ system: "Be brief.", memory: full });
      expect(full.startsWith(ctx.memory)).toBe(true);
      expect(ctx.memory.endsWith(".")).toBe(true);
      expect(ctx.usage.memory).toBe(cost("system", ctx.memory));
      expect(ctx.usage.memory).toBeLessThanOrEqual(budget.memory);
      const next = full.indexOf(".", ctx.memory.length) + 1;
      expect(cost("system", full.slice(0, next))).toBeGreaterThan(budget.memory);
      expect(ctx.messages.slice(0, 2)).toEqual([
        { role: "system", content: "Be brief." },
        { role: "system", content: ctx.memory },
      ]);
      await loom.close();
    });

    it("a text with no sentence boundary in reach is cut at a word, then anywhere", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await chat.append({ role: "user", content: "hi" });
      const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
      const ctx = await chat.buildContext({ system: words });
      expect(words.startsWith(ctx.system)).toBe(true);
      expect(words[ctx.system.length]).toBe(" ");
      expect(ctx.usage.system).toBeLessThanOrEqual(budgetFor(SMALL).system);
      const blob = "x".repeat(5_000);
      const ctx2 = await chat.buildContext({ memory: blob });
      expect(ctx2.memory).toBe("x".repeat(ctx2.memory.length));
      expect(ctx2.usage.memory).toBe(budgetFor(SMALL).memory);
      await loom.close();
    });

    it("unused slices flow to the conversation", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await history(chat, 100);
      const budget = budgetFor(SMALL);
      const bare = await chat.buildContext();
      const full = await chat.buildContext({ system: sentences(60), memory: sentences(60, "Fact") });
      expect(bare.usage.conversation).toBeGreaterThan(budget.conversation); // more than its 40%: nothing else used
      expect(bare.usage.conversation).toBeGreaterThan(full.usage.conversation);
      expect(bare.conversation.length).toBeGreaterThan(full.conversation.length);
      expect(bare.usage.limit - bare.usage.total).toBeLessThan(cost("user", "question 0".padEnd(40, "q"))); // the window is filled
      // a short system prompt leaves the rest of its slice to the conversation too
      const short = await chat.buildContext({ system: "Be brief." });
      expect(short.usage.conversation).toBeGreaterThan(full.usage.conversation);
      expect(short.usage.conversation + short.usage.system).toBeLessThanOrEqual(short.usage.limit - 3);
      await loom.close();
    });

    it("input is counted and never truncated, even past its slice", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await history(chat, 50);
      const input = sentences(12, "Input"); // far more than the 90-token input slice
      const ctx = await chat.buildContext({ input });
      expect(ctx.input).toBe(input);
      expect(ctx.messages[ctx.messages.length - 1]).toEqual({ role: "user", content: input });
      expect(ctx.usage.input).toBe(cost("user", input));
      expect(ctx.usage.input).toBeGreaterThan(budgetFor(SMALL).input);
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      await loom.close();
    });
  });

  describe("MESSAGE_TOO_LARGE", () => {
    it("at append: a message larger than what a request may use is refused; the chat is unchanged", async () => {
      const fx = await open(engine, TINY);
      const { chat, chats } = fx;
      await chat.append({ role: "user", content: "hello" });
      const before = await snapshot(chat, chats);
      let error: unknown;
      try {
        await chat.append({ role: "assistant", content: "z".repeat(320) }); // 3 + 3 + 80 tokens, + 3 > 86
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string }).code).toBe("MESSAGE_TOO_LARGE");
      const message = (error as Error).message;
      expect(message).toMatch(/split/i);
      expect(message).toMatch(/summarize/i);
      expect(message).toMatch(/larger window/i);
      expect(await snapshot(chat, chats)).toEqual(before);
      await expectRejectCode(() => chat.append({ role: "user", content: "z".repeat(1_000) }), "MESSAGE_TOO_LARGE");
      expect(await snapshot(chat, chats)).toEqual(before);
      await fx.loom.close();
    });

    it("at append: the largest message that fits alone is accepted, and builds exactly to the limit", async () => {
      const { loom, chat } = await open(engine, TINY);
      const m = await chat.append({ role: "user", content: "z".repeat(316) }); // 3 + 1 + 79 = 83; + 3 = 86
      expect(m.tokens).toBe(83);
      const ctx = await chat.buildContext();
      expect(ctx.usage.total).toBe(86);
      expect(ctx.usage.limit).toBe(86);
      await loom.close();
    });

    it("at build: the newest user turn and the critical messages do not fit together; nothing changes", async () => {
      const fx = await open(engine, SMALL);
      const { chat, chats } = fx;
      for (let i = 0; i < 4; i++) await chat.append({ role: "system", content: "r".repeat(960) }); // 3 + 2 + 240 each, CRITICAL
      await chat.append({ role: "user", content: "hi" });
      const before = await snapshot(chat, chats);
      const stats = chat.stats();
      let error: unknown;
      try {
        await chat.buildContext();
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string }).code).toBe("MESSAGE_TOO_LARGE");
      expect((error as Error).message).toMatch(/critical/i);
      expect((error as Error).message).toMatch(/larger window/i);
      expect(await snapshot(chat, chats)).toEqual(before);
      expect(chat.stats()).toEqual(stats);
      await expectRejectCode(() => chat.buildPrompt(), "MESSAGE_TOO_LARGE");
      await fx.loom.close();
    });

    it("at build: a user turn that fits alone but not beside the system prompt", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await chat.append({ role: "user", content: "u".repeat(2_600) }); // 654 tokens
      expect((await chat.buildContext()).usage.conversation).toBe(654);
      await expectRejectCode(() => chat.buildContext({ system: sentences(60) }), "MESSAGE_TOO_LARGE");
      await expectRejectCode(() => chat.buildContext({ input: "i".repeat(1_000) }), "MESSAGE_TOO_LARGE");
      await expectRejectCode(() => chat.buildContext({ input: "i".repeat(4_000) }), "MESSAGE_TOO_LARGE"); // input alone too large
      expect(chat.stats().lastUsage?.conversation).toBe(654); // the failed builds left the last usage alone
      await loom.close();
    });
  });

  describe("maxMessages and history limits", () => {
    it("maxMessages bounds the newest messages considered; CRITICAL ones come from anywhere", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await chat.append({ role: "system", content: "Pinned rule." });
      await history(chat, 10, 10);
      const ctx = await chat.buildContext({ maxMessages: 4 });
      expect(ctx.conversation.map((m) => m.id)).toEqual([0, 17, 18, 19, 20]);
      expect(ctx.evicted).toBe(16); // 1 to 16: outside the newest 4, left out all the same
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
      expect((await chat.buildContext()).conversation.length).toBe(21);
      await loom.close();
    });

    it("evicted counts every message of the branch the context leaves out: outside the horizon too, and a dropped summary's run", async () => {
      const { loom, chat } = await open(engine, SMALL);
      await history(chat, 8, 40); // 16 messages of 13 tokens
      // maxMessages 10 and a budget for 2 of them: 14 of the 16 are left out
      const cut = await chat.buildContext({
        maxMessages: 10,
        model: { ...SMALL, name: "ctx-cut", contextWindow: 40 },
        stablePrefix: false,
      });
      expect(cut.conversation.map((m) => m.id)).toEqual([14, 15]);
      expect(cut.evicted).toBe(14);
      const turns = await chat.buildContext({ historyLimits: { maxTurns: 2 } });
      expect(turns.conversation.map((m) => m.id)).toEqual([12, 13, 14, 15]);
      expect(turns.evicted).toBe(12);
      // a summary sent carries its run; dropped, its run is left out
      const summarizing = await Loom.open({ engine });
      const long = await summarizing
        .user("alice")
        .create({ model: { ...SMALL, name: "ctx-sum", contextWindow: 2_000 } });
      await history(long, 60, 40);
      const summarized = await long.buildContext({ summaries: { select: { keepLast: 6 } } });
      const summary = summarized.conversation[0]!;
      expect(summary.kind).toBe("summary");
      expect(summarized.conversation.length).toBe(7);
      expect(summarized.evicted).toBe(0); // 114 in the summary, 6 kept
      const small = await long.buildContext({ model: { ...SMALL, name: "ctx-sum-small", contextWindow: 60 } });
      expect(small.conversation.every((m) => m.kind === "message")).toBe(true);
      expect(small.evicted).toBe(120 - small.conversation.length);
      const newest = await long.buildContext({ maxMessages: 3 });
      expect(newest.conversation.map((m) => m.id)).toEqual([117, 118, 119]);
      expect(newest.evicted).toBe(117);
      await loom.close();
      await summarizing.close();
    });

    it("history limits are off by default: long turns and many turns are kept as the budget allows", async () => {
      const { loom, chat } = await open(engine, {
        name: "hl-tiny",
        contextWindow: 100_000,
        sizeClass: "tiny",
        tokensPerChar: 0.25,
      });
      await history(chat, 10, 200);
      const ctx = await chat.buildContext({ memory: "m".repeat(1_000) });
      expect(ctx.conversation.length).toBe(20);
      expect(ctx.conversation.every((m) => m.content.length === 200)).toBe(true);
      expect(ctx.memory.length).toBe(1_000);
      await loom.close();
    });

    it("historyLimits: true applies the size class's maxTurns, maxCharsPerTurn and memoryMaxChars", async () => {
      const model: ModelProfile = { name: "hl-tiny", contextWindow: 100_000, sizeClass: "tiny", tokensPerChar: 0.25 };
      for (const where of ["call", "chat"] as const) {
        const { loom, chat } = await open(engine, model, where === "chat" ? { historyLimits: true } : {});
        await history(chat, 10, 200);
        const ctx = await chat.buildContext({
          memory: "m ".repeat(500),
          ...(where === "call" ? { historyLimits: true } : {}),
        });
        expect(ctx.conversation.map((m) => m.id)).toEqual([14, 15, 16, 17, 18, 19]); // 3 turns
        for (const m of ctx.conversation) {
          expect(m.content.length).toBeLessThanOrEqual(100);
          expect(m.content.endsWith("…")).toBe(true);
          expect(m.tokens).toBe(cost(m.role, m.content));
        }
        expect(ctx.memory.length).toBeLessThanOrEqual(300);
        expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model }));
        expect(chat.get(19).content.length).toBe(200); // the chat itself is untouched
        if (where === "chat") expect((await chat.buildContext({ historyLimits: false })).conversation.length).toBe(20);
        await loom.close();
      }
    });

    it("historyLimits: custom limits override the class's", async () => {
      const { loom, chat } = await open(engine, {
        name: "hl-x",
        contextWindow: 100_000,
        sizeClass: "xlarge",
        tokensPerChar: 0.25,
      });
      await history(chat, 10, 200);
      const ctx = await chat.buildContext({
        historyLimits: { maxTurns: 2, maxCharsPerTurn: 50, memoryMaxChars: 100 },
        memory: "x".repeat(500),
      });
      expect(ctx.conversation.length).toBe(4);
      expect(ctx.conversation.every((m) => m.content.length <= 50)).toBe(true);
      expect(ctx.memory.length).toBeLessThanOrEqual(100);
      await expectRejectCode(() => chat.buildContext({ historyLimits: { maxTurns: 0 } as never }), "INVALID_ARGUMENT");
      await loom.close();
    });
  });

  describe("stats and options", () => {
    it("chat.stats() after a build: seed 001's usage stats", async () => {
      const { loom, chat } = await open(engine, SMALL);
      expect(chat.stats()).toMatchObject({
        messages: 0,
        branchMessages: 0,
        lastUsage: null,
        tokens: 0,
        usagePercent: 0,
        evicted: 0,
      });
      await history(chat, 100);
      await chat.regenerate(199);
      await chat.append({ role: "assistant", content: "another answer" });
      const ctx = await chat.buildContext();
      expect(chat.stats()).toMatchObject({
        messages: 201,
        branchMessages: 200,
        model: "ctx-small",
        contextWindow: 1_000,
        counter: "heuristic:0.25",
        lastUsage: ctx.usage,
        tokens: ctx.usage.total,
        usagePercent: Math.round((1000 * ctx.usage.total) / ctx.usage.limit) / 10,
        evicted: ctx.evicted,
        compressions: 0,
        tokensSaved: 0,
        compressionRatio: 1,
      });
      expect(chat.stats().evicted).toBe(200 - ctx.conversation.length);
      await loom.close();
    });

    it("unknown options and bad values -> INVALID_ARGUMENT (or their code); nothing changes", async () => {
      const fx = await open(engine, SMALL);
      const { chat, chats } = fx;
      await history(chat, 3);
      await chat.buildContext();
      const before = await snapshot(chat, chats);
      const stats = chat.stats();
      const bad: [unknown, string][] = [
        [{ maxTokens: 100 }, "INVALID_ARGUMENT"],
        [{ systemPrompt: "x" }, "INVALID_ARGUMENT"],
        [{ system: 5 }, "INVALID_ARGUMENT"],
        [{ memory: ["a"] }, "INVALID_ARGUMENT"],
        [{ input: "" }, "INVALID_CONTENT"],
        [{ maxMessages: 0 }, "INVALID_ARGUMENT"],
        [{ maxMessages: 2.5 }, "INVALID_ARGUMENT"],
        [{ format: "xml" }, "INVALID_ARGUMENT"],
        [{ model: "no-such-model" }, "UNKNOWN_MODEL"],
        ["gpt-4o", "INVALID_ARGUMENT"],
        [null, "INVALID_ARGUMENT"],
      ];
      for (const [options, code] of bad) {
        await expectRejectCode(() => chat.buildContext(options as never), code);
        if (!(options && typeof options === "object" && "format" in options))
          await expectRejectCode(() => chat.buildPrompt(options as never), code);
      }
      await expectRejectCode(() => chat.buildPrompt({ foo: 1 } as never), "INVALID_ARGUMENT");
      expect(await snapshot(chat, chats)).toEqual(before);
      expect(chat.stats()).toEqual(stats);
      await fx.loom.close();
    });

    it("an empty chat builds the system prompt, memory and input alone", async () => {
      const { loom, chat } = await open(engine, SMALL, { system: "Be brief." });
      const ctx = await chat.buildContext({ input: "hello?" });
      expect(ctx.messages).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "hello?" },
      ]);
      expect(ctx.conversation).toEqual([]);
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
      await loom.close();
    });
  });
});
