// Issue 34, items 1 and 2 around the Loom: a memory written by one Loom is in the next context of
// another on the same database; memoryScope at Loom, chat and call, checked; a store that keeps
// no memory; a store failing its read; a user's memory erased with Store.deleteMemory(userId).
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";

const file = tempFolder("memory-loom");

forEachEngine((engine) => {
  it("a write by one Loom is in the next context another Loom builds on the same file", async () => {
    const path = file("shared.db");
    const [a, b] = [
      await Loom.open({ engine, store: sqliteStore(path) }),
      await Loom.open({ engine, store: sqliteStore(path) }),
    ];
    const chat = await b.user("ann").create({ id: "c" });
    await chat.append({ role: "user", content: "hi" });
    expect((await chat.buildContext()).memoryRevision).toEqual({ scope: "user", revision: 0, omitted: 0 });
    await a.user("ann").memory.write({ path: "notes.md", text: "Speaks Portuguese.", revision: 0 });
    const ctx = await chat.buildContext();
    expect([ctx.memoryRevision?.revision, ctx.memory.includes("Speaks Portuguese.")]).toEqual([1, true]);
    await (await a.user("ann").open("c")).memory.write({
      path: "notes.md",
      text: "Speaks Portuguese and Spanish.",
      revision: 1,
      by: "model",
    });
    expect((await chat.buildContext()).memory).toMatch(/and Spanish/);
    await Promise.all([a.close(), b.close()]);
  });
});

describe("a memory deleted and written again", () => {
  it("to the revision a Loom held of the old one: the Loom's next context carries the new one, never the old", async () => {
    const path = file("again.db");
    const [a, b] = [await Loom.open({ store: sqliteStore(path) }), await Loom.open({ store: sqliteStore(path) })];
    const chat = await b.user("ann").create();
    await chat.append({ role: "user", content: "hi" });
    await a.user("ann").memory.write({ path: "notes.md", text: "the old memory", revision: 0 });
    expect((await chat.buildContext()).memory).toMatch(/the old memory/); // b holds revision 1
    const [old] = await a.user("ann").memory.history();
    // Another process erases the user's memory, and one is written again: revision 1 again, a later time.
    const store = sqliteStore(path);
    await store.deleteMemory!("ann");
    await store.writeMemory!({
      userId: "ann",
      chatId: null,
      expected: 0,
      records: [{ ...old!, content: "the new memory", at: old!.at + 1 }],
    });
    await store.close();
    const ctx = await chat.buildContext();
    expect([
      ctx.memoryRevision?.revision,
      /the new memory/.test(ctx.memory),
      /the old memory/.test(ctx.memory),
    ]).toEqual([1, true, false]);
    await Promise.all([a.close(), b.close()]);
  });
});

describe("memoryScope", () => {
  it("at Loom.open, create and buildContext, the nearest winning; bad values refused, nothing changed", async () => {
    const loom = await Loom.open({ memoryScope: "none" });
    const chats = loom.user("ann");
    await chats.memory.write({ path: "notes.md", text: "likes tea", revision: 0 });
    const off = await chats.create({ id: "off" });
    const on = await chats.create({ id: "on", memoryScope: "user" });
    for (const c of [off, on]) await c.append({ role: "user", content: "hi" });
    expect((await off.buildContext()).memoryRevision).toBeNull();
    expect((await on.buildContext()).memoryRevision).toEqual({ scope: "user", revision: 1, omitted: 0 });
    expect((await off.buildContext({ memoryScope: "user" })).memoryRevision?.revision).toBe(1);
    expect(on.export().chat.options).toEqual({ memoryScope: "user" });
    await expect(Loom.open({ memoryScope: "all" as never })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expectRejectCode(() => chats.create({ memoryScope: 1 as never }), "INVALID_ARGUMENT");
    await expectRejectCode(() => on.buildContext({ memoryScope: "everyone" as never }), "INVALID_ARGUMENT");
    expect((await chats.list()).map((c) => c.id).sort()).toEqual(["off", "on"]);
    await loom.close();
  });
});

describe("stores", () => {
  it("a store that keeps no memory: contexts carry none, and a memory says why it cannot be used", async () => {
    const inner = memoryStore();
    const { loadMemory, loadMemoryHistory, writeMemory, deleteMemory, ...rest } = inner;
    const store = { ...rest, name: "mine" } as Store;
    expect([loadMemory, loadMemoryHistory, writeMemory, deleteMemory].every((f) => typeof f === "function")).toBe(true);
    const loom = await Loom.open({ store });
    const chat = await loom.user("ann").create();
    await chat.append({ role: "user", content: "hi" });
    expect((await chat.buildContext()).memoryRevision).toBeNull();
    await expect(loom.user("ann").memory.read()).rejects.toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/mine keeps no memory/) }),
    );
    await loom.close();
  });

  it("a store failing to read the memory fails the build with STORE_FAILED; the chat is as it was", async () => {
    const store = memoryStore();
    let fail = false;
    const loadMemory = store.loadMemory!;
    store.loadMemory = (...args) => {
      if (fail) throw new Error("disk on fire");
      return loadMemory(...args);
    };
    const loom = await Loom.open({ store });
    const chat = await loom.user("ann").create();
    await chat.append({ role: "user", content: "hi" });
    fail = true;
    await expectRejectCode(() => chat.buildContext(), "STORE_FAILED");
    fail = false;
    expect((await chat.buildContext()).conversation.map((m) => m.content)).toEqual(["hi"]);
    await loom.close();
  });

  it("a user's memories, their own and their chats', erased with Store.deleteMemory(userId)", async () => {
    const store = sqliteStore(file("erase.db"));
    const loom = await Loom.open({ store });
    const chats = loom.user("ann");
    const own = await chats.create({ id: "own", memoryScope: "chat" });
    await chats.memory.write({ path: "notes.md", text: "a secret only ann knows", revision: 0 });
    await own.memory.write({ path: "plan.md", text: "another secret", revision: 0 });
    await loom.user("eve").memory.write({ path: "notes.md", text: "eve's", revision: 0 });
    expect(await store.deleteMemory!("ann")).toBe(true);
    expect([
      (await chats.memory.read()).revision,
      (await own.memory.read()).revision,
      (await loom.user("eve").memory.read()).revision,
    ]).toEqual([0, 0, 1]);
    // The SQLite store erases the old bytes as a delete does: no byte of the texts in the file.
    await loom.close();
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(store.path).toString("latin1");
    expect([bytes.includes("a secret only ann knows"), bytes.includes("another secret")]).toEqual([false, false]);
  });
});
