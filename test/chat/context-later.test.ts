// A context's conversation, made when first read, is what the build selected: the same after
// later appends, and after its chat was evicted from memory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { forEachEngine } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ctxloom-context-later-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

forEachEngine((engine) => {
  it("reads the selected messages later, after appends and after its chat was evicted", async () => {
    const loom = await Loom.open({ engine, store: sqliteStore(join(dir, `${engine}.db`)), maxOpenChats: 1 });
    // A gate on the eviction: it runs on the chat's queue, after the call that caused it returned.
    const impl = loom.engineImpl;
    const drop = impl.dropTree.bind(impl);
    let dropped!: () => void;
    const evicted = new Promise<void>((resolve) => (dropped = resolve));
    impl.dropTree = (tree: number) => (drop(tree), dropped());
    const chats = loom.user("u");
    const a = await chats.create();
    await a.append({ role: "user", content: "Grüße 👋, what is the ferry to Cacilhas?" });
    await a.append({ role: "assistant", content: "It leaves from Cais do Sodré every 20 minutes.", priority: "low" });
    await a.append({ role: "user", content: "And the last one?" });
    const ctx = await a.buildContext();
    const expected = a.path();
    await a.append({ role: "assistant", content: "Around 1:40 at night." });
    await chats.create(); // past maxOpenChats: chat a is evicted
    await evicted;
    expect(() => a.path()).toThrow(expect.objectContaining({ code: "CHAT_UNLOADED" }));
    expect(ctx.conversation).toEqual(expected);
    expect(ctx.messages.slice(0, 3).map((m) => m.content)).toEqual(expected.map((m) => m.content));
    const copy = structuredClone(ctx);
    expect(copy.conversation).toEqual(expected);
    // A plain object to every copy: the conversation is an own field, in its place.
    expect({ ...ctx }.conversation).toEqual(expected);
    expect(JSON.parse(JSON.stringify(ctx)).conversation).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(Object.keys(ctx)).toEqual([
      "memory",
      "memoryRevision",
      "input",
      "usage",
      "pressure",
      "conversation",
      "recalled",
      "recallDegraded",
      "evicted",
      "cleared",
      "truncated",
      "compressed",
      "summary",
      "model",
      "budget",
      "format",
      "messages",
      "system",
    ]);
    ctx.conversation = [];
    expect(ctx.conversation).toEqual([]);
    await loom.close();
  });
});

forEachEngine((engine) => {
  it("the OpenAI messages sent straight from the chat are what formatting its conversation gives", async () => {
    const { toOpenAI } = await import("../../src/context/format.js");
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ system: "Be brief." });
    await chat.append({
      role: "user",
      name: "ana",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", image: "https://example.com/cat.png", detail: "low" },
      ],
    });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "look", arguments: '{"x":1}' } }],
    });
    await chat.append({ role: "tool", toolCallId: "c1", content: "a cat on a mat" });
    await chat.append({ role: "assistant", content: "A cat, on a mat.", priority: "low" });
    await chat.append({ role: "system", content: "Answer in French from now on." });
    await chat.append({ role: "user", content: "Merci 😀" });
    const ctx = await chat.buildContext();
    expect(ctx.messages).toEqual([
      { role: "system", content: "Be brief." },
      ...ctx.conversation.map((m) => toOpenAI(m)),
    ]);
    expect(ctx.conversation).toEqual(chat.path());
    await loom.close();
  });
});

forEachEngine((engine) => {
  it("stats() gives the last build's usage, tools or not, and a copy the next build leaves alone", async () => {
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ system: "Be brief." });
    await chat.append({ role: "user", content: "What is the ferry to Cacilhas?" });
    const tools = [
      {
        type: "function" as const,
        function: { name: "timetable", description: "Ferry times", parameters: { type: "object", properties: {} } },
      },
    ];
    const plain = await chat.buildContext();
    const first = chat.stats().lastUsage;
    expect(first).toEqual(plain.usage);
    const withTools = await chat.buildContext({ tools });
    expect(withTools.usage.tools).toBeGreaterThan(0);
    expect(chat.stats().lastUsage).toEqual(withTools.usage);
    await chat.append({ role: "assistant", content: "Every 20 minutes from Cais do Sodré." });
    await chat.append({ role: "user", content: "And the last one?" });
    const again = await chat.buildContext();
    expect(chat.stats().lastUsage).toEqual(again.usage);
    expect(chat.stats().lastUsage).not.toHaveProperty("tools");
    expect(first).toEqual(plain.usage); // the copy handed out earlier did not change
    expect(again.usage.total).toBeGreaterThan(plain.usage.total);
    await loom.close();
  });
});
