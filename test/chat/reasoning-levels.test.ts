// reasoningTurns at the three levels: Loom.open for every chat, create() for one chat (kept with
// it: reopened on the memory store and on SQLite, exported and imported), and buildContext() for
// one call, the nearest level that sets it winning. Bad values change nothing.
import { describe, expect, it } from "vitest";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { Loom, memoryStore, type Chat, type LoomOptions, type Store } from "../../src/index.js";
import type { LoadedChat } from "../../src/store/types.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { sqliteStore } from "../../src/sqlite.js";
import { CtxloomError } from "../../src/errors.js";
import { expectRejectCode, forEachEngine, snapshot, withoutFastPaths } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";

const file = tempFolder("reasoning-levels");
const bad = (value: unknown) => value as never;

/** Three answered turns of Claude, each with a thinking block, and a fourth question. */
async function filled(chat: Chat): Promise<void> {
  const turns: MessageParam[] = [];
  for (let n = 1; n <= 3; n++) {
    turns.push({ role: "user", content: `Question ${n}?` });
    turns.push({
      role: "assistant",
      content: [
        { type: "thinking", thinking: `Thinking about ${n}.`, signature: `sig-${n}` },
        { type: "text", text: `Answer ${n}.` },
      ],
    });
  }
  turns.push({ role: "user", content: "Question 4?" });
  for (const input of fromAnthropicMessages(turns)) await chat.append(input);
}

/** How many turns send their thinking in the chat's Anthropic context. */
async function sent(chat: Chat, options: { reasoningTurns?: number | "all" } = {}): Promise<number> {
  const ctx = await chat.buildContext({ format: "anthropic", ...options });
  return ctx.messages.filter((m) => typeof m.content !== "string" && m.content.some((b) => b.type === "thinking"))
    .length;
}

const STORES: [string, () => () => Store][] = [
  [
    "the memory store, shared by a new Loom",
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "a SQLite file, opened again",
    () => {
      const path = file("levels.db");
      return () => sqliteStore(path);
    },
  ],
];

forEachEngine((engine) => {
  const open = (options: LoomOptions = {}) => Loom.open({ engine, ...options });

  it("the nearest level wins: Loom < chat < call; the default sends the newest turn's", async () => {
    const plain = await open();
    const defaults = await plain.user("u").create();
    await filled(defaults);
    expect(await sent(defaults)).toBe(1);
    await plain.close();

    const loom = await open({ reasoningTurns: 0 });
    const chats = loom.user("u");
    const inherits = await chats.create();
    await filled(inherits);
    expect(await sent(inherits)).toBe(0); // the Loom's
    expect(await sent(inherits, { reasoningTurns: 2 })).toBe(2); // the call's, over it
    const own = await chats.create({ reasoningTurns: "all" });
    await filled(own);
    expect(await sent(own)).toBe(3);
    expect(await sent(own, { reasoningTurns: 1 })).toBe(1);
    expect(own.export().chat.options?.reasoningTurns).toBe("all");
    expect(inherits.export().chat.options?.reasoningTurns).toBeUndefined();
    await loom.close();
  });

  describe.each(STORES)("kept with the chat: %s", (_name, makeStore) => {
    it("reopened by a new Loom, a chat keeps its own setting over the new Loom's", async () => {
      const store = makeStore();
      const loom1 = await open({ store: store() });
      const chat = await loom1.user("u").create({ reasoningTurns: 2 });
      await filled(chat);
      await loom1.close();
      const loom2 = await open({ store: store(), reasoningTurns: "all" });
      const again = await loom2.user("u").open(chat.id);
      expect(again.export().chat.options?.reasoningTurns).toBe(2);
      expect(await sent(again)).toBe(2);
      expect(again.path().filter((m) => m.parts).length).toBe(3); // the chat keeps every turn's
      await loom2.close();
    });
  });

  it("export and import keep it; a malformed one imports nothing", async () => {
    const loom = await open();
    const chats = loom.user("u");
    const chat = await chats.create({ reasoningTurns: 0 });
    await filled(chat);
    const exported = chat.export();
    const other = await open({ reasoningTurns: "all" });
    const otherChats = other.user("v");
    for (const data of [exported, JSON.stringify(exported)]) {
      const copy = await otherChats.import(data);
      expect(copy.export().chat.options?.reasoningTurns).toBe(0);
      expect(await sent(copy)).toBe(0);
    }
    const listed = await otherChats.list();
    for (const reasoningTurns of [-1, 1.5, "none", null, { turns: 1 }]) {
      const broken = {
        ...exported,
        chat: { ...exported.chat, id: "broken", options: { ...exported.chat.options, reasoningTurns } },
      };
      await expectRejectCode(() => otherChats.import(bad(broken)), "INVALID_ARGUMENT");
    }
    expect(await otherChats.list()).toEqual(listed);
    await other.close();
    await loom.close();
  });

  it("a malformed setting in the store is STORE_CORRUPT when the chat is opened", async () => {
    const inner = memoryStore();
    const store: Store = {
      ...inner,
      ...withoutFastPaths,
      loadChat: (u, c, since) => {
        const loaded = inner.loadChat(u, c, since) as LoadedChat; // the memory store answers at once
        return {
          chat: { ...loaded.chat, options: { ...loaded.chat.options, reasoningTurns: bad(-2) } },
          messages: loaded.messages,
        };
      },
    };
    const loom1 = await open({ store: inner });
    const chat = await loom1.user("u").create({ reasoningTurns: 1 });
    await loom1.close();
    const loom2 = await open({ store });
    await expectRejectCode(() => loom2.user("u").open(chat.id), "STORE_CORRUPT");
    await loom2.close();
  });

  describe("bad values change nothing", () => {
    const BAD: unknown[] = [-1, 1.5, Number.NaN, Infinity, 2 ** 31, "none", "All", null, true, { keepTurns: 1 }];

    it("Loom.open({ reasoningTurns }): INVALID_ARGUMENT naming the option", async () => {
      for (const reasoningTurns of BAD) {
        const error = await open(bad({ reasoningTurns })).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, String(reasoningTurns)).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toContain("Loom.open(options).reasoningTurns");
      }
    });

    it("create({ reasoningTurns }): INVALID_ARGUMENT naming the option, no chat created", async () => {
      const loom = await open();
      const chats = loom.user("u");
      for (const reasoningTurns of BAD) {
        const error = await chats.create(bad({ reasoningTurns })).then(
          () => null,
          (e: unknown) => e,
        );
        expect((error as CtxloomError).code, String(reasoningTurns)).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toContain("create(options).reasoningTurns");
      }
      expect(await chats.list()).toEqual([]);
      await loom.close();
    });

    it("buildContext({ reasoningTurns }) and buildPrompt: INVALID_ARGUMENT naming the option, nothing changed", async () => {
      const loom = await open();
      const chat = await loom.user("u").create();
      await filled(chat);
      const before = await snapshot(chat);
      for (const reasoningTurns of BAD) {
        for (const build of [
          () => chat.buildContext(bad({ reasoningTurns })),
          () => chat.buildPrompt(bad({ reasoningTurns })),
        ]) {
          const error = await build().then(
            () => null,
            (e: unknown) => e,
          );
          expect((error as CtxloomError).code, String(reasoningTurns)).toBe("INVALID_ARGUMENT");
          expect((error as CtxloomError).message).toContain("reasoningTurns");
        }
      }
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    });
  });
});
