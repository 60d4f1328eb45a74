// A long context in the OpenAI format hands out again, frozen, the objects of the chat's previous
// long context for the messages both send; what it sends is always what formatting its
// conversation gives: after appends, a branch, a summary, a redaction and on SQLite's columns.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Loom, type Chat, type ContextWindow } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { toOpenAI } from "../../src/context/format.js";
import { presentSummary } from "../../src/summary/present.js";
import { SHARED_FROM } from "../../src/chat/sent-cache.js";
import { forEachEngine } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ctxloom-sent-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the context must send: its conversation formatted anew (summaries as the chat presents them). */
function expected(ctx: ContextWindow, presentation: "system" | "tool" = "system"): unknown[] {
  const out: unknown[] = [];
  if (ctx.system) out.push({ role: "system", content: ctx.system });
  if (ctx.memory) out.push({ role: "system", content: ctx.memory });
  for (const m of ctx.conversation) {
    if (m.kind === "summary") out.push(...presentSummary(m.id, m.content, presentation).map(toOpenAI));
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
  it("shares the objects of the previous long context, frozen, and sends what its conversation says", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ system: "Be brief." });
    await fill(chat, 0, SHARED_FROM + 40);
    const a = await chat.buildContext();
    expect(a.messages).toEqual(expected(a));
    expect(a.conversation.length).toBeGreaterThanOrEqual(SHARED_FROM);
    const last = a.messages[a.messages.length - 1]!;
    expect(Object.isFrozen(last)).toBe(true);
    expect(() => {
      (last as { content: string }).content = "changed";
    }).toThrow(TypeError);

    await fill(chat, SHARED_FROM + 40, 2);
    const b = await chat.buildContext({ input: "and now?" });
    expect(b.messages).toEqual(expected(b));
    // The messages both send are the same objects; the array is each context's own.
    expect(b.messages).not.toBe(a.messages);
    expect(b.messages[1]).toBe(a.messages[1]);
    b.messages.push({ role: "user", content: "mine" });
    const c = await chat.buildContext();
    expect(c.messages).toEqual(expected(c));
    await loom.close();
  });

  it("a short context is made anew each time, and nothing of it is frozen", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create();
    await fill(chat, 0, 10);
    const a = await chat.buildContext();
    const b = await chat.buildContext();
    expect(b.messages[0]).not.toBe(a.messages[0]);
    expect(Object.isFrozen(a.messages[0])).toBe(false);
    await loom.close();
  });

  it("sends the right messages after a branch, a summary and a redaction (memory and SQLite)", async () => {
    for (const store of [undefined, sqliteStore(join(dir, `${engine}.db`))]) {
      const loom = await Loom.open({ engine, ...(store ? { store } : {}) });
      const chat = await loom.user("u").create({ system: "Be brief." });
      await fill(chat, 0, SHARED_FROM + 60);
      const check = async () => {
        const ctx = await chat.buildContext();
        expect(ctx.messages).toEqual(expected(ctx));
        return ctx;
      };
      const first = await check();
      // A branch from an older message: another path, partly shared.
      const fork = first.conversation[100]!.id;
      await chat.checkout(fork);
      await fill(chat, 1_000, 3);
      await check();
      // Back to the first branch's head.
      await chat.checkout(first.conversation[first.conversation.length - 1]!.id);
      await check();
      // A summary of the oldest messages sent: one entry stands for them.
      const once = await chat.buildContext({
        summaries: { trigger: { tokens: 100 }, select: { keepLast: SHARED_FROM + 20 } },
      });
      expect(once.messages).toEqual(expected(once));
      const summarized = await check();
      expect(summarized.conversation.length).toBeGreaterThan(SHARED_FROM);
      expect(summarized.summary).not.toBeNull();
      expect(summarized.messages[1]!.content).toContain("Summary of the earlier conversation");
      // A redaction: the message's new text is sent, not the object made before.
      const target = summarized.conversation[summarized.conversation.length - 5]!;
      await chat.redact(target.id);
      const after = await check(); // (its messages are its conversation's: the redacted text)
      expect(after.conversation.find((m) => m.id === target.id)!.content).not.toBe(target.content);
      await loom.close();
    }
  });

  it("summaries presented as a tool call and its result take two messages each, short and long contexts alike", async () => {
    for (const n of [40, SHARED_FROM + 40]) {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ summaries: { presentation: "tool" } });
      await fill(chat, 0, n);
      const once = await chat.buildContext({ summaries: { trigger: { tokens: 100 }, select: { keepLast: n - 20 } } });
      expect(once.summary).not.toBeNull();
      expect(once.messages).toEqual(expected(once, "tool"));
      const again = await chat.buildContext();
      expect(again.messages).toEqual(expected(again, "tool"));
      expect(again.messages.length).toBe(again.conversation.length + 1);
      await loom.close();
    }
  });

  it("a long context with names, parts and tool calls: frozen whole, and what the next builds send stays right", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create();
    for (let i = 0; i < SHARED_FROM / 4 + 10; i++) {
      await chat.append({
        role: "user",
        name: "ana",
        content: [
          { type: "text", text: `What is in picture ${i}?` },
          { type: "image", image: `https://example.com/${i}.png`, detail: "low" },
        ],
      });
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [{ id: `c${i}`, type: "function", function: { name: "look", arguments: `{"i":${i}}` } }],
      });
      await chat.append({ role: "tool", toolCallId: `c${i}`, content: `a cat, number ${i}` });
      await chat.append({ role: "assistant", content: `Cat ${i}.` });
    }
    const a = await chat.buildContext();
    expect(a.messages).toEqual(expected(a));
    expect(a.messages.length).toBeGreaterThan(SHARED_FROM);
    const call = a.messages.find((m) => "tool_calls" in m) as { tool_calls: { function: { arguments: string } }[] };
    expect(Object.isFrozen(call.tool_calls[0]!.function)).toBe(true);
    const picture = a.messages.find((m) => Array.isArray(m.content)) as { content: unknown[] };
    expect(Object.isFrozen(picture.content[1])).toBe(true);
    await chat.append({ role: "user", content: "And the last one?" });
    const b = await chat.buildContext();
    expect(b.messages).toEqual(expected(b));
    expect(b.messages).toContain(call);
    // What the chat hands out is a copy: the messages it holds are as they were appended.
    expect(chat.get(1).toolCalls![0]!.function.arguments).toBe('{"i":0}');
    await loom.close();
  });
});
