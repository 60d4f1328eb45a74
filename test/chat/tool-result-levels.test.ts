// toolResults: { truncate, clear } at the three levels: Loom.open for every chat, create() for one
// chat (kept with it: reopened on the memory store and on SQLite, exported and imported), and
// buildContext() for one call. The nearest level that sets a key wins, key by key, false too.
// append() takes no toolResults: the chat keeps every result whole. Bad values change nothing.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type ContextWindow, type LoomOptions, type Store } from "../../src/index.js";
import type { LoadedChat } from "../../src/store/types.js";
import { sqliteStore } from "../../src/sqlite.js";
import { CtxloomError } from "../../src/errors.js";
import { expectRejectCode, forEachEngine, snapshot, withoutFastPaths } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";

const SMALL = { name: "tool-levels-small", contextWindow: 2000, sizeClass: "small" as const, tokensPerChar: 0.25 };
const call = (id: string) => ({ id, type: "function" as const, function: { name: "read_log", arguments: "{}" } });
const bigLog = Array.from({ length: 3000 }, (_, i) => `${i}: GET /api/items/${i} 200 — 日本 ✓ 😀`).join("\n");
const file = tempFolder("tool-result-levels");
const bad = (value: unknown) => value as never;

/** A chat holding a user turn, then one call answered by the big log and four small ones: ids 0..11. */
async function filled(chat: Chat): Promise<void> {
  await chat.append({ role: "user", content: "Read the log." });
  for (let i = 0; i < 5; i++) {
    await chat.append({ role: "assistant", content: "", toolCalls: [call(`c${i}`)] });
    await chat.append({
      role: "tool",
      toolCallId: `c${i}`,
      content: i === 0 ? bigLog : `small result ${i} `.repeat(20),
    });
  }
  await chat.append({ role: "assistant", content: "Done." });
}

/** How the context sends the big log (message 2): "whole", "cut" or "cleared" (or "left out"). */
const big = (ctx: ContextWindow): string => {
  const m = ctx.conversation.find((x) => x.id === 2);
  if (!m) return "left out";
  if (m.content === bigLog) return "whole";
  return m.content.startsWith("[cleared: message ") ? "cleared" : "cut";
};

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
  const clear = { clear: { keepNewest: 1, atLeast: 0 } };

  it("each key of a level wins over the level above's: Loom < chat < call", async () => {
    const loom = await open({ toolResults: clear });
    const chats = loom.user("u");
    const inherits = await chats.create({ model: SMALL });
    await filled(inherits);
    expect(big(await inherits.buildContext())).toBe("cleared"); // the Loom's clear
    expect(big(await inherits.buildContext({ toolResults: { clear: false } }))).toBe("cut"); // the call's, over it; truncate stays the default
    expect(big(await inherits.buildContext({ toolResults: { clear: false, truncate: false } }))).toBe("left out");
    const own = await chats.create({ model: SMALL, toolResults: { clear: false, truncate: { maxTokens: 100 } } });
    await filled(own);
    const ctx = await own.buildContext();
    expect(big(ctx)).toBe("cut");
    expect(ctx.conversation.find((x) => x.id === 2)!.tokens).toBeLessThanOrEqual(100);
    expect(big(await own.buildContext({ toolResults: { clear: true } }))).toBe("cleared");
    const keys = await chats.create({ model: SMALL, toolResults: {} }); // sets nothing: the Loom's
    expect(keys.export().chat.options?.toolResults).toBeUndefined();
    await filled(keys);
    expect(big(await keys.buildContext())).toBe("cleared");
    // Nothing changed in any chat: every result is whole.
    for (const chat of [inherits, own, keys]) expect(chat.get(2).content).toBe(bigLog);
    await loom.close();
  });

  describe.each(STORES)("kept with the chat: %s", (_name, makeStore) => {
    it("reopened by a new Loom, a chat keeps its own settings over the new Loom's", async () => {
      const store = makeStore();
      const loom1 = await open({ store: store() });
      const chats1 = loom1.user("u");
      const clearing = await chats1.create({
        model: SMALL,
        toolResults: { ...clear, truncate: { maxTokens: 300, keep: "tail" } },
      });
      await filled(clearing);
      const off = await chats1.create({ model: SMALL, toolResults: { truncate: false } });
      await filled(off);
      await loom1.close();

      const loom2 = await open({ store: store(), toolResults: { truncate: { maxTokens: 60 } } });
      const chats2 = loom2.user("u");
      const clearing2 = await chats2.open(clearing.id);
      expect(clearing2.export().chat.options?.toolResults).toEqual({
        ...clear,
        truncate: { maxTokens: 300, keep: "tail" },
      });
      expect(big(await clearing2.buildContext())).toBe("cleared");
      const cut = await clearing2.buildContext({ toolResults: { clear: false } });
      expect(big(cut)).toBe("cut");
      const sent = cut.conversation.find((x) => x.id === 2)!;
      expect(sent.tokens).toBeLessThanOrEqual(300);
      expect(sent.tokens).toBeGreaterThan(250); // its own 300, not the new Loom's 60
      expect(sent.content.endsWith("😀")).toBe(true);
      const off2 = await chats2.open(off.id);
      expect(big(await off2.buildContext())).toBe("left out"); // its own false, over the Loom's 60
      await loom2.close();
    });
  });

  it("export and import keep them (as an object and as JSON); a malformed one imports nothing", async () => {
    const loom = await open();
    const chats = loom.user("u");
    const settings = {
      truncate: { maxTokens: 200 },
      clear: { keepNewest: 1, atLeast: 0, exclude: ["search"], trigger: { fraction: 0 } },
    };
    const chat = await chats.create({ model: SMALL, toolResults: settings });
    await filled(chat);
    const exported = chat.export();
    expect(exported.chat.options?.toolResults).toEqual(settings);
    const other = await open({ toolResults: { truncate: false } });
    const otherChats = other.user("v");
    for (const data of [exported, JSON.stringify(exported)]) {
      const copy = await otherChats.import(data);
      expect(copy.export().chat.options?.toolResults).toEqual(settings);
      expect(big(await copy.buildContext())).toBe("cleared");
    }
    const listed = await otherChats.list();
    for (const toolResults of [
      5,
      { truncate: "yes" },
      { truncate: { maxTokens: 3 } },
      { truncate: { keep: "both" } },
      { trunc: true },
      { clear: { keep: 2 } },
    ]) {
      const broken = {
        ...exported,
        chat: { ...exported.chat, id: "broken", options: { ...exported.chat.options, toolResults } },
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
          chat: {
            ...loaded.chat,
            options: { ...loaded.chat.options, toolResults: bad({ clear: { keepNewest: -1 } }) },
          },
          messages: loaded.messages,
        };
      },
    };
    const loom1 = await open({ store: inner });
    const chat = await loom1.user("u").create({ model: SMALL, toolResults: { clear: true } });
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
      ["clear", { clear: "yes" }],
      ["keepNewest", { clear: { keepNewest: -1 } }],
      ['"keepNewest"', { clear: { keep: 3 } }],
      ["atLeast", { clear: { atLeast: 0.5 } }],
      ["trigger", { clear: { trigger: 5 } }],
      ["fraction", { clear: { trigger: { fraction: 1.5 } } }],
      ["exclude", { clear: { exclude: [3] } }],
      ["inputs", { clear: { inputs: 1 } }],
    ];

    it("create({ toolResults }): INVALID_ARGUMENT naming the option, no chat created", async () => {
      const loom = await open();
      const chats = loom.user("u");
      for (const [named, toolResults] of BAD) {
        const error = await chats.create(bad({ model: SMALL, toolResults })).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, named).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toContain(named);
        expect((error as CtxloomError).message).toContain("create(options).toolResults");
      }
      expect(await chats.list()).toEqual([]);
      await loom.close();
    });

    it("buildContext({ toolResults }) and buildPrompt: INVALID_ARGUMENT naming the option, nothing changed", async () => {
      const loom = await open();
      const chat = await loom.user("u").create({ model: SMALL });
      await filled(chat);
      const before = await snapshot(chat);
      for (const [named, toolResults] of BAD) {
        for (const build of [
          () => chat.buildContext(bad({ toolResults })),
          () => chat.buildPrompt(bad({ toolResults })),
        ]) {
          const error = await build().then(
            () => null,
            (e: unknown) => e,
          );
          expect(error, named).toBeInstanceOf(CtxloomError);
          expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
          expect((error as CtxloomError).message).toContain(named);
        }
      }
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    });

    it("Loom.open({ toolResults }): INVALID_ARGUMENT naming the option", async () => {
      for (const [named, toolResults] of BAD) {
        const error = await open(bad({ toolResults })).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, named).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).message).toContain(named);
      }
    });
  });

  it("append(message, { toolResults }) is refused, saying where the settings go; nothing appended", async () => {
    const loom = await open();
    const chat = await loom.user("u").create({ model: SMALL });
    await chat.append({ role: "user", content: "Read the log." });
    await chat.append({ role: "assistant", content: "", toolCalls: [call("c1")] });
    const before = await snapshot(chat);
    for (const toolResults of [{ truncate: true }, {}]) {
      const error = await chat.append({ role: "tool", toolCallId: "c1", content: bigLog }, bad({ toolResults })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CtxloomError);
      expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
      expect((error as CtxloomError).message).toMatch(
        /keeps every tool result whole.*Loom\.open\(\{ toolResults \}\), create\(\{ toolResults \}\) or buildContext\(\{ toolResults \}\)/,
      );
    }
    expect(await snapshot(chat)).toEqual(before);
    await loom.close();
  });
});
