// Issue 33, item 3: the built-in stores' fast paths are off the public Store type, under a symbol
// (src/store/internal.ts). A store of a user's that happens to have a member of the name the Loom
// once looked for (`resident`) is a plain Store: its appends carry keys, its chats are unloaded.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { columnsOf, internalsOf } from "../../src/store/internal.js";
import { withoutFastPaths } from "../helpers.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("internal");

describe("fast paths under a symbol, not on Store", () => {
  it("a store of its own with a member named resident gets append keys, as every store outside the process (the Loom once took it for the memory store: no keys)", async () => {
    const inner = memoryStore();
    const keys: (string | undefined)[] = [];
    const store = {
      ...inner,
      ...withoutFastPaths,
      resident: (userId: string, chatId: string) => ({ userId, chatId }),
      appendMessage: (...args: Parameters<Store["appendMessage"]>) => {
        keys.push(args[0].key);
        return inner.appendMessage(...args);
      },
    } as Store;
    const loom = await Loom.open({ store, counter: "heuristic" });
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "hi" });
    expect(keys).toHaveLength(1);
    expect(typeof keys[0]).toBe("string");
    await loom.close();
  });

  it("the memory store has its fast path (no keys: it answers every append); its wrapper spread from it keeps it", async () => {
    expect(internalsOf(memoryStore())).toBeDefined();
    expect(internalsOf({ ...memoryStore() })).toBeDefined();
    expect(Object.keys(memoryStore())).not.toContain("resident");
    const inner = memoryStore();
    const keys: (string | undefined)[] = [];
    const store: Store = {
      ...inner,
      appendMessage: (...args) => (keys.push(args[0].key), inner.appendMessage(...args)),
    };
    const loom = await Loom.open({ store, counter: "heuristic" });
    await (await loom.user("u").create()).append({ role: "user", content: "hi" });
    expect(keys).toEqual([undefined]);
    await loom.close();
  });

  it("a SQL store's columns ride under a symbol: loadChat's answer has only chat and messages", async () => {
    const store = sqliteStore(file("columns.db"));
    await store.createChat({
      id: "c",
      userId: "u",
      title: "",
      model: "gpt-4o",
      system: null,
      createdAt: 1,
      updatedAt: 1,
      messageCount: 0,
      head: null,
      options: {},
    });
    const loaded = (await store.loadChat("u", "c"))!;
    expect(Object.keys(loaded).sort()).toEqual(["chat", "messages"]);
    expect(columnsOf(loaded)).toBeDefined();
    expect(columnsOf({ chat: loaded.chat, messages: [] })).toBeUndefined();
    await store.close();
  });
});
