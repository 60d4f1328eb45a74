// Persistence: the store as the source of truth. Many writers, refresh, the LRU of open chats,
// portable export and import, restore on random trees; every case on both engines.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Loom, memoryStore, type Chat, type ChatExport, type Message, type Store } from "../../src/index.js";
import { EXPORT_VERSION } from "../../src/store/portable.js";
import { ENGINES, expectRejectCode, expectThrowCode, forEachEngine, observe, withoutFastPaths } from "../helpers.js";
import { seeded } from "../seeded.js";

const { random } = seeded("persistence.test.ts jittery store delays");

/** A shared memory store whose writes and loads finish after a random few milliseconds (seeded), so writers interleave. */
function jitteryStore(options: { resident?: boolean } = {}): { store: Store; calls: Record<string, number> } {
  const inner = memoryStore();
  const calls: Record<string, number> = {};
  const later = <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    calls[name] = (calls[name] ?? 0) + 1;
    return new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(f());
        } catch (e) {
          reject(e);
        }
      }, random() * 3),
    );
  };
  const store: Store = {
    ...inner,
    name: "jittery",
    appendMessage: (...a) => later("appendMessage", () => inner.appendMessage(...a)),
    loadChat: (...a) => later("loadChat", () => inner.loadChat(...a)),
    hasChat: (...a) => later("hasChat", () => inner.hasChat(...a)),
    importChat: (...a) => later("importChat", () => inner.importChat(...a)),
    ...(options.resident === false ? withoutFastPaths : {}),
  };
  return { store, calls };
}

/**
 * Counts the trees the engine drops (evictions); `reached(n)` resolves once n are dropped. A
 * gate, not a sleep: an eviction runs on its chat's queue, after the call that caused it returned.
 */
function countDrops(loom: Loom): { readonly count: number; reached(n: number): Promise<void> } {
  const impl = loom.engineImpl;
  const drop = impl.dropTree.bind(impl);
  let count = 0;
  const waiting: [number, () => void][] = [];
  impl.dropTree = (tree: number) => {
    drop(tree);
    count++;
    for (const [n, resolve] of waiting) if (count >= n) resolve();
  };
  return {
    get count() {
      return count;
    },
    reached: (n) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push([n, resolve]))),
  };
}

const sharedOf = (c: Chat) => Array.from({ length: c.messageCount }, (_, i) => c.get(i));

forEachEngine((engine) => {
  describe("many writers", () => {
    for (const resident of [true, false]) {
      it(`two Looms append concurrently to one chat: sibling branches, nothing lost or renumbered (${resident ? "columns shared" : "own columns"})`, async () => {
        const { store } = jitteryStore({ resident });
        const other = engine === "wasm" ? "js" : "wasm";
        const [l1, l2] = await Promise.all([Loom.open({ engine, store }), Loom.open({ engine: other, store })]);
        const c1 = await l1.user("u").create();
        await c1.append({ role: "user", content: "start" });
        const c2 = await l2.user("u").open(c1.id);
        const acked: { loom: number; id: number; content: string }[] = [];
        const run = async (chat: Chat, loom: number) => {
          for (let i = 0; i < 15; i++) {
            const role = i % 2 ? "assistant" : "user";
            const m = await chat.append({ role, content: `L${loom} #${i}` });
            acked.push({ loom, id: m.id, content: m.content });
          }
        };
        await Promise.all([run(c1, 1), run(c2, 2)]);
        await Promise.all([c1.refresh(), c2.refresh()]);
        const all = sharedOf(c1);
        expect(all).toHaveLength(31);
        expect(sharedOf(c2)).toEqual(all);
        // every acknowledged message is present once, under the id it was acknowledged with
        for (const a of acked) expect(all[a.id]!.content).toBe(a.content);
        expect(new Set(all.map((m) => m.content)).size).toBe(31);
        // each writer's messages form its own chain from the shared start
        for (const loom of [1, 2]) {
          const mine = acked.filter((a) => a.loom === loom);
          mine.forEach((a, k) => expect(all[a.id]!.parentId).toBe(k === 0 ? 0 : mine[k - 1]!.id));
        }
        expect(c2.head).toBe(c1.head); // both took the stored head
        expect(await observe(c2)).toEqual(await observe(c1));
        const fresh = await (await Loom.open({ engine, store })).user("u").open(c1.id);
        expect(sharedOf(fresh)).toEqual(all);
        await Promise.all([l1.close(), l2.close()]);
      });
    }

    it("random interleavings of three writers: every acknowledged message stays where it was acknowledged; all agree after refresh", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat(2), fc.nat(99), fc.nat(1000)), { minLength: 1, maxLength: 40 }),
          async (steps) => {
            const { store } = jitteryStore({ resident: steps.length % 2 === 0 });
            const looms = await Promise.all(
              [engine, engine === "wasm" ? "js" : "wasm", engine].map((e) =>
                Loom.open({ engine: e as "wasm" | "js", store }),
              ),
            );
            const first = await looms[0]!.user("u").create();
            const chats = [first, ...(await Promise.all(looms.slice(1).map((l) => l.user("u").open(first.id))))];
            const acked: Message[] = [];
            await Promise.all(
              chats.map(async (chat, w) => {
                for (const [who, kind, pick] of steps) {
                  if (who !== w) continue;
                  const n = chat.messageCount;
                  if (kind < 60 || n === 0)
                    acked.push(await chat.append({ role: kind % 2 ? "user" : "assistant", content: `w${w} ${pick}` }));
                  else if (kind < 80) await chat.checkout(pick % n);
                  else if (kind < 90) await chat.refresh();
                  else if (chat.get(pick % n).role === "user")
                    acked.push(await chat.edit(pick % n, `w${w} edit ${pick}`));
                }
              }),
            );
            await Promise.all(chats.map((c) => c.refresh()));
            const all = sharedOf(chats[0]!);
            for (const m of acked) expect(all[m.id]).toEqual(m);
            expect(all).toHaveLength(acked.length);
            const expected = await observe(chats[0]!);
            for (const c of chats.slice(1)) expect(await observe(c)).toEqual(expected);
            const fresh = await (await Loom.open({ engine, store })).user("u").open(first.id);
            expect(await observe(fresh)).toEqual(expected);
            await Promise.all(looms.map((l) => l.close()));
          },
        ),
        { numRuns: 15 },
      );
    }, 60_000);

    it("what a store hands back while catching up is checked like a restore; a store that answers nonsense fails cleanly", async () => {
      const inner = memoryStore();
      let mode: "ok" | "corrupt" | "nonsense" = "ok";
      const store: Store = {
        ...inner,
        ...withoutFastPaths,
        appendMessage: (...a) =>
          mode === "ok"
            ? inner.appendMessage(...a)
            : mode === "nonsense"
              ? (undefined as never)
              : { ok: false, size: a[0].message.id + 1 },
        loadChat: (u, c, since) => {
          const loaded = inner.loadChat(u, c, since) as ReturnType<typeof inner.loadChat> & object;
          if (mode !== "corrupt" || !since) return loaded;
          return {
            ...loaded,
            messages: [
              {
                id: since,
                parentId: null,
                role: "user",
                content: "",
                priority: "normal",
                tokens: 3,
                createdAt: 1,
                kind: "message",
              },
            ],
          };
        },
      };
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create();
      await chat.append({ role: "user", content: "hi" });
      mode = "corrupt";
      await expectRejectCode(() => chat.append({ role: "assistant", content: "x" }), "STORE_CORRUPT");
      mode = "nonsense";
      await expectRejectCode(() => chat.append({ role: "assistant", content: "x" }), "STORE_FAILED");
      mode = "ok";
      expect(chat.messageCount).toBe(1);
      expect((await chat.append({ role: "assistant", content: "x" })).id).toBe(1);
      await loom.close();
    });

    it("refresh brings an open chat up to date with what another Loom wrote", async () => {
      const store = memoryStore();
      const [l1, l2] = await Promise.all([Loom.open({ engine, store }), Loom.open({ engine, store })]);
      const c1 = await l1.user("u").create();
      const c2 = await l2.user("u").open(c1.id);
      await c1.append({ role: "user", content: "a" });
      await c1.append({ role: "assistant", content: "b" });
      expect(c2.messageCount).toBe(0);
      expect(await c2.refresh()).toBe(2);
      expect(c2.head).toBe(1);
      expect(c2.path()).toEqual(c1.path());
      expect(await c2.refresh()).toBe(0);
      await c2.regenerate(1); // head moves are last-writer-wins
      await c1.refresh();
      expect(c1.head).toBe(0);
      await Promise.all([l1.close(), l2.close()]);
    });
  });

  describe("open chats (maxOpenChats)", () => {
    it("past maxOpenChats the least recently used chats free their engine memory and reload on use; no message lost", async () => {
      for (const resident of [true, false]) {
        const { store } = jitteryStore({ resident });
        const loom = await Loom.open({ engine, store, maxOpenChats: 2 });
        const drops = countDrops(loom);
        const chats = loom.user("u");
        const made: Chat[] = [];
        for (let i = 0; i < 5; i++) {
          const c = await chats.create({ title: `c${i}` });
          await c.append({ role: "user", content: `hello ${i}` });
          made.push(c);
        }
        await drops.reached(3);
        await Promise.all(made.slice(3).map((c) => c.refresh())); // the open chats' queues drained: no eviction left under way
        expect(drops.count).toBe(3);
        const first = made[0]!;
        if (resident) {
          expect(first.path().map((m) => m.content)).toEqual(["hello 0"]); // the memory store holds it: wakes at once
        } else {
          expectThrowCode(() => first.path(), "CHAT_UNLOADED");
          await first.refresh(); // any async call wakes it
          expect(first.path().map((m) => m.content)).toEqual(["hello 0"]);
        }
        await first.append({ role: "assistant", content: "back" });
        for (const [i, c] of made.entries()) {
          const reopened = await chats.open(c.id);
          expect(reopened.path().map((m) => m.content)[0]).toBe(`hello ${i}`);
        }
        expect((await chats.open(first.id)).path().map((m) => m.content)).toEqual(["hello 0", "back"]);
        await loom.close();
      }
    });

    it("a chat used through a kept reference is not evicted for not being reopened (second chance)", async () => {
      const { store } = jitteryStore({ resident: false });
      const loom = await Loom.open({ engine, store, maxOpenChats: 2 });
      const drops = countDrops(loom);
      const chats = loom.user("u");
      const kept = await chats.create();
      await kept.append({ role: "user", content: "kept" });
      const others: Chat[] = [];
      for (let i = 0; i < 6; i++) {
        expect(kept.path().map((m) => m.content)).toEqual(["kept"]); // in use: never CHAT_UNLOADED
        const c = await chats.create();
        await c.append({ role: "user", content: `other ${i}` });
        others.push(c);
        await drops.reached(i); // each chat past the second evicts one: wait for it
      }
      expect(kept.path().map((m) => m.content)).toEqual(["kept"]);
      expectThrowCode(() => others[0]!.path(), "CHAT_UNLOADED"); // unused since: unloaded
      await loom.close();
    });

    it("past a large maxOpenChats a sixteenth goes at once, least recently used first; the memory store evicts nothing by default", async () => {
      const { store } = jitteryStore({ resident: false });
      const loom = await Loom.open({ engine, store, maxOpenChats: 32 });
      const drops = countDrops(loom);
      const chats = loom.user("u");
      const made: Chat[] = [];
      for (let i = 0; i < 33; i++) made.push(await chats.create({ title: `c${i}` }));
      await drops.reached(3);
      // 33 > 32: down to 32 - 2 = 30, the three oldest evicted.
      for (const [i, c] of made.entries()) {
        if (i < 3) expectThrowCode(() => c.path(), "CHAT_UNLOADED");
        else expect(c.path()).toEqual([]);
      }
      await loom.close();

      const memory = await Loom.open({ engine });
      const dropped = countDrops(memory);
      const all: Chat[] = [];
      for (let i = 0; i < 1100; i++) {
        const c = await memory.user("u").create();
        await c.append({ role: "user", content: `hi ${i}` });
        all.push(c);
      }
      // An eviction runs on its chat's queue: once every queue has drained, none can be under way.
      await Promise.all(all.map((c) => c.refresh()));
      expect(dropped.count).toBe(0);
      await memory.close();
    });

    it("maxOpenChats must be a positive integer", async () => {
      await expectRejectCode(() => Loom.open({ engine, maxOpenChats: 0 }), "INVALID_ARGUMENT");
      await expectRejectCode(() => Loom.open({ engine, maxOpenChats: 1.5 }), "INVALID_ARGUMENT");
    });
  });

  describe("export and import", () => {
    async function sample(loom: Loom): Promise<Chat> {
      const chat = await loom.user("u").create({
        title: "trip",
        system: "be brief",
        budget: { system: 0.2, memory: 0.2, conversation: 0.45, input: 0.1, reserve: 0.05 },
      });
      await chat.append({ role: "user", content: "hi", name: "alice" });
      const a = await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: "{}" } }],
        priority: "high",
      });
      await chat.append({ role: "tool", content: "42", toolCallId: "k" });
      await chat.append({ role: "assistant", content: "it is 42" });
      await chat.regenerate(a.id);
      await chat.append({ role: "assistant", content: "other answer" });
      await chat.edit(0, "hello");
      return chat;
    }

    it("export then import (object or JSON text) gives the same chat on another Loom and engine", async () => {
      const l1 = await Loom.open({ engine });
      const chat = await sample(l1);
      const exported = chat.export();
      // Without the chat's own memory, the oldest version that holds it (older releases read it).
      expect(exported).toMatchObject({ format: "ctxloom.chat", version: EXPORT_VERSION - 1, head: chat.head });
      for (const target of ENGINES) {
        const l2 = await Loom.open({ engine: target });
        for (const data of [exported, JSON.stringify(exported)]) {
          const copy = await l2.user("v").import(data);
          expect(await observe(copy)).toEqual(await observe(chat));
          expect([copy.title, copy.system, copy.model]).toEqual([chat.title, chat.system, chat.model]);
          const reopened = await (await Loom.open({ engine: target })).user("v").import(copy.export());
          expect(await observe(reopened)).toEqual(await observe(chat));
        }
        await l2.close();
      }
      await l1.close();
    });

    it("an export keeps its chat id when imported for another user of the same store; a second import gets a new id", async () => {
      const loom = await Loom.open({ engine });
      const chat = await sample(loom);
      const data = chat.export();
      const copy = await loom.user("bob").import(data);
      expect(copy.id).toBe(chat.id);
      await copy.append({ role: "assistant", content: "bob's" });
      expect(chat.messageCount).toBe(copy.messageCount - 1);
      const second = await loom.user("bob").import(data);
      expect(second.id).not.toBe(chat.id);
      await loom.user("bob").delete(copy.id);
      expect(chat.path().length).toBeGreaterThan(0);
      expect((await loom.user("u").open(chat.id)).messageCount).toBe(chat.messageCount);
      await loom.close();
    });

    it("tokens left out are counted with the chat's model; one store call for the whole chat", async () => {
      const l1 = await Loom.open({ engine });
      const chat = await sample(l1);
      const exported = chat.export();
      const bare = { ...exported, messages: exported.messages.map(({ tokens: _t, ...m }) => m) };
      const { store, calls } = jitteryStore();
      const l2 = await Loom.open({ engine, store });
      const copy = await l2.user("u").import(bare);
      expect(sharedOf(copy).map((m) => m.tokens)).toEqual(sharedOf(chat).map((m) => m.tokens));
      expect(calls).toEqual({ hasChat: 1, importChat: 1 }); // the id lookup, then one bulk write
      const again = await (await Loom.open({ engine, store })).user("u").open(copy.id);
      expect(await observe(again)).toEqual(await observe(chat));
      await Promise.all([l1.close(), l2.close()]);
    });

    it("a bad or newer file says what is wrong and imports nothing", async () => {
      const l1 = await Loom.open({ engine });
      const good = (await sample(l1)).export();
      const l2 = await Loom.open({ engine });
      const chats = l2.user("u");
      const bad: [string, unknown, string][] = [
        ["newer version", { ...good, version: EXPORT_VERSION + 1 }, "newer"],
        ["not JSON", "{oops", "not JSON"],
        ["wrong format", { ...good, format: "other" }, "format"],
        [
          "parent after child",
          { ...good, messages: good.messages.map((m, i) => (i === 1 ? { ...m, parentId: 5 } : m)) },
          "message 1",
        ],
        [
          "lone result",
          { ...good, messages: [good.messages[0], { ...good.messages[2], id: 1, parentId: 0 }] },
          "message 1",
        ],
        ["bad head", { ...good, head: 99 }, "head"],
        [
          "unknown field",
          { ...good, messages: good.messages.map((m, i) => (i === 3 ? { ...m, extra: 1 } : m)) },
          "extra",
        ],
        ["unknown top-level key", { ...good, mesages: [] }, "messages"],
        [
          "tokens past the cap",
          { ...good, messages: good.messages.map((m, i) => (i === 3 ? { ...m, tokens: 2 ** 32 + 10 } : m)) },
          "tokens",
        ],
      ];
      for (const [label, data, says] of bad) {
        const error = await chats.import(data as ChatExport).catch((e: Error) => e);
        expect((error as { code?: string }).code, label).toBe("INVALID_ARGUMENT");
        expect((error as Error).message, label).toContain(says);
      }
      expect(await chats.list()).toEqual([]);
      await Promise.all([l1.close(), l2.close()]);
    });

    it("imports 100k messages in one bulk write", async () => {
      const messages: ChatExport["messages"] = [];
      for (let id = 0; id < 100_000; id++) {
        messages.push({
          id,
          parentId: id === 0 ? null : id - 1,
          role: id % 2 ? "assistant" : "user",
          content: `m${id}`,
          priority: "normal",
          createdAt: id,
          kind: "message",
        });
      }
      const data: ChatExport = {
        format: "ctxloom.chat",
        version: 1,
        chat: { title: "big", model: "gpt-4o", system: null, createdAt: 0, updatedAt: 0 },
        head: 99_999,
        messages,
      };
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").import(data);
      expect(chat.messageCount).toBe(100_000);
      expect(chat.window({ maxMessages: 2 }).map((m) => m.content)).toEqual(["m99998", "m99999"]);
      await loom.close();
    }, 60_000);
  });

  describe("restore", () => {
    it("random trees reopen on a new Loom, on both engines, exactly as they were", async () => {
      const store = memoryStore();
      const writer = await Loom.open({ engine, store });
      const readers = await Promise.all(
        ENGINES.map((e) => Loom.open({ engine: e, store: { ...store, ...withoutFastPaths } })),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat(99), fc.nat(1000)), { minLength: 0, maxLength: 60 }),
          async (steps) => {
            const chat = await writer.user("r").create();
            for (const [kind, pick] of steps) {
              const n = chat.messageCount;
              if (kind < 50)
                await chat.append({
                  role: kind % 2 ? "user" : "assistant",
                  content: `t${pick}`,
                  priority: (["low", "normal", "high", "critical"] as const)[pick % 4],
                });
              else if (kind < 75 && n > 0) await chat.checkout(pick % n);
              else if (kind < 90 && n > 0 && chat.get(pick % n).role === "assistant") await chat.regenerate(pick % n);
              else if (n > 0 && chat.get(pick % n).role === "user") await chat.edit(pick % n, `e${pick}`);
            }
            const expected = await observe(chat);
            for (const reader of readers) expect(await observe(await reader.user("r").open(chat.id))).toEqual(expected);
          },
        ),
        { numRuns: 40 },
      );
      await Promise.all([writer, ...readers].map((l) => l.close()));
    });

    it("chats.list() reads records only; opening a user loads no chat", async () => {
      const { store, calls } = jitteryStore();
      const l1 = await Loom.open({ engine, store });
      const c = await l1.user("u").create({ title: "x" });
      await c.append({ role: "user", content: "hi" });
      const l2 = await Loom.open({ engine, store });
      const before = calls.loadChat ?? 0;
      const chats = l2.user("u");
      expect((await chats.list()).map((s) => [s.title, s.messageCount])).toEqual([["x", 1]]);
      expect(calls.loadChat ?? 0).toBe(before);
      await Promise.all([l1.close(), l2.close()]);
    });
  });
});
