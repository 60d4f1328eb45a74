// Issue 21, item 5: an append's key, the same contract on every store (memory, SQLite,
// PostgreSQL; the Durable Object's in test/runtime/durable-object.test.ts). The store keeps the
// key with the message, unique per chat, and answers a key it holds with the message stored
// under it, whatever id the append names; chat.append(message, { key }) retried returns that
// message, also where the tree has moved on (a tool call or result it holds already).
import { describe, expect, it } from "vitest";
import { CtxloomError, Loom, memoryStore, type Message, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { ENGINES, expectRejectCode, snapshot, withoutFastPaths } from "../helpers.js";
import { clusterForFile } from "./pg-file.js";
import { record, tempFolder } from "./sqlite-helpers.js";
import { SMALL, summaryIds, talk } from "../chat/summaries-helpers.js";

const file = tempFolder("keys");
const postgres = clusterForFile();

let n = 0;
const STORES: [string, boolean, () => () => Store][] = [
  [
    "memory",
    false,
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "sqlite",
    false,
    () => {
      const path = file(`keys-${++n}.db`);
      return () => sqliteStore(path);
    },
  ],
  [
    "postgres",
    postgres.skip,
    () => {
      const prefix = `keys${++n}_`;
      return () => postgresStore(postgres.url(), { tablePrefix: prefix });
    },
  ],
];

const msg = (id: number, content: string, parentId: number | null = id === 0 ? null : id - 1): Message => ({
  id,
  parentId,
  role: id % 2 ? "assistant" : "user",
  content,
  priority: "normal",
  tokens: 5,
  createdAt: 10 + id,
  kind: "message",
});
const call = { id: "call_1", type: "function" as const, function: { name: "weather", arguments: '{"city":"Porto"}' } };

for (const [name, skip, storeFor] of STORES) {
  describe.skipIf(skip)(`append keys: ${name}`, () => {
    it("a key the chat holds answers with its message, whatever the id; keys are per chat and per user", async () => {
      const store = storeFor()();
      await store.createChat(record({ id: "a" }));
      await store.createChat(record({ id: "b" }));
      await store.createChat(record({ id: "a", userId: "v" }));
      const m0 = msg(0, "first");
      expect(
        await store.appendMessage({ userId: "u", chatId: "a", message: m0, head: 0, updatedAt: 10, key: "k\u0000ey" }),
      ).toEqual({ ok: true });
      for (const id of [0, 1, 7])
        expect(
          await store.appendMessage({
            userId: "u",
            chatId: "a",
            message: { ...msg(id, "again"), parentId: null },
            head: id,
            updatedAt: 11,
            key: "k\u0000ey",
          }),
        ).toEqual({ ok: false, existing: m0 });
      expect(
        await store.appendMessage({ userId: "u", chatId: "a", message: msg(1, "second"), head: 1, updatedAt: 12 }),
      ).toEqual({ ok: true }); // no key: as before
      expect(
        await store.appendMessage({
          userId: "u",
          chatId: "a",
          message: msg(1, "late"),
          head: 1,
          updatedAt: 12,
          key: "other",
        }),
      ).toEqual({ ok: false, size: 2 });
      // The same key in another chat of the user, and in another user's chat of the same id.
      expect(
        await store.appendMessage({
          userId: "u",
          chatId: "b",
          message: msg(0, "b's"),
          head: 0,
          updatedAt: 13,
          key: "k\u0000ey",
        }),
      ).toEqual({ ok: true });
      expect(
        await store.appendMessage({
          userId: "v",
          chatId: "a",
          message: msg(0, "v's"),
          head: 0,
          updatedAt: 13,
          key: "k\u0000ey",
        }),
      ).toEqual({ ok: true });
      const a = (await store.loadChat("u", "a"))!;
      expect(a.chat).toMatchObject({ messageCount: 2, head: 1 });
      expect(a.messages.map((m) => m.content)).toEqual(["first", "second"]);
      expect((await store.loadChat("v", "a"))!.messages.map((m) => m.content)).toEqual(["v's"]);
      await store.close();
    });

    for (const engine of ENGINES) {
      it(`${engine}: chat.append retried under its key returns the stored message, in this Loom or a new one, and changes nothing`, async () => {
        const store = storeFor();
        const loom = await Loom.open({ engine, store: store(), counter: "heuristic" });
        const chats = loom.user("u");
        const chat = await chats.create();
        const u = await chat.append({ role: "user", content: "Weather in Porto?" }, { key: "req-1" });
        const a = await chat.append({ role: "assistant", content: "", toolCalls: [call] }, { key: "req-2" });
        const t = await chat.append({ role: "tool", toolCallId: call.id, content: "21°C" }, { key: "req-3" });
        const before = await snapshot(chat, chats);
        // Retries: the tool call's id is used and the call answered, yet each returns its message.
        expect(await chat.append({ role: "user", content: "Weather in Porto?" }, { key: "req-1" })).toEqual(u);
        expect(await chat.append({ role: "assistant", content: "", toolCalls: [call] }, { key: "req-2" })).toEqual(a);
        expect(await chat.append({ role: "tool", toolCallId: call.id, content: "21°C" }, { key: "req-3" })).toEqual(t);
        expect(await snapshot(chat, chats)).toEqual(before);
        // A retry moves the head back to its message, as the first attempt did.
        const reply = await chat.append({ role: "assistant", content: "Mild." });
        expect(await chat.append({ role: "tool", toolCallId: call.id, content: "21°C" }, { key: "req-3" })).toEqual(t);
        expect(chat.head).toBe(t.id);
        await chat.checkout(reply.id);
        // Without a key, the tree's rules stand.
        await expectRejectCode(
          () => chat.append({ role: "tool", toolCallId: call.id, content: "21°C" }),
          "INVALID_TOOL_CALL",
        );
        await loom.close();
        // Another Loom (another server) that never saw these appends.
        const other = await Loom.open({ engine, store: store(), counter: "heuristic" });
        const again = await other.user("u").open(chat.id);
        expect(await again.append({ role: "assistant", content: "", toolCalls: [call] }, { key: "req-2" })).toEqual(a);
        expect(again.messageCount).toBe(4);
        await other.close();
      });
    }

    it("a key given to another message is refused (INVALID_ARGUMENT), and so are bad options; nothing changes", async () => {
      const loom = await Loom.open({ store: storeFor()(), counter: "heuristic" });
      const chats = loom.user("u");
      const chat = await chats.create();
      await chat.append({ role: "user", content: "hi" }, { key: "k" });
      const before = await snapshot(chat, chats);
      await expectRejectCode(
        () => chat.append({ role: "user", content: "something else" }, { key: "k" }),
        "INVALID_ARGUMENT",
      );
      for (const options of [
        { key: "" },
        { key: 5 },
        { key: "\ud800" },
        { key: "x".repeat(201) },
        { kye: "k" },
        null,
        "k",
      ]) {
        await expectRejectCode(
          () => chat.append({ role: "assistant", content: "ok" }, options as never),
          "INVALID_ARGUMENT",
        );
      }
      await expect(chat.append({ role: "assistant", content: "ok" }, { kye: "k" } as never)).rejects.toThrow(
        /did you mean "key"/,
      );
      expect(await snapshot(chat, chats)).toEqual(before);
      await loom.close();
    });
  });
}

/**
 * The memory store (kept outside the chat: no resident columns, so the Loom gives every append
 * a key) behind a connection that loses answers: the write is made, then the answer is lost
 * (STORE_OUTCOME_UNKNOWN) for the appends `lose` picks, `times` times each.
 */
function losingStore(lose: (m: Message) => boolean, times = 1) {
  const inner = memoryStore();
  const lost: number[] = [];
  const store: Store = {
    ...inner,
    ...withoutFastPaths,
    appendMessage: async ({ userId, chatId, message: m, head, updatedAt, key }) => {
      const answer = inner.appendMessage({ userId, chatId, message: m, head, updatedAt, key });
      if (lose(m) && lost.filter((id) => id === m.id).length < times) {
        lost.push(m.id);
        throw new CtxloomError("STORE_OUTCOME_UNKNOWN", "The connection was lost after the append was sent.");
      }
      return answer;
    },
  };
  return { store, lost };
}

describe("a store that loses the answer to an append it made", () => {
  for (const engine of ENGINES) {
    it(`${engine}: a message and a summary are stored once, and the chat has them`, async () => {
      const { store, lost } = losingStore((m) => m.content === "lost" || m.kind === "summary");
      const loom = await Loom.open({ engine, store, summaries: true });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 60);
      const m = await chat.append({ role: "user", content: "lost" });
      expect([m.id, chat.head, chat.messageCount]).toEqual([120, 120, 121]);
      const ctx = await chat.buildContext();
      expect(ctx.compressed).toBe(true);
      expect(lost).toEqual([120, 121]); // both answers were lost once
      const stored = (await store.loadChat("u", chat.id))!.messages;
      expect(stored.filter((x) => x.content === "lost")).toHaveLength(1);
      expect(stored.filter((x) => x.kind === "summary")).toHaveLength(1);
      expect(summaryIds(chat)).toEqual([121]);
      expect(chat.head).toBe(120); // a summary leaves the head where it was
      await loom.close();
    });
  }

  it("lost twice: STORE_OUTCOME_UNKNOWN naming the key, the chat unchanged; a retry under the key returns the message stored", async () => {
    const { store, lost } = losingStore((m) => m.content === "lost", 2);
    const loom = await Loom.open({ store, counter: "heuristic" });
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "first" });
    const before = await snapshot(chat);
    const e = (await chat.append({ role: "assistant", content: "lost" }).catch((x: unknown) => x)) as CtxloomError;
    expect([e.code, lost]).toEqual(["STORE_OUTCOME_UNKNOWN", [1, 1]]);
    expect(await snapshot(chat)).toEqual(before); // the chat knows of no new message (the store holds it)
    const key = /key: ("[^"]+")/.exec(e.message)![1]!;
    const m = await chat.append({ role: "assistant", content: "lost" }, { key: JSON.parse(key) as string });
    expect([m.id, chat.head, chat.messageCount]).toEqual([1, 1, 2]);
    expect((await store.loadChat("u", chat.id))!.messages.map((x) => x.content)).toEqual(["first", "lost"]);
    await loom.close();
  });
});
