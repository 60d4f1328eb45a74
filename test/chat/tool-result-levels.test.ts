// toolResults: { truncate } at the three levels (issue 22, item 2): Loom.open for every chat,
// create() for one chat (kept with it: reopened on the memory store and on SQLite, exported and
// imported), append() for one append. The nearest level that sets truncate wins, false too;
// buildContext refuses the key (a result is cut when appended). Bad values change nothing.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type LoomOptions, type Store } from "../../src/index.js";
import type { LoadedChat } from "../../src/store/types.js";
import { sqliteStore } from "../../src/sqlite.js";
import { CtxloomError } from "../../src/errors.js";
import { expectRejectCode, forEachEngine, snapshot } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";

const SMALL = { name: "tool-levels-small", contextWindow: 2000, sizeClass: "small" as const, tokensPerChar: 0.25 };
const call = (id: string) => ({ id, type: "function" as const, function: { name: "read_log", arguments: "{}" } });
const bigLog = Array.from({ length: 3000 }, (_, i) => `${i}: GET /api/items/${i} 200 — 日本 ✓ 😀`).join("\n");
const file = tempFolder("tool-result-levels");
const bad = (value: unknown) => value as never;

/** Opens a tool call `id` in `chat` (a user turn first when the chat is empty), ready for its result. */
async function ask(chat: Chat, id: string): Promise<void> {
  if (chat.messageCount === 0) await chat.append({ role: "user", content: "Read the log." });
  await chat.append({ role: "assistant", content: "", toolCalls: [call(id)] });
}

const result = (id: string) => ({ role: "tool" as const, toolCallId: id, content: bigLog });

/** A result too large is refused and leaves the chat as it was. */
async function refused(chat: Chat, id: string, options?: Parameters<Chat["append"]>[1]): Promise<void> {
  const before = await snapshot(chat);
  await expectRejectCode(() => chat.append(result(id), options), "MESSAGE_TOO_LARGE");
  expect(await snapshot(chat)).toEqual(before);
}

const STORES: [string, () => () => Store][] = [
  ["the memory store, shared by a new Loom", () => {
    const store = memoryStore();
    return () => store;
  }],
  ["a SQLite file, opened again", () => {
    const path = file("levels.db");
    return () => sqliteStore(path);
  }],
];

forEachEngine((engine) => {
  const open = (options: LoomOptions = {}) => Loom.open({ engine, ...options });

  it("a chat's policy cuts where the Loom's is off; the Loom's other chats still refuse", async () => {
    const loom = await open();
    const chats = loom.user("u");
    const cutting = await chats.create({ model: SMALL, toolResults: { truncate: { maxTokens: 200, keep: "head" } } });
    await ask(cutting, "c1");
    const m = await cutting.append(result("c1"));
    expect(m.tokens).toBeLessThanOrEqual(200);
    expect(m.tokens).toBeGreaterThan(150);
    expect(m.content.startsWith("0: GET /api/items/0")).toBe(true);
    expect(m.content).toMatch(/tokens of this tool result omitted/);
    const plain = await chats.create({ model: SMALL });
    await ask(plain, "c1");
    await refused(plain, "c1");
    await loom.close();
  });

  it("a chat's truncate: false refuses (MESSAGE_TOO_LARGE) while the Loom cuts; toolResults: {} keeps the Loom's", async () => {
    const loom = await open({ toolResults: { truncate: true } });
    const chats = loom.user("u");
    const off = await chats.create({ model: SMALL, toolResults: { truncate: false } });
    await ask(off, "c1");
    await refused(off, "c1");
    expect(off.export().chat.options).toMatchObject({ toolResults: { truncate: false } });
    const inherits = await chats.create({ model: SMALL, toolResults: {} });
    expect(inherits.export().chat.options?.toolResults).toBeUndefined();
    await ask(inherits, "c1");
    expect((await inherits.append(result("c1"))).content.length).toBeLessThan(bigLog.length);
    await loom.close();
  });

  it("an append's policy wins over the chat's for that append only, both ways", async () => {
    const loom = await open({ toolResults: { truncate: { maxTokens: 400 } } });
    const chats = loom.user("u");
    // The chat refuses; one append cuts, the next refuses again.
    const off = await chats.create({ model: SMALL, toolResults: { truncate: false } });
    await ask(off, "c1");
    const cut = await off.append(result("c1"), { toolResults: { truncate: { maxTokens: 100, keep: "tail" } } });
    expect(cut.tokens).toBeLessThanOrEqual(100);
    expect(cut.content.endsWith("2999: GET /api/items/2999 200 — 日本 ✓ 😀")).toBe(true);
    await ask(off, "c2");
    await refused(off, "c2");
    // The chat cuts (the Loom's 400); one append refuses, another cuts to its own cap, with a key.
    const on = await chats.create({ model: SMALL });
    await ask(on, "c1");
    await refused(on, "c1", { toolResults: { truncate: false } });
    const small = await on.append(result("c1"), { key: "req-1", toolResults: { truncate: { maxTokens: 50 } } });
    expect(small.tokens).toBeLessThanOrEqual(50);
    await ask(on, "c2");
    const loom400 = await on.append(result("c2"), { toolResults: {} }); // sets nothing: the chat's
    expect(loom400.tokens).toBeLessThanOrEqual(400);
    expect(loom400.tokens).toBeGreaterThan(350);
    await loom.close();
  });

  it("a result appended under { parent } is cut to leave room for its own unit, not the head's", async () => {
    const loom = await open();
    const chat = await loom.user("u").create({ model: SMALL, toolResults: { truncate: true } });
    await ask(chat, "c1");
    const asked = chat.head!;
    const first = await chat.append(result("c1")); // the head: a unit that fills a request
    const sibling = await chat.append(result("c1"), { parent: asked }); // another answer to the same call
    expect(sibling.parentId).toBe(asked);
    expect(Math.abs(sibling.tokens - first.tokens)).toBeLessThanOrEqual(8);
    await loom.close();
  });

  describe.each(STORES)("kept with the chat: %s", (_name, makeStore) => {
    it("reopened by a new Loom, a chat keeps its own policy over the new Loom's", async () => {
      const store = makeStore();
      const loom1 = await open({ store: store() });
      const chats1 = loom1.user("u");
      const cutting = await chats1.create({ model: SMALL, toolResults: { truncate: { maxTokens: 300, keep: "tail" } } });
      const off = await chats1.create({ model: SMALL, toolResults: { truncate: false } });
      await loom1.close();

      const loom2 = await open({ store: store(), toolResults: { truncate: { maxTokens: 60 } } });
      const chats2 = loom2.user("u");
      const cutting2 = await chats2.open(cutting.id);
      expect(cutting2.export().chat.options?.toolResults).toEqual({ truncate: { maxTokens: 300, keep: "tail" } });
      await ask(cutting2, "c1");
      const m = await cutting2.append(result("c1"));
      expect(m.tokens).toBeLessThanOrEqual(300);
      expect(m.tokens).toBeGreaterThan(250); // its own 300, not the new Loom's 60
      expect(m.content.endsWith("😀")).toBe(true);
      const off2 = await chats2.open(off.id);
      await ask(off2, "c1");
      await refused(off2, "c1");
      await loom2.close();
    });
  });

  it("export and import keep it (as an object and as JSON); a malformed one imports nothing", async () => {
    const loom = await open();
    const chats = loom.user("u");
    const chat = await chats.create({ model: SMALL, toolResults: { truncate: { maxTokens: 200 } } });
    await ask(chat, "c1");
    await chat.append(result("c1"));
    const exported = chat.export();
    expect(exported.chat.options?.toolResults).toEqual({ truncate: { maxTokens: 200 } });

    const other = await open({ toolResults: { truncate: false } });
    const otherChats = other.user("v");
    for (const data of [exported, JSON.stringify(exported)]) {
      const copy = await otherChats.import(data);
      expect(copy.export().chat.options?.toolResults).toEqual({ truncate: { maxTokens: 200 } });
      await ask(copy, "c9");
      expect((await copy.append(result("c9"))).tokens).toBeLessThanOrEqual(200);
    }
    const listed = await otherChats.list();
    for (const toolResults of [5, { truncate: "yes" }, { truncate: { maxTokens: 3 } }, { truncate: { keep: "both" } }, { trunc: true }]) {
      const broken = { ...exported, chat: { ...exported.chat, id: "broken", options: { ...exported.chat.options, toolResults } } };
      await expectRejectCode(() => otherChats.import(bad(broken)), "INVALID_ARGUMENT");
    }
    expect(await otherChats.list()).toEqual(listed);
    await other.close();
    await loom.close();
  });

  it("a malformed policy in the store is STORE_CORRUPT when the chat is opened", async () => {
    const inner = memoryStore();
    const store: Store = {
      ...inner,
      resident: undefined,
      loadChat: (u, c, since) => {
        const loaded = inner.loadChat(u, c, since) as LoadedChat; // the memory store answers at once
        return { chat: { ...loaded.chat, options: { ...loaded.chat.options, toolResults: bad({ truncate: { keep: "middle" } }) } }, messages: loaded.messages };
      },
    };
    const loom1 = await open({ store: inner });
    const chat = await loom1.user("u").create({ model: SMALL, toolResults: { truncate: true } });
    await loom1.close();
    const loom2 = await open({ store });
    await expectRejectCode(() => loom2.user("u").open(chat.id), "STORE_CORRUPT");
    await loom2.close();
  });

  describe("bad toolResults change nothing", () => {
    const BAD: [string, unknown][] = [
      ["toolResults", 5],
      ["toolResults", null],
      ["toolResults", [true]],
      ['"trunc"', { trunc: true }],
      ["truncate", { truncate: "yes" }],
      ["truncate", { truncate: null }],
      ["maxTokens", { truncate: { maxTokens: 3 } }],
      ["maxTokens", { truncate: { maxTokens: Number.NaN } }],
      ["maxTokens", { truncate: { maxTokens: 1e12 } }],
      ["maxTokens", { truncate: { maxTokens: 100.5 } }],
      ["keep", { truncate: { keep: "both" } }],
      ['"max"', { truncate: { max: 9 } }],
    ];

    it("create({ toolResults }): INVALID_ARGUMENT naming the option, no chat created", async () => {
      const loom = await open();
      const chats = loom.user("u");
      for (const [named, toolResults] of BAD) {
        const error = await chats.create(bad({ model: SMALL, toolResults })).then(() => null, (e: unknown) => e);
        expect(error, named).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toContain(named);
        expect((error as CtxloomError).message).toContain("create(options).toolResults");
      }
      expect(await chats.list()).toEqual([]);
      await loom.close();
    });

    it("append(message, { toolResults }): INVALID_ARGUMENT naming the option, nothing appended", async () => {
      const loom = await open({ toolResults: { truncate: true } });
      const chat = await loom.user("u").create({ model: SMALL });
      await ask(chat, "c1");
      const before = await snapshot(chat);
      for (const [named, toolResults] of BAD) {
        for (const message of [result("c1"), { role: "tool" as const, toolCallId: "c1", content: "small" }]) {
          const error = await chat.append(message, bad({ toolResults })).then(() => null, (e: unknown) => e);
          expect(error, named).toBeInstanceOf(CtxloomError);
          expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
          expect((error as CtxloomError).message).toContain(named);
        }
      }
      // A user message with a bad policy is refused too: the options are checked whatever the role.
      await expectRejectCode(() => chat.append({ role: "user", content: "hi" }, bad({ toolResults: 5 })), "INVALID_ARGUMENT");
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    });
  });

  it("buildContext({ toolResults }) is refused, saying where the option applies", async () => {
    for (const summaries of [false, true]) {
      const loom = await open({ summaries });
      const chat = await loom.user("u").create({ model: SMALL });
      await chat.append({ role: "user", content: "Hello." });
      const before = await snapshot(chat);
      for (const build of [() => chat.buildContext(bad({ toolResults: { truncate: true } })), () => chat.buildPrompt(bad({ toolResults: {} }))]) {
        const error = await build().then(() => null, (e: unknown) => e);
        expect(error).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toMatch(/appended.*Loom\.open\(\{ toolResults \}\), create\(\{ toolResults \}\) or append\(message, \{ toolResults \}\)/);
      }
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    }
  });
});
