// The in-memory store, and what a Loom does with what a store hands back.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Message, type Store } from "../../src/index.js";
import type { ChatRecord } from "../../src/store-entry.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";

const record = (over: Partial<ChatRecord> = {}): ChatRecord => ({
  id: "c1",
  userId: "u",
  title: "t",
  model: "gpt-4o",
  system: null,
  createdAt: 1,
  updatedAt: 1,
  messageCount: 0,
  head: null,
  options: {},
  ...over,
});

const message = (over: Partial<Message> = {}): Message => ({
  id: 0,
  parentId: null,
  role: "user",
  content: "hi",
  priority: "normal",
  tokens: 5,
  createdAt: 1,
  kind: "message",
  ...over,
});

describe("memoryStore", () => {
  it("copies records in and out: callers cannot change what it holds", async () => {
    const store = memoryStore();
    const chat = record({
      options: { budget: { system: 0.2, memory: 0.2, conversation: 0.45, input: 0.1, reserve: 0.05 } },
    });
    await store.createChat(chat);
    chat.title = "changed";
    chat.options.budget!.system = 0.9;
    const m = message({ toolCalls: undefined });
    await store.appendMessage({ userId: "u", chatId: "c1", message: m, head: 0, updatedAt: 2 });
    m.content = "changed";
    const loaded = (await store.loadChat("u", "c1"))!;
    expect(loaded.chat.title).toBe("t");
    expect(loaded.chat.options.budget!.system).toBe(0.2);
    expect(loaded.messages[0]!.content).toBe("hi");
    expect(loaded.chat).toMatchObject({ head: 0, updatedAt: 2, messageCount: 1 });
    loaded.messages[0]!.content = "again";
    expect((await store.loadChat("u", "c1"))!.messages[0]!.content).toBe("hi");
  });

  it("scopes chats to their user and lists the most recently updated first", async () => {
    const store = memoryStore();
    await store.createChat(record({ id: "a", updatedAt: 5 }));
    await store.createChat(record({ id: "b", updatedAt: 9 }));
    await store.createChat(record({ id: "c", userId: "other", updatedAt: 7 }));
    expect((await store.listChats("u")).map((c) => c.id)).toEqual(["b", "a"]);
    expect(await store.loadChat("other", "a")).toBeUndefined();
    expect(await store.deleteChat("other", "a")).toBe(false);
    expect(await store.deleteChat("u", "a")).toBe(true);
    expect(await store.deleteChat("u", "a")).toBe(false);
    expect((await store.listChats("u")).map((c) => c.id)).toEqual(["b"]);
  });
});

/** A store that hands back whatever it is given for chat "c1". */
function storeWith(chat: ChatRecord, messages: Message[]): Store {
  const store = memoryStore();
  return {
    ...store,
    loadChat: (userId, chatId) => (userId === "u" && chatId === "c1" ? { chat, messages } : undefined),
  };
}

forEachEngine((engine) => {
  describe("a store that hands back data ctxloom cannot read: STORE_CORRUPT, nothing loaded", () => {
    const cases: [string, ChatRecord, Message[]][] = [
      ["a message out of order", record({ head: 0 }), [message({ id: 1 })]],
      ["a parent after its child", record({ head: 1 }), [message(), message({ id: 1, parentId: 2 })]],
      ["an unknown role", record({ head: 0 }), [message({ role: "robot" as never })]],
      ["an unknown priority", record({ head: 0 }), [message({ priority: "urgent" as never })]],
      ["negative tokens", record({ head: 0 }), [message({ tokens: -1 })]],
      ["content that is not text", record({ head: 0 }), [message({ content: 42 as never })]],
      [
        "a tool result without its call id",
        record({ head: 1 }),
        [message(), message({ id: 1, parentId: 0, role: "tool" })],
      ],
      [
        "a tool result answering no call",
        record({ head: 1 }),
        [message(), message({ id: 1, parentId: 0, role: "tool", toolCallId: "k" })],
      ],
      [
        "a tool result with another priority than its call",
        record({ head: 1 }),
        [
          message({
            role: "assistant",
            content: "",
            priority: "low",
            toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: "{}" } }],
          }),
          message({ id: 1, parentId: 0, role: "tool", content: "r", toolCallId: "k" }),
        ],
      ],
      [
        "a call answered twice",
        record({ head: 2 }),
        [
          message({
            role: "assistant",
            content: "",
            toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: "{}" } }],
          }),
          message({ id: 1, parentId: 0, role: "tool", content: "r", toolCallId: "k" }),
          message({ id: 2, parentId: 1, role: "tool", content: "r", toolCallId: "k" }),
        ],
      ],
      [
        "toolCalls that is not an array",
        record({ head: 0 }),
        [message({ role: "assistant", toolCalls: "k" as never })],
      ],
      ["toolCalls holding null", record({ head: 0 }), [message({ role: "assistant", toolCalls: [null] as never })]],
      ["a null message", record({ head: 0 }), [null as never]],
      ["a user message with empty content", record({ head: 0 }), [message({ content: "" })]],
      ["a name that is not a string", record({ head: 0 }), [message({ name: 5 as never })]],
      ["tokens past the 2^30 cap (2^32 + 10)", record({ head: 0 }), [message({ tokens: 2 ** 32 + 10 })]],
      ["content with a lone surrogate", record({ head: 0 }), [message({ content: "a\ud800" })]],
      [
        "a user message under unanswered calls",
        record({ head: 1 }),
        [
          message({
            role: "assistant",
            content: "",
            toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: "{}" } }],
          }),
          message({ id: 1, parentId: 0 }),
        ],
      ],
      ["an unknown field", record({ head: 0 }), [{ ...message(), extra: 1 } as never]],
      ["an id that is text", record({ head: 0 }), [message({ id: "0" as never })]],
      ["a parent that is not an integer", record({ head: 1 }), [message(), message({ id: 1, parentId: 0.5 })]],
      ["a time that is not finite", record({ head: 0 }), [message({ createdAt: Infinity })]],
      ["an unknown kind", record({ head: 0 }), [message({ kind: "note" as never })]],
      [
        "a name from the message's prototype",
        record({ head: 0 }),
        [Object.assign(Object.create({ name: 5 }), message()) as never],
      ],
      ["a system message with empty content", record({ head: 0 }), [message({ role: "system", content: "" })]],
      ["messages that are not an array", record({ head: null }), "x" as never],
      ["a head past the last message", record({ head: 3 }), [message()]],
      ["a head that is not an integer", record({ head: 0.5 }), [message()]],
    ];
    for (const [label, chat, messages] of cases) {
      it(label, async () => {
        const loom = await Loom.open({ engine, store: storeWith(chat, messages) });
        const chats = loom.user("u");
        await expectRejectCode(() => chats.open("c1"), "STORE_CORRUPT");
        await expectRejectCode(() => chats.open("c1"), "STORE_CORRUPT"); // a failed open is not cached
        await loom.close();
      });
    }

    it("a well-formed chat from the same store opens, with its head and tool units", async () => {
      const calls = [{ id: "k", type: "function" as const, function: { name: "f", arguments: "{}" } }];
      const messages = [
        message(),
        message({ id: 1, parentId: 0, role: "assistant", content: "", toolCalls: calls }),
        message({ id: 2, parentId: 1, role: "tool", content: "ok", toolCallId: "k" }),
      ];
      const loom = await Loom.open({ engine, store: storeWith(record({ head: 2, messageCount: 3 }), messages) });
      const chat = await loom.user("u").open("c1");
      expect(chat.head).toBe(2);
      expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
      const ctx = await chat.buildContext();
      expect(ctx.conversation.map((m) => m.id)).toEqual([0, 1, 2]); // the restored unit is complete
      await loom.close();
    });
  });
});
