// Compaction controls (issue 31, item 5): chat.compact() summarizes now within the policy's rules,
// Loom.open({ onCompaction }) hears every summary (before and after) and every clearing, and
// every context carries the pressure a UI meter shows.
import { describe, expect, it } from "vitest";
import { Loom, countTokens, type CompactionEvent, type LoomOptions, type SummarizeRequest } from "../../src/index.js";
import { expectRejectCode, forEachEngine, snapshot } from "../helpers.js";
import { SMALL, summaryIds, talk } from "./summaries-helpers.js";

forEachEngine((engine) => {
  const open = (options: LoomOptions = {}) => Loom.open({ engine, ...options });

  describe("chat.compact()", () => {
    it("summarizes now (summaries off, the default policy): everything but the newest turn; the originals stay", async () => {
      const events: CompactionEvent[] = [];
      const loom = await open({ onCompaction: (e) => events.push(e) });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 6);
      await chat.append({ role: "user", content: "And now, the last question?" });
      const before = chat.path();
      const summary = (await chat.compact())!;
      expect(summary.kind).toBe("summary");
      expect(summary.covers).toEqual({ first: 0, last: 11 }); // all six exchanges; the newest user turn stays itself
      expect(chat.path()).toEqual(before); // nothing destroyed
      const ctx = await chat.buildContext();
      expect(ctx.compressed).toBe(true);
      expect(ctx.conversation.map((m) => m.id)).toEqual([summary.id, 12]);
      expect(ctx.usage.total).toBe(countTokens(ctx.messages as never, { model: SMALL }));
      expect(events.map((e) => e.type)).toEqual(["summary-start", "summary"]);
      expect(events[0]).toMatchObject({
        type: "summary-start",
        reason: "compact",
        userId: "u",
        chatId: chat.id,
        first: 0,
        last: 11,
      });
      expect(events[1]).toMatchObject({ type: "summary", reason: "compact", summary, source: "extractive" });
      // Again: the summary stands for the run; nothing more to summarize but that one, rolled up with the newest answer.
      await chat.append({ role: "assistant", content: "The last answer." });
      await chat.append({ role: "user", content: "One more?" });
      const second = await chat.compact();
      expect(second!.covers).toEqual({ first: 0, last: 14 }); // the first summary (13) is covered whole, with 12 and the answer (14)
      await loom.close();
    });

    it("by the chat's policy (keepLast), with the instructions told to the summarizer beside its prompt", async () => {
      const asked: SummarizeRequest[] = [];
      const loom = await open({
        summaries: { summarizer: (r) => (asked.push(r), "The user asked about topics 0 to 3.") },
      });
      const chat = await loom
        .user("u")
        .create({ model: SMALL, summaries: { trigger: { fraction: 1 }, select: { keepLast: 4 } } });
      await talk(chat, 6);
      const summary = (await chat.compact({ instructions: "Keep the topic numbers." }))!;
      expect(summary.covers).toEqual({ first: 0, last: 7 }); // all but the newest 4
      expect(summary.content).toBe("The user asked about topics 0 to 3.");
      expect(asked).toHaveLength(1);
      expect(asked[0]!.prompt.endsWith("\n\nKeep the topic numbers.")).toBe(true);
      await loom.close();
    });

    it("nothing to summarize: null, nothing written", async () => {
      const loom = await open();
      const chat = await loom.user("u").create({ model: SMALL });
      expect(await chat.compact()).toBeNull();
      await chat.append({ role: "user", content: "Only this." });
      expect(await chat.compact()).toBeNull();
      expect(summaryIds(chat)).toEqual([]);
      await loom.close();
    });

    it("bad options: INVALID_ARGUMENT, nothing changed", async () => {
      const loom = await open();
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 4);
      const before = await snapshot(chat);
      for (const bad of [
        5,
        { instruction: "x" },
        { instructions: "" },
        { instructions: 7 },
        { instructions: "x".repeat(10_001) },
      ]) {
        await expectRejectCode(() => chat.compact(bad as never), "INVALID_ARGUMENT");
      }
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    });
  });

  describe("onCompaction", () => {
    it("hears a policy's summary begin and end, with the run it covers", async () => {
      const events: CompactionEvent[] = [];
      const loom = await open({ summaries: true, onCompaction: (e) => events.push(e) });
      const chat = await loom.user("u").create({ model: SMALL });
      for (let i = 0; i < 40 && events.length === 0; i += 4) {
        await talk(chat, 4, i);
        await chat.buildContext();
      }
      expect(events.map((e) => e.type)).toEqual(["summary-start", "summary"]);
      const [start, end] = events as [
        Extract<CompactionEvent, { type: "summary-start" }>,
        Extract<CompactionEvent, { type: "summary" }>,
      ];
      expect(start.reason).toBe("trigger");
      expect(end.summary!.covers).toEqual({ first: start.first, last: start.last });
      expect(start.tokens).toBeGreaterThan(end.summary!.tokens);
      await loom.close();
    });

    it("hears each clearing once: the results a context clears that the chat's previous one sent whole", async () => {
      const events: CompactionEvent[] = [];
      const loom = await open({
        toolResults: { clear: { keepNewest: 1, atLeast: 0 } },
        onCompaction: (e) => events.push(e),
      });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "Read the files." });
      const results: number[] = [];
      for (let i = 0; i < 6; i++) {
        await chat.append({
          role: "assistant",
          content: "",
          toolCalls: [{ id: `c${i}`, type: "function", function: { name: "read", arguments: "{}" } }],
        });
        results.push((await chat.append({ role: "tool", toolCallId: `c${i}`, content: `file ${i} `.repeat(300) })).id);
        await chat.buildContext();
        await chat.buildContext(); // the same context again: nothing new cleared, nothing heard
      }
      const clears = events.filter((e): e is Extract<CompactionEvent, { type: "clear" }> => e.type === "clear");
      expect(clears.length).toBeGreaterThan(1);
      expect(clears.flatMap((e) => e.ids)).toEqual(results.slice(0, clears.flatMap((e) => e.ids).length)); // each once, oldest first
      for (const e of clears) expect(e.tokens).toBeGreaterThan(500 * e.ids.length);
      await loom.close();
    });

    it("what the listener throws fails the call that caused it; a bad listener is refused", async () => {
      const loom = await open({
        summaries: true,
        onCompaction: () => {
          throw new Error("listener");
        },
      });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 4);
      await expect(chat.compact()).rejects.toThrow("listener");
      await loom.close();
      await expectRejectCode(() => open({ onCompaction: 5 as never }), "INVALID_ARGUMENT");
    });
  });

  it("a summary's trigger reads what the context sends: older tool results cleared leave room, and no summary is made for them", async () => {
    const run = async (clear: boolean) => {
      const events: CompactionEvent[] = [];
      const loom = await open({
        summaries: { trigger: { fraction: 0.6 } },
        toolResults: { clear: clear ? { keepNewest: 2, atLeast: 0 } : false },
        onCompaction: (e) => events.push(e),
      });
      const chat = await loom
        .user("u")
        .create({ model: { name: "agent-4k", contextWindow: 4000, sizeClass: "small", tokensPerChar: 0.25 } });
      for (let i = 0; i < 12; i++) {
        // (A summary stands above the newest user turn: each file is a turn of its own.)
        await chat.append({ role: "user", content: `Read file ${i}.` });
        await chat.append({
          role: "assistant",
          content: "",
          toolCalls: [{ id: `c${i}`, type: "function", function: { name: "read", arguments: "{}" } }],
        });
        await chat.append({ role: "tool", toolCallId: `c${i}`, content: `file ${i} `.repeat(300 - i * 10) });
        await chat.append({ role: "assistant", content: `File ${i} read.` });
        await chat.buildContext();
      }
      await loom.close();
      return events.filter((e) => e.type === "summary").length;
    };
    expect(await run(false)).toBeGreaterThan(0);
    expect(await run(true)).toBe(0);
  });

  describe("ctx.pressure", () => {
    it("used is usage.total / usage.limit; summarizeAt is the policy's trigger as a request size, and a build past it summarizes", async () => {
      const loom = await open({ summaries: { trigger: { fraction: 0.5 } } });
      const chat = await loom.user("u").create({ model: SMALL, system: "Be brief." });
      await talk(chat, 2);
      const ctx = await chat.buildContext();
      expect(ctx.pressure.used).toBeCloseTo(ctx.usage.total / ctx.usage.limit, 10);
      const room = ctx.usage.limit - 3 - ctx.usage.system - ctx.usage.memory - ctx.usage.input;
      expect(ctx.pressure.summarizeAt).toBe(3 + ctx.usage.system + Math.floor(0.5 * room));
      expect(ctx.pressure.clearAt).toBeNull(); // clearing off
      let last = ctx;
      while (summaryIds(chat).length === 0) {
        await talk(chat, 1, 100);
        const before = last.usage.total;
        last = await chat.buildContext();
        if (summaryIds(chat).length === 0) expect(before + 40).toBeLessThan(ctx.pressure.summarizeAt! + 60);
      }
      const off = await (await open()).user("u").create({ model: SMALL });
      expect((await off.buildContext()).pressure.summarizeAt).toBeNull();
      await loom.close();
    });

    it("clearAt is clear's trigger until clearing starts, then null", async () => {
      const loom = await open({ toolResults: { clear: { trigger: { tokens: 3000 }, keepNewest: 1, atLeast: 0 } } });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "Read." });
      const seen: (number | null)[] = [];
      for (let i = 0; i < 8; i++) {
        await chat.append({
          role: "assistant",
          content: "",
          toolCalls: [{ id: `c${i}`, type: "function", function: { name: "read", arguments: "{}" } }],
        });
        await chat.append({ role: "tool", toolCallId: `c${i}`, content: `line ${i} `.repeat(200) });
        const ctx = await chat.buildContext();
        seen.push(ctx.pressure.clearAt);
        if (ctx.pressure.clearAt !== null) expect(ctx.usage.total).toBeLessThanOrEqual(3000);
      }
      expect(seen[0]).toBe(3000);
      expect(seen.at(-1)).toBeNull();
      // clear: true (from the start): under way at once, with or without tool results.
      const chat2 = await loom.user("u").create({ model: "gpt-4o", toolResults: { clear: true } });
      await chat2.append({ role: "user", content: "Hello." });
      expect((await chat2.buildContext()).pressure.clearAt).toBeNull();
      await loom.close();
    });
  });
});
