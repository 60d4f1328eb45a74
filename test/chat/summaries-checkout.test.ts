// A checkout into a summarized run (issue 21, item 1), on both engines: the newest user turn of
// the branch is never sent only inside a summary, nor left out with it. A summary applies to a
// branch only above its newest user turn; the build forces that turn or fails with
// MESSAGE_TOO_LARGE. Fixed cases, the planner's runs on such a branch, and a property test that
// checks out into summarized runs at random.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Loom, type Chat, type ContextWindow, type Message, type ModelProfile } from "../../src/index.js";
import { ENGINES, expectRejectCode, forEachEngine } from "../helpers.js";
import { SMALL, summaryIds, talk } from "./summaries-helpers.js";

const model = (contextWindow: number): ModelProfile => ({
  name: `window-${contextWindow}`,
  contextWindow,
  sizeClass: "tiny",
  tokensPerChar: 0.25,
});

async function summarized(engine: "wasm" | "js", summarizer?: () => string) {
  const loom = await Loom.open({ engine, ...(summarizer ? { summaries: { summarizer } } : {}) });
  const chat = await loom.user("u").create({ model: SMALL });
  await talk(chat, 60);
  const ctx = await chat.buildContext({ summaries: { select: { keepLast: 6 } } });
  const s = ctx.conversation.find((m) => m.kind === "summary")!;
  expect(s.covers).toEqual({ first: 0, last: 113 }); // 113 answers 112, both inside
  return { chat, s };
}

/** The guarantee: the branch's newest user turn is sent as itself, and no summary sent holds it or a message after it. */
function expectTurnKept(chat: Chat, ctx: ContextWindow): void {
  const path = chat.path();
  const at = new Map(path.map((m, i) => [m.id, i]));
  const user = path.map((m) => m.role).lastIndexOf("user");
  if (user < 0) return;
  expect(
    ctx.conversation.map((m) => m.id),
    `newest user turn ${path[user]!.id} not sent`,
  ).toContain(path[user]!.id);
  for (const m of ctx.conversation) {
    if (m.kind === "summary")
      expect(at.get(m.covers!.last)!, `summary ${m.id} holds the turn or what follows it`).toBeLessThan(user);
  }
}

const roles = (ctx: ContextWindow) => ctx.messages.map((m) => (m as { role: string }).role);

forEachEngine((engine) => {
  describe("a checkout into a summarized run", () => {
    it("at the run's last: the turn is sent as originals, not inside the summary", async () => {
      const { chat, s } = await summarized(engine);
      await chat.checkout(113);
      const ctx = await chat.buildContext();
      expect(ctx.compressed).toBe(false);
      expectTurnKept(chat, ctx);
      expect(ctx.messages.at(-2)).toEqual({ role: "user", content: chat.get(112).content });
      expect(ctx.messages.at(-1)).toEqual({ role: "assistant", content: chat.get(113).content });
      expect(ctx.conversation.map((m) => m.id)).not.toContain(s.id);
    });

    it("an answer below it, then a model too small for the summary: the user turn stays, or the build fails", async () => {
      const { chat } = await summarized(engine);
      await chat.checkout(113);
      const answer = await chat.append({ role: "assistant", content: "One more thing about topic 56." });
      const ctx = await chat.buildContext();
      expectTurnKept(chat, ctx);
      expect(ctx.conversation.slice(-3).map((m) => m.id)).toEqual([112, 113, answer.id]);
      for (const window of [200, 120, 80, 60]) {
        const small = await chat.buildContext({ model: model(window) });
        expectTurnKept(chat, small);
        expect(roles(small)).toContain("user"); // never just the assistant's answer
      }
      // too small for the user turn itself: refused, never sent without it
      await expectRejectCode(() => chat.buildContext({ model: model(20) }), "MESSAGE_TOO_LARGE");
    });

    it("a new user turn below the run: the summary applies again", async () => {
      const { chat, s } = await summarized(engine);
      await chat.checkout(113);
      await chat.append({ role: "assistant", content: "One more thing about topic 56." });
      const ask = await chat.append({ role: "user", content: "And topic 57?" });
      const ctx = await chat.buildContext();
      expect(ctx.compressed).toBe(true);
      expect(ctx.conversation[0]!.id).toBe(s.id);
      expect(ctx.conversation.at(-1)!.id).toBe(ask.id);
      expectTurnKept(chat, ctx);
    });

    it("on such a branch the planner never runs the summarizer for a run the summary would refuse", async () => {
      let calls = 0;
      const { chat } = await summarized(engine, () => {
        calls++;
        return "A summary.";
      });
      expect(calls).toBe(1);
      await chat.checkout(113);
      for (let i = 0; i < 12; i++)
        await chat.append({ role: "assistant", content: `Step ${i} of the answer to topic 56, in a few more words.` });
      for (let i = 0; i < 3; i++) {
        const ctx = await chat.buildContext({ summaries: { select: { keepLast: 4 } } });
        expectTurnKept(chat, ctx);
        expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      }
      // the summary over 0..113 starts at the root: nothing above the turn can be summarized apart from it
      expect(calls).toBe(1);
      expect(summaryIds(chat)).toHaveLength(1);
    });
  });
});

// ---- property: checkouts into summarized runs at random, both engines ----

type Op =
  | { kind: "talk"; turns: number }
  | { kind: "summarize"; keepLast: number }
  | { kind: "into"; pick: number; at: number }
  | { kind: "append"; role: "user" | "assistant" | "tool" }
  | { kind: "build"; window: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("talk" as const), turns: fc.integer({ min: 1, max: 12 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("summarize" as const), keepLast: fc.integer({ min: 0, max: 8 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("into" as const), pick: fc.nat(), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("append" as const),
      role: fc.constantFrom("user" as const, "assistant" as const, "tool" as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("build" as const),
      window: fc.constantFrom(0, 2_000, 400, 200, 120, 80, 50),
    }),
  },
);

const SEED = Number(process.env.CTXLOOM_SEED ?? Date.now() % 2 ** 31);
console.log(`summaries-checkout.test.ts: seed ${SEED} (CTXLOOM_SEED=${SEED} repeats this run)`);

/** Whether a summary's run ends on the branch at or after its newest user message: one that must not apply to the head. */
function hiding(chat: Chat): boolean {
  const path = chat.path();
  const at = new Map(path.map((m, i) => [m.id, i]));
  const user = path.map((m) => m.role).lastIndexOf("user");
  return user >= 0 && summaryIds(chat).some((id) => (at.get(chat.get(id).covers!.last) ?? -1) >= user);
}

/** Applies one operation; returns what it observed, or the error code it threw. Counts the builds whose head a summary on the branch would have hidden. */
async function apply(chat: Chat, o: Op, step: number, seen: { hiding: number }): Promise<unknown> {
  try {
    switch (o.kind) {
      case "talk":
        await talk(chat, o.turns, step * 100);
        return chat.head;
      case "summarize": {
        const ctx = await chat.buildContext({ summaries: { select: { keepLast: o.keepLast } } });
        expectTurnKept(chat, ctx);
        return ctx.messages;
      }
      case "into": {
        // a random summary's run: its last message (one time in two), or any of its originals
        const summaries = summaryIds(chat);
        if (summaries.length === 0) return "none";
        const { first, last } = chat.get(summaries[o.pick % summaries.length]!).covers!;
        const run: Message[] = [];
        for (const m of chat.path(last).reverse()) {
          run.push(m);
          if (m.id === first) break;
        }
        const to = o.at % 2 === 0 ? last : run[o.at % run.length]!.id;
        await chat.checkout(to);
        return to;
      }
      case "append": {
        if (o.role !== "tool")
          return (await chat.append({ role: o.role, content: `A ${o.role} message at step ${step}, in some words.` }))
            .id;
        const id = `call_${step}`;
        await chat.append({
          role: "assistant",
          content: "",
          toolCalls: [{ id, type: "function", function: { name: "look", arguments: `{"step":${step}}` } }],
        });
        return (await chat.append({ role: "tool", content: `Found ${step} things.`, toolCallId: id })).id;
      }
      case "build": {
        if (hiding(chat)) seen.hiding++;
        const ctx = await chat.buildContext(o.window ? { model: model(o.window) } : {});
        expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
        expectTurnKept(chat, ctx);
        return { messages: ctx.messages, usage: ctx.usage, evicted: ctx.evicted };
      }
    }
  } catch (error) {
    // Refusals both engines must give alike: a build too large, and an append under a checked
    // out assistant message whose tool calls have no result on this branch.
    const code = (error as { code?: string }).code;
    if (code !== "MESSAGE_TOO_LARGE" && code !== "OPEN_TOOL_CALLS") throw error;
    return { error: code };
  }
}

describe("checkouts into summarized runs at random: both engines agree, and the newest user turn is kept or the build fails", () => {
  it("holds on every build", async () => {
    const seen = { hiding: 0, builds: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 40 }), async (ops) => {
        const chats = await Promise.all(
          ENGINES.map(async (engine) => (await Loom.open({ engine })).user("u").create({ model: SMALL })),
        );
        for (const chat of chats) {
          await talk(chat, 60);
          await chat.buildContext({ summaries: true }); // a first summary to check out into
        }
        for (let step = 0; step < ops.length; step++) {
          const [a, b] = [
            await apply(chats[0]!, ops[step]!, step, seen),
            await apply(chats[1]!, ops[step]!, step, { hiding: 0 }),
          ];
          expect(b).toEqual(a);
          if (ops[step]!.kind === "build") seen.builds++;
        }
        expect(chats[1]!.path().map((m) => m.id)).toEqual(chats[0]!.path().map((m) => m.id));
      }),
      { seed: SEED, numRuns: 100 },
    );
    // many builds were from a head whose turn (or what follows it) a summary on its branch holds
    expect(seen.hiding, JSON.stringify(seen)).toBeGreaterThan(50);
  }, 240_000);
});
