// A user's list of chats (seed 000's UsuarioChat) and reopening chats from a store, on both engines.
import { expect, it } from "vitest";
import { Loom, countTokens, memoryStore, type Chat, type ToolCall } from "../../src/index.js";
import { converse, forEachEngine, ids, setup } from "../helpers.js";

/** Everything a chat shows, for comparing a chat with its reopened copy. */
function dump(chat: Chat) {
  const all = Array.from({ length: chat.messageCount }, (_, i) => chat.get(i));
  return {
    head: chat.head,
    messageCount: chat.messageCount,
    title: chat.title,
    model: chat.model,
    system: chat.system,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    all,
    path: chat.path(),
    window: chat.window({ maxMessages: 3 }),
    leaves: chat.leaves(),
    roots: chat.roots(),
    children: all.map((m) => chat.children(m.id)),
    paths: chat.leaves().map((leaf) => chat.path(leaf)),
  };
}

/** A chat with branches, a named message and a tool call. */
async function richChat(chat: Chat): Promise<void> {
  await chat.append({ role: "system", content: "sys" });
  await converse(chat, 3);
  await chat.regenerate(4);
  await chat.append({ role: "assistant", content: "alt", priority: "low" });
  await chat.edit(3, "edited");
  await chat.append({ role: "user", content: "named", name: "bob", priority: "high" });
  const calls: ToolCall[] = [
    { id: "k1", type: "function", function: { name: "f", arguments: "{}" } },
    { id: "k2", type: "function", function: { name: "g", arguments: '{"x":1}' } },
  ];
  await chat.append({ role: "assistant", content: "", toolCalls: calls });
  await chat.append({ role: "tool", content: "r1", toolCallId: "k1" });
  await chat.checkout(4); // the head is not a leaf
}

forEachEngine((engine) => {
  it("create / list / open / delete on the user's list", async () => {
    const { loom, chats, chat } = await setup(engine);
    const b = await chats.create({ title: "second", model: "llama3.2" });
    await new Promise((r) => setTimeout(r, 3)); // so that b's updatedAt is strictly newer
    await converse(b, 2);
    let list = await chats.list();
    expect(list.map((c) => c.id).sort()).toEqual([chat.id, b.id].sort());
    const entry = list.find((c) => c.id === b.id)!;
    expect(entry).toEqual({
      id: b.id,
      title: "second",
      model: "llama3.2",
      createdAt: b.createdAt,
      updatedAt: b.updatedAt,
      messageCount: 4,
    });
    expect(list[0]!.id).toBe(b.id); // most recently updated first
    expect(list.find((c) => c.id === chat.id)!.messageCount).toBe(0);
    expect(await chats.open(b.id)).toBe(b); // kept in memory: the same object
    await chats.delete(chat.id);
    list = await chats.list();
    expect(list.map((c) => c.id)).toEqual([b.id]);
    await chats.delete(b.id);
    expect(await chats.list()).toEqual([]);
    await loom.close();
  });

  it("list is per user; user() is cheap and returns the same chats", async () => {
    const { loom, chats, chat } = await setup(engine);
    const bob = loom.user("bob");
    const bc = await bob.create({ title: "bob's" });
    expect((await chats.list()).map((c) => c.id)).toEqual([chat.id]);
    expect((await bob.list()).map((c) => c.id)).toEqual([bc.id]);
    expect(await loom.user("alice").open(chat.id)).toBe(chat);
    expect(loom.user("alice").userId).toBe("alice");
    await loom.close();
  });

  it("a chat created in one Loom reopens in another sharing the store with identical paths", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chat = await a.user("alice").create({ title: "T", model: "gpt-4o-mini", system: "S" });
    await richChat(chat);
    const before = dump(chat);

    const b = await Loom.open({ engine, store });
    const reopened = await b.user("alice").open(chat.id);
    expect(reopened).not.toBe(chat);
    expect(dump(reopened)).toEqual(before);
    // it keeps working: pending tool call k2 is still answerable after the reload
    await reopened.checkout(before.all.length - 1);
    const r2 = await reopened.append({ role: "tool", content: "r2", toolCallId: "k2" });
    expect(r2.id).toBe(before.messageCount);
    expect(r2.parentId).toBe(before.messageCount - 1);
    await expect(reopened.append({ role: "tool", content: "again", toolCallId: "k1" })).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
    });
    await a.close();
    await b.close();
  });

  it("reopening across engines gives the same chat (the store is engine-neutral)", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chat = await a.user("alice").create();
    await richChat(chat);
    const other = engine === "wasm" ? "js" : "wasm";
    const b = await Loom.open({ engine: other, store });
    expect(dump(await b.user("alice").open(chat.id))).toEqual(dump(chat));
    await a.close();
    await b.close();
  });

  it("a reopened empty chat has no head; a head-less reopen after regenerate of a root", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chats = a.user("alice");
    const empty = await chats.create();
    const rootless = await chats.create();
    const g = await rootless.append({ role: "assistant", content: "hello" });
    await rootless.regenerate(g.id);
    const b = await Loom.open({ engine, store });
    const e2 = await b.user("alice").open(empty.id);
    expect(e2.head).toBeNull();
    expect(e2.path()).toEqual([]);
    const r2 = await b.user("alice").open(rootless.id);
    expect(r2.head).toBeNull();
    expect(r2.messageCount).toBe(1);
    expect((await r2.append({ role: "assistant", content: "hi" })).parentId).toBeNull();
    await a.close();
    await b.close();
  });

  it("changes called before close land in the store; a new Loom sees them", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chat = await a.user("alice").create();
    const pending = [0, 1, 2, 3].map((i) => chat.append({ role: i % 2 ? "assistant" : "user", content: `m${i}` }));
    await a.close();
    expect(ids(await Promise.all(pending))).toEqual([0, 1, 2, 3]);
    const b = await Loom.open({ engine, store });
    const again = await b.user("alice").open(chat.id);
    expect(ids(again.path())).toEqual([0, 1, 2, 3]);
    await b.close();
  });

  it("delete waits for the changes called before it; the store forgets the chat", async () => {
    const store = memoryStore();
    const { loom, chats, chat } = await setup(engine, { store });
    const p = chat.append({ role: "user", content: "before delete" });
    const d = chats.delete(chat.id);
    expect((await p).id).toBe(0);
    await d;
    const other = await Loom.open({ engine, store });
    await expect(other.user("alice").open(chat.id)).rejects.toMatchObject({ code: "UNKNOWN_CHAT" });
    await other.close();
    await loom.close();
  });

  it("a chat deleted in another Loom is gone for open; delete of a chat not yet opened works", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chat = await a.user("alice").create();
    await converse(chat, 1);
    const b = await Loom.open({ engine, store });
    await b.user("alice").delete(chat.id);
    const c = await Loom.open({ engine, store });
    await expect(c.user("alice").open(chat.id)).rejects.toMatchObject({ code: "UNKNOWN_CHAT" });
    expect(await c.user("alice").list()).toEqual([]);
    await a.close();
    await b.close();
    await c.close();
  });

  it("concurrent opens of the same stored chat return one object", async () => {
    const store = memoryStore();
    const a = await Loom.open({ engine, store });
    const chat = await a.user("alice").create();
    await converse(chat, 2);
    const b = await Loom.open({ engine, store });
    const [x, y] = await Promise.all([b.user("alice").open(chat.id), b.user("alice").open(chat.id)]);
    expect(x).toBe(y);
    expect(ids(x.path())).toEqual([0, 1, 2, 3]);
    await a.close();
    await b.close();
  });

  it("a chat keeps its summary presentation: reopened by a Loom set otherwise, it sends its summaries as they were counted", async () => {
    const turn = (i: number) => [
      { role: "user" as const, content: `Question ${i} asks about topic ${i}. It adds a few more words.` },
      { role: "assistant" as const, content: `Answer ${i} settles topic ${i}. Then it explains a little.` },
    ];
    const settings = [
      [undefined, "tool"],
      ["system", "tool"],
      ["tool", "system"],
      ["tool", undefined],
    ] as const;
    let over = 0;
    for (const [first, second] of settings) {
      for (const contextWindow of [1000, 1250, 1500, 1750, 2000, 2500]) {
        const model = { name: `keep-${contextWindow}`, contextWindow, sizeClass: "tiny" as const, tokensPerChar: 0.25 };
        const store = { ...memoryStore(), close: () => {} }; // the second Loom reads the same memory
        const a = await Loom.open({
          engine,
          store,
          summaries: first ? { trigger: { fraction: 0.8 }, presentation: first } : true,
        });
        const chat = await a.user("u").create({ model });
        for (let i = 0; i < 60; i++) for (const m of turn(i)) await chat.append(m);
        expect((await chat.buildContext()).compressed).toBe(true);
        await a.close();
        const b = await Loom.open({ engine, store, ...(second ? { summaries: { presentation: second } } : {}) });
        const again = await b.user("u").open(chat.id);
        for (let i = 60; i < 120; i++) for (const m of turn(i)) await again.append(m); // the window is full again
        const ctx = await again.buildContext({
          summaries: false,
          input: "x ".repeat(Math.floor(contextWindow * 0.09)),
        });
        const sent = countTokens(ctx.messages, { model });
        const where = `${String(first)} then ${String(second)}, window ${contextWindow}`;
        expect(ctx.compressed, where).toBe(true);
        if (sent > ctx.usage.limit) over++;
        expect(ctx.usage.total, where).toBe(sent);
        expect(
          ctx.messages.some((m) => m.role === "tool"),
          where,
        ).toBe(first === "tool"); // sent as at its creation
        await b.close();
      }
    }
    expect(over).toBe(0);
  });

  it("loom.engine names the engine; close is idempotent", async () => {
    const { loom } = await setup(engine);
    expect(loom.engine).toBe(engine);
    expect(loom.engineImpl.kind).toBe(engine);
    await loom.close();
    await loom.close();
  });
});

it("Loom.open() defaults to the WASM engine", async () => {
  const loom = await Loom.open();
  expect(loom.engine).toBe("wasm");
  await loom.close();
});
