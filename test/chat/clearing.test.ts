// toolResults: { clear }: older tool results sent as a placeholder naming their message, in
// batches that keep the start of the request the same between them; the newest `keepNewest`
// always whole; nothing in the chat changes; the same on both engines, in any process.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  Loom,
  countTokens,
  memoryStore,
  type Chat,
  type ContextWindow,
  type LoomOptions,
  type Message,
} from "../../src/index.js";
import { ENGINES, forEachEngine } from "../helpers.js";
import { seeded } from "../seeded.js";
import { PLACEHOLDER_ESTIMATE } from "../../src/context/clearing.js";

const MODEL = "gpt-4o";
const call = (id: string, name = "read", args = "{}") => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});
const recount = (ctx: ContextWindow) => countTokens(ctx.messages as never, { model: MODEL });
const isCleared = (m: Message) => m.role === "tool" && m.content.startsWith("[cleared: message ");
const resultsOf = (ctx: ContextWindow) => ctx.conversation.filter((m) => m.role === "tool");

/** Appends one agent step: a call of `name` and its result of `words` words. */
async function step(chat: Chat, n: number, words: number, name = "read"): Promise<Message> {
  await chat.append({
    role: "assistant",
    content: "",
    toolCalls: [call(`c${n}`, name, JSON.stringify({ file: `f${n}.ts` }))],
  });
  return chat.append({
    role: "tool",
    toolCallId: `c${n}`,
    content: Array.from({ length: words }, (_, i) => `w${n}_${i}`).join(" "),
  });
}

async function agent(engine: "wasm" | "js", options: LoomOptions) {
  const loom = await Loom.open({ engine, ...options });
  const chat = await loom.user("u").create({ model: MODEL, system: "You fix bugs." });
  await chat.append({ role: "user", content: "Fix the failing test." });
  return { loom, chat };
}

forEachEngine((engine) => {
  it("clears in batches of at least atLeast tokens: the newest keepNewest whole, and the request's start unchanged between batches", async () => {
    const { random, seed } = seeded(`clearing batches (${engine})`);
    const keepNewest = 3;
    const atLeast = 1500;
    const { loom, chat } = await agent(engine, { toolResults: { clear: { keepNewest, atLeast } } });
    let previous: ContextWindow | null = null;
    let clearedBefore = new Set<number>();
    let batches = 0;
    for (let n = 0; n < 40; n++) {
      await step(chat, n, 20 + Math.floor(random() * 400));
      const ctx = await chat.buildContext();
      expect(ctx.usage.total, `seed ${seed}`).toBe(recount(ctx));
      const results = resultsOf(ctx);
      const whole = results.slice(-keepNewest);
      for (const m of whole) expect(isCleared(m), `step ${n}: one of the newest ${keepNewest} cleared`).toBe(false);
      const cleared = new Set(results.filter(isCleared).map((m) => m.id));
      for (const id of clearedBefore) expect(cleared.has(id), `step ${n}: ${id} came back`).toBe(true);
      if (cleared.size === clearedBefore.size) {
        // No batch: the previous request is the start of this one, message for message.
        if (previous) expect(ctx.messages.slice(0, previous.messages.length)).toEqual(previous.messages);
      } else {
        batches++;
        const saved = [...cleared]
          .filter((id) => !clearedBefore.has(id))
          .reduce((s, id) => s + chat.get(id).tokens - PLACEHOLDER_ESTIMATE, 0);
        expect(saved, `step ${n}: a batch of ${saved} tokens`).toBeGreaterThanOrEqual(atLeast);
        // Every result older than the newest kept is cleared once a batch is made.
        for (const m of results.slice(0, -keepNewest)) expect(isCleared(m)).toBe(true);
      }
      expect(ctx.cleared.count).toBe(cleared.size);
      expect(ctx.cleared.ids).toEqual([...cleared]);
      expect(ctx.cleared.tokens).toBe(
        [...cleared].reduce((s, id) => s + chat.get(id).tokens - ctx.conversation.find((m) => m.id === id)!.tokens, 0),
      );
      clearedBefore = cleared;
      previous = ctx;
    }
    expect(batches).toBeGreaterThan(3);
    // Nothing in the chat changed: every result whole, and a build without clearing sends them whole.
    for (const m of chat.path()) expect(isCleared(m)).toBe(false);
    const plain = await chat.buildContext({ toolResults: { clear: false } });
    expect(resultsOf(plain).some(isCleared)).toBe(false);
    expect(plain.cleared).toEqual({ count: 0, tokens: 0, ids: [] });
    await loom.close();
  });

  it("trigger: nothing is cleared until the request, with nothing cleared, passes it (tokens or a fraction of the limit)", async () => {
    for (const [trigger, at] of [
      [{ tokens: 20000 }, 20000],
      [{ fraction: 20000 / 109440 }, Math.floor((20000 / 109440) * 109440)],
    ] as const) {
      const { loom, chat } = await agent(engine, { toolResults: { clear: { atLeast: 0, keepNewest: 2, trigger } } });
      let started = -1;
      for (let n = 0; n < 30; n++) {
        await step(chat, n, 300);
        const ctx = await chat.buildContext();
        const full = await chat.buildContext({ toolResults: { clear: false } });
        if (full.usage.total <= at) expect(ctx.cleared.count).toBe(0);
        else {
          if (started < 0) started = n;
          // Cleared from the oldest on, never one of the newest two; a batch within a few steps.
          expect(ctx.cleared.count).toBeLessThanOrEqual(n - 1);
          if (n >= started + 3) expect(ctx.cleared.count).toBeGreaterThan(0);
          const results = resultsOf(ctx);
          expect(results.slice(0, ctx.cleared.count).every(isCleared)).toBe(true);
        }
      }
      expect(started).toBeGreaterThan(5);
      await loom.close();
    }
  });

  it("exclude keeps a tool's results whole; inputs clears the arguments of cleared calls; CRITICAL results are never cleared", async () => {
    const { loom, chat } = await agent(engine, {
      toolResults: { clear: { atLeast: 0, keepNewest: 1, exclude: ["todo"], inputs: true } },
    });
    const todo = await step(chat, 0, 200, "todo");
    const read = await step(chat, 1, 200);
    await chat.append({ role: "assistant", content: "", toolCalls: [call("c2", "read", "{}")], priority: "critical" });
    const critical = await chat.append({ role: "tool", toolCallId: "c2", content: "must stay ".repeat(100) });
    await step(chat, 3, 200);
    const ctx = await chat.buildContext();
    const sent = (id: number) => ctx.conversation.find((m) => m.id === id)!;
    expect(isCleared(sent(todo.id))).toBe(false);
    expect(sent(todo.id - 1).toolCalls![0]!.function.arguments).toBe(JSON.stringify({ file: "f0.ts" }));
    expect(isCleared(sent(read.id))).toBe(true);
    expect(sent(read.id - 1).toolCalls![0]!.function.arguments).toBe("{}");
    expect(chat.get(read.id - 1).toolCalls![0]!.function.arguments).toBe(JSON.stringify({ file: "f1.ts" }));
    expect(isCleared(sent(critical.id))).toBe(false);
    expect(ctx.usage.total).toBe(recount(ctx));
    await loom.close();
  });

  it("a call id reused across steps: each request names its calls uniquely, in every format, and clears as usual", async () => {
    const { loom, chat } = await agent(engine, { toolResults: { clear: { atLeast: 0, keepNewest: 1 } } });
    for (let n = 0; n < 4; n++) {
      await chat.append({ role: "assistant", content: "", toolCalls: [call("call_0", "read")] });
      await chat.append({ role: "tool", toolCallId: "call_0", content: `result ${n} `.repeat(50) });
    }
    const ctx = await chat.buildContext();
    expect(ctx.usage.total).toBe(recount(ctx));
    const callIds = ctx.conversation.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []);
    expect(new Set(callIds).size).toBe(4);
    expect(callIds[0]).toBe("call_0"); // the first keeps its id: the request's start never changes
    for (const m of ctx.conversation.filter((x) => x.role === "tool")) {
      const owner = ctx.conversation.find((x) => x.id === chat.get(m.id).parentId)!;
      expect(m.toolCallId).toBe(owner.toolCalls![0]!.id);
    }
    const anthropic = await chat.buildContext({ format: "anthropic" });
    const uses = anthropic.messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === "tool_use")
      .map((b) => (b as { id: string }).id);
    expect(new Set(uses).size).toBe(uses.length);
    expect(uses.every((id) => /^[a-zA-Z0-9_-]+$/.test(id))).toBe(true);
    const responses = await chat.buildContext({ format: "responses" });
    const callIdsR = responses.messages
      .filter((i) => (i as { type?: string }).type === "function_call")
      .map((i) => (i as { call_id: string }).call_id);
    expect(new Set(callIdsR).size).toBe(4);
    await loom.close();
  });
});

describe("the same clearing in any process and on both engines", () => {
  it("a Loom opened again on the store (nothing kept from earlier builds) clears exactly as the one that built every step, on a branch too", async () => {
    const store = memoryStore();
    const options = { toolResults: { clear: { atLeast: 800, keepNewest: 2 } } };
    const { loom, chat } = await agent("wasm", { store, ...options });
    const heads: number[] = [];
    const built: unknown[] = [];
    for (let n = 0; n < 25; n++) {
      const r = await step(chat, n, 50 + ((n * 37) % 300));
      heads.push(r.id);
      built.push((await chat.buildContext()).messages);
    }
    await chat.checkout(heads[12]!);
    for (let n = 25; n < 30; n++) {
      heads.push((await step(chat, n, 200)).id);
      built.push((await chat.buildContext()).messages);
    }
    await loom.close();
    for (const engine of ENGINES) {
      const again = await Loom.open({ engine, store, ...options });
      const reopened = await again.user("u").open(chat.id);
      // Heads in a shuffled order: each build starts from whatever this Loom kept.
      const order = heads.map((_, i) => i).sort((a, b) => ((a * 7919) % 31) - ((b * 7919) % 31));
      for (const i of order) {
        await reopened.checkout(heads[i]!);
        expect((await reopened.buildContext()).messages, `${engine}: head ${heads[i]}`).toEqual(built[i]);
      }
      await again.close();
    }
  });

  it("random agent runs: both engines send the same messages, clear and cut the same, and usage is the exact count (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            words: fc.integer({ min: 0, max: 3000 }),
            tool: fc.constantFrom("read", "grep", "todo"),
            branch: fc.nat(40),
            parallel: fc.boolean(),
          }),
          { minLength: 5, maxLength: 30 },
        ),
        fc.record({
          keepNewest: fc.integer({ min: 0, max: 5 }),
          atLeast: fc.integer({ min: 0, max: 4000 }),
          inputs: fc.boolean(),
          exclude: fc.constantFrom([], ["todo"]),
          trigger: fc.constantFrom({ tokens: 0 }, { tokens: 3000 }, { fraction: 0.05 }),
        }),
        fc.constantFrom(1200, 4000, 16000),
        async (steps, clear, window) => {
          const model = {
            name: `agent-${window}`,
            contextWindow: window,
            sizeClass: "small" as const,
            tokensPerChar: 0.25,
            encoding: "o200k_base" as const,
          };
          const runs = [];
          for (const engine of ENGINES) {
            const loom = await Loom.open({ engine, toolResults: { clear } });
            const chat = await loom.user("u").create({ model, system: "Fix the bug." });
            await chat.append({ role: "user", content: "The test fails." });
            const out: unknown[] = [];
            const made: number[] = [];
            for (const [n, s] of steps.entries()) {
              if (s.branch < 3 && made.length > 2) await chat.checkout(made[s.branch % made.length]!);
              const calls = s.parallel ? [call(`p${n}a`, s.tool), call(`p${n}b`, s.tool)] : [call("call_1", s.tool)];
              await chat.append({ role: "assistant", content: "", toolCalls: calls });
              let last = -1;
              for (const c of calls)
                last = (await chat.append({ role: "tool", toolCallId: c.id, content: `out${n} `.repeat(s.words) })).id;
              made.push(last); // a unit's end: a checkout there can go on
              const ctx = await chat.buildContext();
              expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
              expect(ctx.usage.total).toBe(countTokens(ctx.messages as never, { model }));
              // The unit the model is about to read is sent.
              expect(ctx.conversation.at(-1)!.id).toBe(chat.head);
              out.push({
                messages: ctx.messages,
                cleared: ctx.cleared,
                truncated: ctx.truncated,
                usage: ctx.usage,
                evicted: ctx.evicted,
              });
            }
            runs.push(out);
            await loom.close();
          }
          expect(runs[1]).toEqual(runs[0]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
