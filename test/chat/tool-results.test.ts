// A tool result of any size is kept whole; a context sends one too large cut (head and tail
// around a marker naming its message), counted exactly by the chat's counter, and the tool
// unit the model is about to read always fits beside its call and the newest user turn.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Loom, budgetFor, countTokens, memoryStore, type LoomOptions } from "../../src/index.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";

const SMALL = { name: "tool-small", contextWindow: 2000, sizeClass: "small" as const, tokensPerChar: 0.25 };
const call = { id: "c1", type: "function" as const, function: { name: "read_log", arguments: "{}" } };
const bigLog = Array.from({ length: 3000 }, (_, i) => `${i}: GET /api/items/${i} 200 — 日本 ✓ 😀`).join("\n");
const MARKER = /\n\[\.\.\. ([\d,]+) of ([\d,]+) tokens of this tool result \(message (\d+)\) omitted \.\.\.\]\n/;

async function chatWith(engine: "wasm" | "js", options: LoomOptions, model: typeof SMALL | string = SMALL) {
  const loom = await Loom.open({ engine, ...options });
  const chat = await loom.user("u").create({ model });
  await chat.append({ role: "user", content: "Read the log." });
  await chat.append({ role: "assistant", content: "", toolCalls: [call] });
  return { loom, chat };
}

/** The cookbook count of what a context sends (OpenAI format). */
const recount = (messages: unknown[], model: string) => countTokens(messages as never, { model });

forEachEngine((engine) => {
  it("by default a result too large is kept whole and sent cut to a quarter of the request, naming its message", async () => {
    const { loom, chat } = await chatWith(engine, {});
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: bigLog });
    expect(m.content).toBe(bigLog); // the chat keeps it whole
    expect(chat.path().at(-1)!.content).toBe(bigLog);
    const ctx = await chat.buildContext();
    const sent = ctx.conversation.at(-1)!;
    expect(sent.id).toBe(m.id);
    const marker = MARKER.exec(sent.content)!;
    expect(marker).not.toBeNull();
    expect(Number(marker[3])).toBe(m.id);
    expect(sent.content.startsWith("0: GET /api/items/0")).toBe(true);
    expect(sent.content.endsWith("2999: GET /api/items/2999 200 — 日本 ✓ 😀")).toBe(true);
    const budget = budgetFor(SMALL);
    const cap = Math.floor((budget.effective - budget.reserve) / 4);
    expect(sent.tokens).toBeLessThanOrEqual(cap);
    expect(sent.tokens).toBeGreaterThan(cap - 40);
    expect(ctx.conversation.map((x) => x.id)).toEqual(chat.path().map((x) => x.id));
    expect(ctx.truncated).toEqual({ count: 1, tokens: m.tokens - sent.tokens, ids: [m.id] });
    expect(ctx.cleared).toEqual({ count: 0, tokens: 0, ids: [] });
    // Older, it is sent the same (the start of the request stays the same for prompt caches).
    await chat.append({ role: "assistant", content: "The log is long; the ends look fine." });
    await chat.append({ role: "user", content: "Thanks." });
    const next = await chat.buildContext();
    expect(next.conversation.find((x) => x.id === m.id)).toEqual(sent);
    expect(next.messages.slice(0, ctx.messages.length)).toEqual(ctx.messages);
    await loom.close();
  });

  it("the unit the model is about to read is cut to fit beside its call and the user turn when a quarter does not", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: SMALL, system: "Answer from the log. ".repeat(60) });
    await chat.append({ role: "user", content: "Read the log, please: ".repeat(190) });
    await chat.append({ role: "assistant", content: "", toolCalls: [call, { ...call, id: "c2" }] });
    const small = await chat.append({ role: "tool", toolCallId: "c2", content: "ok" });
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: bigLog });
    const ctx = await chat.buildContext();
    expect(ctx.conversation.map((x) => x.id)).toEqual(chat.path().map((x) => x.id));
    expect(ctx.conversation.find((x) => x.id === small.id)!.content).toBe("ok");
    expect(MARKER.exec(ctx.conversation.find((x) => x.id === m.id)!.content)).not.toBeNull();
    expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
    expect(ctx.usage.total).toBeGreaterThan(ctx.usage.limit - 40); // the room is used
    await loom.close();
  });

  it("maxTokens caps every result sent, counted exactly with o200k (gpt-4o's counter), and holds after a restore", async () => {
    const store = memoryStore();
    const { loom, chat } = await chatWith(engine, { store, toolResults: { truncate: { maxTokens: 500 } } }, "gpt-4o");
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: bigLog });
    expect(m.tokens).toBe(recount([{ role: "tool", content: bigLog, tool_call_id: "c1" }], "gpt-4o") - 3); // counted whole
    await chat.append({ role: "assistant", content: "", toolCalls: [{ ...call, id: "c2" }] });
    await chat.append({ role: "tool", toolCallId: "c2", content: "42 lines" });
    const ctx = await chat.buildContext();
    const [big, small] = ctx.conversation.filter((x) => x.role === "tool");
    expect(big!.tokens).toBeLessThanOrEqual(500);
    expect(big!.tokens).toBeGreaterThan(450);
    expect(small!.content).toBe("42 lines"); // a small result is left alone
    const [, , total] = MARKER.exec(big!.content)!;
    expect(Number(total!.replace(/,/g, ""))).toBe(
      recount([{ role: "user", content: bigLog }], "gpt-4o") - recount([{ role: "user", content: "" }], "gpt-4o"),
    );
    expect(ctx.usage.total).toBe(recount(ctx.messages, "gpt-4o"));
    await loom.close();
    const again = await Loom.open({ engine, store, toolResults: { truncate: { maxTokens: 500 } } });
    const reopened = await again.user("u").open(chat.id);
    expect(reopened.get(m.id).content).toBe(bigLog);
    const ctx2 = await reopened.buildContext();
    expect(ctx2.messages).toEqual(ctx.messages);
    await again.close();
  });

  it("a redacted result is sent redacted at once: the views made of its old text are dropped", async () => {
    const { loom, chat } = await chatWith(engine, { toolResults: { clear: { keepNewest: 0, atLeast: 0 } } }, "gpt-4o");
    const secret = `SECRET-TOKEN ${bigLog}`;
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: secret });
    await chat.append({ role: "assistant", content: "", toolCalls: [call] });
    const cut = await chat.buildContext({ toolResults: { clear: false } });
    expect(JSON.stringify(cut.messages)).toContain("SECRET-TOKEN");
    await chat.redact(m.id);
    for (const toolResults of [{ clear: false }, {}]) {
      const ctx = await chat.buildContext({ toolResults });
      expect(JSON.stringify(ctx.messages)).not.toContain("SECRET-TOKEN");
      expect(ctx.usage.total).toBe(recount(ctx.messages, "gpt-4o"));
    }
    await loom.close();
  });

  it("keep: head and keep: tail", async () => {
    for (const keep of ["head", "tail"] as const) {
      const { loom, chat } = await chatWith(engine, { toolResults: { truncate: { maxTokens: 200, keep } } });
      await chat.append({ role: "tool", toolCallId: "c1", content: bigLog });
      await chat.append({ role: "user", content: "and?" });
      const sent = (await chat.buildContext()).conversation.find((x) => x.role === "tool")!;
      expect(sent.tokens).toBeLessThanOrEqual(200);
      if (keep === "head") expect(sent.content.startsWith("0: GET")).toBe(true);
      else expect(sent.content.endsWith("😀")).toBe(true);
      await loom.close();
    }
  });

  it("truncate: false sends a result whole, and a unit too large for the request is left out of it; nothing is refused", async () => {
    const { loom, chat } = await chatWith(engine, { toolResults: { truncate: false } });
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: bigLog });
    const ctx = await chat.buildContext();
    expect(ctx.conversation.map((x) => x.id)).not.toContain(m.id);
    expect(ctx.truncated.count).toBe(0);
    // The same chat, a build that truncates: sent cut again. The chat never changed.
    const cut = await chat.buildContext({ toolResults: { truncate: true } });
    expect(cut.conversation.map((x) => x.id)).toContain(m.id);
    await loom.close();
  });

  it("an empty tool result is accepted and sent as it is (a command that printed nothing)", async () => {
    const { loom, chat } = await chatWith(engine, {}, "gpt-4o");
    const m = await chat.append({ role: "tool", toolCallId: "c1", content: "" });
    expect(m.content).toBe("");
    const ctx = await chat.buildContext();
    expect(ctx.messages.at(-1)).toEqual({ role: "tool", content: "", tool_call_id: "c1" });
    expect(ctx.usage.total).toBe(recount(ctx.messages, "gpt-4o"));
    await loom.close();
  });

  it("the unit the model is about to read is always sent, whatever the window, the turn, the call and the system prompt (property)", async () => {
    // A 20,000-word result: the default cut (a quarter of the request) or what the unit leaves it.
    const words = Array.from({ length: 20_000 }, (_, i) => `word${i % 97}`).join(" ");
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000, max: 12_000 }), // the window
        fc.constantFrom("estimate", "o200k"), // how the model counts
        fc.integer({ min: 1, max: 120 }), // words of the user turn
        fc.integer({ min: 0, max: 400 }), // characters of the call's arguments
        fc.integer({ min: 0, max: 300 }), // characters of the system prompt
        fc.boolean(), // a second call answered first, in the same unit
        async (window, counting, userWords, argChars, systemChars, twoCalls) => {
          const model =
            counting === "estimate"
              ? { name: `tool-${window}`, contextWindow: window, sizeClass: "small" as const, tokensPerChar: 0.25 }
              : {
                  name: `tool-o200k-${window}`,
                  contextWindow: window,
                  sizeClass: "small" as const,
                  tokensPerChar: 0.25,
                  encoding: "o200k_base" as const,
                };
          const loom = await Loom.open({ engine });
          const chat = await loom
            .user("u")
            .create({ model, ...(systemChars ? { system: "Be brief. ".repeat(systemChars / 10) } : {}) });
          const user = await chat.append({ role: "user", content: "Please read the log. ".repeat(userWords) });
          const args = JSON.stringify({ query: "q".repeat(argChars) });
          const calls = [
            { ...call, function: { name: "read_log", arguments: args } },
            ...(twoCalls ? [{ ...call, id: "c0" }] : []),
          ];
          const asked = await chat.append({ role: "assistant", content: "", toolCalls: calls });
          const first = twoCalls ? await chat.append({ role: "tool", toolCallId: "c0", content: "ok" }) : undefined;
          const result = await chat.append({ role: "tool", toolCallId: "c1", content: words });
          expect(result.content).toBe(words);
          const ctx = await chat.buildContext();
          const sent = ctx.conversation.map((m) => m.id);
          const room = ctx.usage.limit - 3 - ctx.usage.system - user.tokens - asked.tokens - (first?.tokens ?? 0);
          if (room >= 24) {
            expect(sent).toEqual(expect.arrayContaining([user.id, asked.id, result.id, ...(first ? [first.id] : [])]));
            checked++;
          }
          expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
          await loom.close();
        },
      ),
      { numRuns: 40 },
    );
    expect(checked).toBeGreaterThan(20); // the cut is what the property exercises; a unit with no room is the edge
  });

  it("only tool results are kept past the window: a user message too large is still refused", async () => {
    const loom = await Loom.open({ engine, toolResults: { truncate: { maxTokens: 100 } } });
    const chat = await loom.user("u").create({ model: SMALL });
    await expectRejectCode(() => chat.append({ role: "user", content: bigLog }), "MESSAGE_TOO_LARGE");
    const m = await chat.append({ role: "user", content: "x ".repeat(300) }); // past maxTokens, within the window
    expect(m.tokens).toBeGreaterThan(100);
    await loom.close();
  });
});

describe("Loom.open({ toolResults })", () => {
  it("refuses unknown keys and bad values, naming the option", async () => {
    for (const toolResults of [
      { trunc: true },
      { truncate: { maxTokens: 3 } },
      { truncate: { keep: "both" } },
      { truncate: { max: 9 } },
      5,
      { clear: { keep: 1 } },
    ]) {
      await expectRejectCode(() => Loom.open({ toolResults } as unknown as LoomOptions), "INVALID_ARGUMENT");
    }
    await expectRejectCode(() => Loom.open({ toolResult: {} } as unknown as LoomOptions), "INVALID_ARGUMENT");
  });
});
