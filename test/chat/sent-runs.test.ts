// A context that sends a run of its chat's path (every message from its first to its last, no
// summary: a server's usual one) keeps no copy of its ids, and a long one takes the objects the
// chat's last long run sent in one copy (issue 38): what it sends is always its conversation
// formatted, whatever happened between two builds (appends, a window that grew or shrank, a
// branch, a checkout, a redaction, a summary).
import fc from "fast-check";
import { expect, it } from "vitest";
import { Loom, type Chat, type ContextWindow } from "../../src/index.js";
import { toOpenAI } from "../../src/context/format.js";
import { presentSummary } from "../../src/summary/present.js";
import { SHARED_FROM } from "../../src/chat/sent-cache.js";
import { forEachEngine } from "../helpers.js";

/** What the context must send: its conversation formatted anew. */
function expected(ctx: ContextWindow): unknown[] {
  const out: unknown[] = [];
  if (ctx.system) out.push({ role: "system", content: ctx.system });
  if (ctx.memory) out.push({ role: "system", content: ctx.memory });
  for (const m of ctx.conversation) {
    if (m.kind === "summary") out.push(...presentSummary(m.id, m.content, "system").map(toOpenAI));
    else out.push(toOpenAI(m));
  }
  if (ctx.input !== null) out.push({ role: "user", content: ctx.input });
  return out;
}

async function fill(chat: Chat, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    await chat.append({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `message ${i}: ${"word ".repeat(1 + (i % 7))}`,
    });
  }
}

forEachEngine((engine) => {
  it("a long run takes its last run's objects: the window sliding, repeated, grown and shrunk", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ system: "Be brief." });
    await fill(chat, 0, SHARED_FROM + 100);
    const a = await chat.buildContext({ maxMessages: SHARED_FROM + 10 });
    expect(a.messages).toEqual(expected(a));
    // The same run again: equal, each context with an array of its own.
    const again = await chat.buildContext({ maxMessages: SHARED_FROM + 10 });
    expect(again.messages).toEqual(a.messages);
    expect(again.messages).not.toBe(a.messages);
    again.messages.length = 3;
    expect((await chat.buildContext({ maxMessages: SHARED_FROM + 10 })).messages).toEqual(a.messages);
    // Two appends: the window slides by two; the messages both send are the same objects.
    await fill(chat, SHARED_FROM + 100, 2);
    const b = await chat.buildContext({ maxMessages: SHARED_FROM + 10 });
    expect(b.messages).toEqual(expected(b));
    expect(b.messages[1]).toBe(a.messages[3]);
    expect(b.messages[b.messages.length - 3]).toBe(a.messages[a.messages.length - 1]);
    // A longer window: it starts before the last run did, and ends where it did.
    const c = await chat.buildContext({ maxMessages: SHARED_FROM + 60 });
    expect(c.messages).toEqual(expected(c));
    expect(c.messages[c.messages.length - 1]).toBe(b.messages[b.messages.length - 1]);
    expect(c.messages[51]).toBe(b.messages[1]);
    // A shorter one.
    const d = await chat.buildContext({ maxMessages: SHARED_FROM });
    expect(d.messages).toEqual(expected(d));
    expect(d.messages[1]).toBe(c.messages[61]);
    await loom.close();
  });

  it("a run's conversation is the messages it sent, read whenever asked, whatever the chat did since", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create();
    for (const n of [20, SHARED_FROM + 20]) {
      await fill(chat, chat.stats().messages, n);
      const ctx = await chat.buildContext();
      const ids = chat.path().map((m) => m.id);
      await fill(chat, chat.stats().messages, 3); // the chat goes on; the context's conversation does not
      await chat.checkout(ids[5]!);
      expect(ctx.conversation.map((m) => m.id)).toEqual(ids);
      expect(ctx.messages).toEqual(expected(ctx));
      await chat.checkout(chat.leaves().at(-1)!);
    }
    await loom.close();
  });

  it("property: whatever comes between two builds, a context sends its conversation", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), n: fc.integer({ min: 1, max: 4 }) }),
      fc.record({
        kind: fc.constant("build" as const),
        max: fc.oneof(fc.constant(0), fc.integer({ min: SHARED_FROM - 20, max: SHARED_FROM + 80 })),
      }),
      fc.record({ kind: fc.constant("checkout" as const), back: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ kind: fc.constant("redact" as const), back: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant("priority" as const), back: fc.integer({ min: 1, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        const loom = await Loom.open({ engine, counter: "heuristic" });
        const chat = await loom.user("u").create({ system: "s" });
        await fill(chat, 0, SHARED_FROM + 30);
        let made = SHARED_FROM + 30;
        const held: ContextWindow[] = [];
        for (const o of ops) {
          const path = chat.path();
          if (o.kind === "append") {
            await fill(chat, made, o.n);
            made += o.n;
          } else if (o.kind === "checkout") {
            await chat.checkout(path[Math.max(0, path.length - 1 - o.back)]!.id);
          } else if (o.kind === "redact") {
            await chat.redact(path[Math.max(0, path.length - 1 - o.back)]!.id);
          } else if (o.kind === "priority") {
            // A low message inside the window: selections around it are no run once it must go.
            await chat.append({ role: "assistant", content: "low ".repeat(40), priority: "low" });
            await chat.append({ role: "user", content: `after ${made}` });
            made += 2;
          } else {
            const ctx = await chat.buildContext(o.max ? { maxMessages: o.max } : undefined);
            expect(ctx.messages).toEqual(expected(ctx));
            held.push(ctx);
          }
        }
        for (const ctx of held) expect(ctx.messages).toEqual(expected(ctx)); // (conversations read only now)
        await loom.close();
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

it("held contexts keep no copy of the ids they sent (4 bytes a message outside the heap each, before)", async () => {
  const loom = await Loom.open({ counter: "heuristic" });
  const chat = await loom.user("u").create();
  await fill(chat, 0, 400);
  await chat.buildContext();
  globalThis.gc?.();
  const before = process.memoryUsage().arrayBuffers;
  const held: ContextWindow[] = [];
  for (let i = 0; i < 1_000; i++) held.push(await chat.buildContext());
  const grew = process.memoryUsage().arrayBuffers - before;
  expect(held).toHaveLength(1_000);
  expect(grew).toBeLessThan(1_000 * 400); // a copy each: 1,000 x 1,600 bytes
  await loom.close();
});
