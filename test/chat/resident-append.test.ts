// A Loom's appends to the memory store itself (not a wrapper of it) take the store's resident
// path: the message the chat made lands in the store's columns with no lookup and no second
// check. Every guarantee of the Store path holds there: the store's record moves, a message
// handed back is the caller's, another writer's id is a conflict, a deleted chat is unknown, a
// replaced appendMessage is the one called, and a store failure is STORE_FAILED with nothing
// changed. On both engines.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type Message } from "../../src/index.js";
import { residentChat } from "../../src/store/memory.js";
import { expectRejectCode, forEachEngine, observe } from "../helpers.js";

const sharedOf = (c: Chat): Message[] => Array.from({ length: c.messageCount }, (_, i) => c.get(i));

forEachEngine((engine) => {
  describe("appends to the memory store's own chats", () => {
    it("the store's record and messages move as through appendMessage; the message returned is the caller's", async () => {
      const store = memoryStore();
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create({ system: "Be brief." });
      const first = await chat.append({ role: "user", content: "Hello?" });
      const second = await chat.append({ role: "assistant", content: "Hi.", name: "bot" });
      const loaded = await store.loadChat("u", chat.id);
      expect(loaded!.chat).toMatchObject({ head: 1, messageCount: 2, updatedAt: second.createdAt });
      expect(loaded!.messages).toEqual([first, second]);
      expect((await store.listChats("u"))[0]).toMatchObject({ id: chat.id, head: 1, messageCount: 2 });
      // Changing what append returned changes neither the chat nor the store.
      second.content = "changed";
      second.name = "other";
      expect(chat.get(1)).toMatchObject({ content: "Hi.", name: "bot" });
      expect((await store.loadChat("u", chat.id))!.messages[1]).toMatchObject({ content: "Hi.", name: "bot" });
      await loom.close();
    });

    it("a wrapper of the memory store is no memory store: its own appendMessage is called", async () => {
      const inner = memoryStore();
      let calls = 0;
      const store = {
        ...inner,
        appendMessage: (...a: Parameters<typeof inner.appendMessage>) => (calls++, inner.appendMessage(...a)),
      };
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create();
      expect(residentChat(store, "u", chat.id)).toBeUndefined();
      expect(residentChat(inner, "u", chat.id)).toBeDefined();
      await chat.append({ role: "user", content: "one" });
      await chat.append({ role: "assistant", content: "two" });
      expect(calls).toBe(2);
      await loom.close();
    });

    it("an appendMessage replaced on the store itself is the one called; its failure is STORE_FAILED and changes nothing", async () => {
      const store = memoryStore();
      const own = store.appendMessage;
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create();
      await chat.append({ role: "user", content: "kept" });
      let calls = 0;
      store.appendMessage = (...a) => {
        calls++;
        if (calls === 2) throw new Error("disk full");
        return own(...a);
      };
      await chat.append({ role: "assistant", content: "through the replacement" });
      expect(calls).toBe(1);
      const before = await observe(chat);
      await expectRejectCode(() => chat.append({ role: "user", content: "refused" }), "STORE_FAILED");
      expect(await observe(chat)).toEqual(before);
      expect((await store.loadChat("u", chat.id))!.chat).toMatchObject({ head: 1, messageCount: 2 });
      store.appendMessage = own;
      expect((await chat.append({ role: "user", content: "again" })).id).toBe(2);
      await loom.close();
    });

    it("two Looms on one memory store: the second's append finds the id taken, catches up, and lands as a sibling", async () => {
      const store = memoryStore();
      const other = engine === "wasm" ? "js" : "wasm";
      const [l1, l2] = await Promise.all([Loom.open({ engine, store }), Loom.open({ engine: other, store })]);
      const c1 = await l1.user("u").create();
      await c1.append({ role: "user", content: "start" });
      const c2 = await l2.user("u").open(c1.id);
      const a1 = await c1.append({ role: "assistant", content: "from one" });
      const a2 = await c2.append({ role: "assistant", content: "from two" }); // id 1 was taken: it lands as 2
      expect([a1.id, a2.id]).toEqual([1, 2]);
      expect(a2.parentId).toBe(0);
      const b1 = await c1.append({ role: "user", content: "one goes on" }); // id 3, under 1
      expect([b1.id, b1.parentId]).toEqual([3, 1]);
      await Promise.all([c1.refresh(), c2.refresh()]);
      expect(sharedOf(c2)).toEqual(sharedOf(c1));
      expect(sharedOf(c1).map((m) => m.content)).toEqual(["start", "from one", "from two", "one goes on"]);
      const fresh = await (await Loom.open({ engine, store })).user("u").open(c1.id);
      expect(sharedOf(fresh)).toEqual(sharedOf(c1));
      await Promise.all([l1.close(), l2.close()]);
    });

    it("a chat another Loom deleted is UNKNOWN_CHAT, and one made again under its id is not written by the old chat's handle", async () => {
      const store = memoryStore();
      const [l1, l2] = await Promise.all([Loom.open({ engine, store }), Loom.open({ engine, store })]);
      const c1 = await l1.user("u").create();
      await c1.append({ role: "user", content: "before" });
      const handle = residentChat(store, "u", c1.id)!;
      await l2.user("u").delete(c1.id);
      await expectRejectCode(() => c1.append({ role: "assistant", content: "after" }), "UNKNOWN_CHAT");
      expect(await store.loadChat("u", c1.id)).toBeUndefined();
      // The same id made again: the deleted chat's handle writes nothing there.
      const exported = {
        id: c1.id,
        userId: "u",
        title: "",
        model: "gpt-4o",
        system: null,
        options: {},
        createdAt: 1,
        updatedAt: 1,
        messageCount: 0,
        head: null,
      };
      await store.createChat(exported);
      const message: Message = {
        id: 1,
        parentId: 0,
        role: "assistant",
        content: "x",
        priority: "normal",
        tokens: 4,
        createdAt: 2,
        kind: "message",
      };
      expect(handle.append(message, 1, 2)).toBe(false); // (its next id, in the chat it was made for)
      expect((await store.loadChat("u", c1.id))!.messages).toEqual([]);
      await Promise.all([l1.close(), l2.close()]);
    });
  });
});
