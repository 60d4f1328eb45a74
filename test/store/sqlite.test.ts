// The SQLite store's contract: what it writes comes back exactly, the conditional append and
// the head's compare-and-set, embeddings, both durability modes, and refusals of bad calls.
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { CtxloomError, Message } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Durability } from "../../src/store-entry.js";
import { expectRejectCode, expectThrowCode } from "../helpers.js";
import { chain, message, record, tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("sqlite");
const DURABILITIES: Durability[] = ["full", "batched"];

describe.each(DURABILITIES)("sqliteStore, durability %s", (durability) => {
  it("gives back what it was given, field for field, after a reopen", async () => {
    const path = file("roundtrip.db");
    const store = sqliteStore(path, { durability });
    const chat = record({ system: "be brief", options: { budget: { system: 0.2 }, historyLimits: true } });
    await store.createChat(chat);
    const messages: Message[] = [
      message({ content: "héllo 👋\u0000nul", priority: "high", name: "ann" }),
      message({
        id: 1,
        parentId: 0,
        role: "assistant",
        content: "",
        priority: "low",
        toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      }),
      message({
        id: 2,
        parentId: 1,
        role: "tool",
        content: "42",
        priority: "low",
        toolCallId: "k",
        tokens: 2 ** 30 - 1,
      }),
      message({
        id: 3,
        parentId: 0,
        role: "system",
        content: "summary",
        kind: "summary",
        priority: "critical",
        covers: { first: 0, last: 2 },
        createdAt: 1.5e12,
      }),
    ];
    for (const m of messages)
      expect(
        await store.appendMessage({ userId: "u", chatId: "c1", message: m, head: m.id, updatedAt: 10 + m.id }),
      ).toEqual({ ok: true });
    expect(await store.setHead({ userId: "u", chatId: "c1", head: 2, updatedAt: 20 })).toBe(true);
    await store.close();
    const again = sqliteStore(path, { durability });
    const loaded = (await again.loadChat("u", "c1"))!;
    expect(loaded.messages).toEqual(messages);
    expect(loaded.chat).toEqual({ ...chat, head: 2, updatedAt: 20, messageCount: 4 });
    expect((await again.loadChat("u", "c1", 2))!.messages).toEqual(messages.slice(2));
    expect((await again.loadChat("u", "c1", 9))!.messages).toEqual([]);
    expect(await again.loadChat("u", "nope")).toBeUndefined();
    expect(await again.loadChat("other", "c1")).toBeUndefined();
    await again.close();
  });

  it("appends only the chat's next id: a stale id is a conflict that writes nothing", async () => {
    const store = sqliteStore(file("conditional.db"), { durability });
    await store.createChat(record());
    await chain(store, 3);
    expect(
      await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 1, parentId: 0 }),
        head: 1,
        updatedAt: 500,
      }),
    ).toEqual({ ok: false, size: 3 });
    expect(
      await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 7, parentId: 0 }),
        head: 7,
        updatedAt: 500,
      }),
    ).toEqual({ ok: false, size: 3 });
    const loaded = (await store.loadChat("u", "c1"))!;
    expect(loaded.messages.map((m) => m.content)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.chat).toMatchObject({ head: 2, updatedAt: 102, messageCount: 3 });
    await store.close();
  });

  it("moves the head, and compares-and-sets it when told what to expect", async () => {
    const store = sqliteStore(file("head.db"), { durability });
    await store.createChat(record());
    expect(await store.setHead({ userId: "u", chatId: "c1", head: null, updatedAt: 5, expected: null })).toBe(true);
    await chain(store, 3);
    expect(await store.setHead({ userId: "u", chatId: "c1", head: 0, updatedAt: 200, expected: 1 })).toBe(false);
    expect((await store.loadChat("u", "c1"))!.chat).toMatchObject({ head: 2, updatedAt: 102 });
    expect(await store.setHead({ userId: "u", chatId: "c1", head: 0, updatedAt: 200, expected: 2 })).toBe(true);
    expect(await store.setHead({ userId: "u", chatId: "c1", head: 1, updatedAt: 201 })).toBe(true);
    expect((await store.loadChat("u", "c1"))!.chat).toMatchObject({ head: 1, updatedAt: 201 });
    await expectRejectCode(
      () => store.setHead({ userId: "u", chatId: "c1", head: 3, updatedAt: 300 }),
      "UNKNOWN_MESSAGE",
    );
    await expectRejectCode(() => store.setHead({ userId: "u", chatId: "zz", head: 0, updatedAt: 300 }), "UNKNOWN_CHAT");
    await store.close();
  });

  it("lists a user's chats by last update, reading records only, and deletes with messages and embeddings", async () => {
    const store = sqliteStore(file("list.db"), { durability });
    await store.createChat(record({ id: "a", updatedAt: 5 }));
    await store.createChat(record({ id: "b", updatedAt: 9 }));
    await store.createChat(record({ id: "c", userId: "other", updatedAt: 7 }));
    await store.createChat(record({ id: "a", userId: "other", updatedAt: 1 })); // chat ids are per user
    await chain(store, 2, 0, "a");
    expect((await store.listChats("u")).map((c) => [c.id, c.messageCount])).toEqual([
      ["a", 2],
      ["b", 0],
    ]);
    expect((await store.listChats("other")).map((c) => c.id)).toEqual(["c", "a"]);
    await store.putEmbeddings({
      userId: "u",
      chatId: "a",
      embedder: { name: "e", dimension: 2 },
      rows: [{ messageId: 0, vector: new Float32Array([1, 2]) }],
    });
    expect(await store.deleteChat("other", "b")).toBe(false);
    expect(await store.deleteChat("u", "a")).toBe(true);
    expect(await store.deleteChat("u", "a")).toBe(false);
    expect(await store.loadChat("u", "a")).toBeUndefined();
    expect((await store.loadChat("other", "a"))!.chat.userId).toBe("other");
    const db = store.database;
    await store.flush();
    expect(db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM embeddings").pluck().get()).toBe(0);
    await expectRejectCode(() => store.createChat(record({ id: "b" })), "CHAT_EXISTS");
    await store.close();
  });

  it("keeps embeddings per embedder (name and dimension), replaces a message's vector, and clears them", async () => {
    const store = sqliteStore(file("embeddings.db"), { durability });
    await store.createChat(record());
    await store.createChat(record({ id: "c2" }));
    await chain(store, 3);
    await chain(store, 1, 0, "c2");
    const e2 = { name: "hash", dimension: 2 };
    await store.putEmbeddings({
      userId: "u",
      chatId: "c1",
      embedder: e2,
      rows: [
        { messageId: 2, vector: new Float32Array([0.5, -1]) },
        { messageId: 0, vector: new Float32Array([1, 2]) },
      ],
    });
    await store.putEmbeddings({
      userId: "u",
      chatId: "c1",
      embedder: e2,
      rows: [{ messageId: 0, vector: new Float32Array([3, 4]) }],
    });
    await store.putEmbeddings({
      userId: "u",
      chatId: "c1",
      embedder: { name: "hash", dimension: 3 },
      rows: [{ messageId: 1, vector: new Float32Array([1, 1, 1]) }],
    });
    await store.putEmbeddings({
      userId: "u",
      chatId: "c2",
      embedder: e2,
      rows: [{ messageId: 0, vector: new Float32Array(new Float32Array([9, 9, 9]).buffer, 4, 2) }],
    });
    expect(await store.loadEmbeddings("u", "c1", e2)).toEqual([
      { messageId: 0, vector: new Float32Array([3, 4]) },
      { messageId: 2, vector: new Float32Array([0.5, -1]) },
    ]);
    expect(await store.loadEmbeddings("u", "c2", e2)).toEqual([{ messageId: 0, vector: new Float32Array([9, 9]) }]);
    expect(await store.loadEmbeddings("u", "c1", { name: "other", dimension: 2 })).toEqual([]);
    await store.clearEmbeddings("u", "c1");
    expect(await store.loadEmbeddings("u", "c1", e2)).toEqual([]);
    expect(await store.loadEmbeddings("u", "c2", e2)).toHaveLength(1);
    await store.clearEmbeddings("u");
    expect(await store.loadEmbeddings("u", "c2", e2)).toEqual([]);
    expect((await store.loadChat("u", "c1"))!.messages).toHaveLength(3);
    await expectRejectCode(
      () =>
        store.putEmbeddings({
          userId: "u",
          chatId: "c1",
          embedder: e2,
          rows: [{ messageId: 3, vector: new Float32Array(2) }],
        }),
      "UNKNOWN_MESSAGE",
    );
    await expectRejectCode(
      () =>
        store.putEmbeddings({
          userId: "u",
          chatId: "c1",
          embedder: e2,
          rows: [{ messageId: 0, vector: new Float32Array(3) }],
        }),
      "INVALID_ARGUMENT",
    );
    await store.close();
  });

  it("refuses bad calls with coded errors and writes nothing", async () => {
    const store = sqliteStore(file("bad.db"), { durability });
    await store.createChat(record());
    await chain(store, 1);
    const cases: [() => Promise<unknown>, string][] = [
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1, role: "robot" as never }),
            head: 1,
            updatedAt: 1,
          }),
        "INVALID_ROLE",
      ],
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1, priority: "urgent" as never }),
            head: 1,
            updatedAt: 1,
          }),
        "INVALID_PRIORITY",
      ],
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1, content: 42 as never }),
            head: 1,
            updatedAt: 1,
          }),
        "INVALID_CONTENT",
      ],
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1, parentId: 1 }),
            head: 1,
            updatedAt: 1,
          }),
        "INVALID_ARGUMENT",
      ],
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1, tokens: -1 }),
            head: 1,
            updatedAt: 1,
          }),
        "INVALID_ARGUMENT",
      ],
      [
        () => store.appendMessage({ userId: "u", chatId: "c1", message: message({ id: 1 }), head: 2, updatedAt: 1 }),
        "UNKNOWN_MESSAGE",
      ],
      [
        () =>
          store.appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 1 }),
            head: 1,
            updatedAt: Number.NaN,
          }),
        "INVALID_ARGUMENT",
      ],
      [
        () => store.appendMessage({ userId: "u", chatId: "zz", message: message({ id: 1 }), head: 1, updatedAt: 1 }),
        "UNKNOWN_CHAT",
      ],
      [() => store.loadChat("u", "c1", -1), "INVALID_ARGUMENT"],
      [() => store.listChats(""), "INVALID_ARGUMENT"],
      [() => store.createChat(record({ id: "x", head: 0 })), "INVALID_ARGUMENT"],
      [
        () => store.putEmbeddings({ userId: "u", chatId: "c1", embedder: { name: "", dimension: 2 }, rows: [] }),
        "INVALID_ARGUMENT",
      ],
    ];
    for (const [call, code] of cases) await expectRejectCode(call, code);
    const loaded = (await store.loadChat("u", "c1"))!;
    expect(loaded.messages.map((m) => m.id)).toEqual([0]);
    expect(loaded.chat).toMatchObject({ head: 0, messageCount: 1, updatedAt: 100 });
    expect((await store.listChats("u")).map((c) => c.id)).toEqual(["c1"]);
    await store.close();
    await store.close(); // twice is fine
    await expectRejectCode(() => store.loadChat("u", "c1"), "STORE_FAILED");
  });
});

describe("sqliteStore options", () => {
  it("refuses unknown keys, naming the closest, and bad values", () => {
    expectThrowCode(() => sqliteStore(file("o.db"), { durabilty: "full" } as never), "INVALID_ARGUMENT");
    try {
      sqliteStore(file("o.db"), { durabilty: "full" } as never);
    } catch (e) {
      expect((e as CtxloomError).message).toContain('did you mean "durability"');
    }
    expectThrowCode(() => sqliteStore(file("o.db"), { durability: "eventual" as never }), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore(file("o.db"), { batchSize: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore(file("o.db"), { batchDelayMs: -1 }), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore(file("o.db"), { busyTimeoutMs: 1.5 }), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore(file("o.db"), "full" as never), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore("" as never), "INVALID_ARGUMENT");
    expectThrowCode(() => sqliteStore(42 as never), "INVALID_ARGUMENT");
  });

  it('":memory:" is a private, temporary database', async () => {
    const store = sqliteStore(":memory:");
    await store.createChat(record());
    await chain(store, 2);
    expect((await store.loadChat("u", "c1"))!.messages).toHaveLength(2);
    await store.close();
  });

  it("names itself after its path and reports its durability", async () => {
    const path = file("name.db");
    const store = sqliteStore(path, { durability: "batched" });
    expect(store.name).toBe(`sqlite:${path}`);
    expect(store.durability).toBe("batched");
    expect(store.database.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.database.pragma("synchronous", { simple: true })).toBe(2); // FULL
    await store.close();
  });
});

describe("batched durability", () => {
  it("commits at batchSize writes, on its timer, on flush and on close; other connections see only commits", async () => {
    // The batch timer and the batch's age on a fake clock: "its timer has fired" is then a fact, not a sleep that a
    // loaded machine outlasts, and a write never finds the batch batchDelayMs old because the machine was slow.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    onTestFinished(() => void vi.useRealTimers());
    const path = file("batch.db");
    const store = sqliteStore(path, { durability: "batched", batchSize: 10, batchDelayMs: 20 });
    const reader = sqliteStore(path, { durability: "full" });
    const committed = async () => (await reader.loadChat("u", "c1"))?.messages.length ?? -1;
    await store.createChat(record());
    await chain(store, 4);
    expect(await committed()).toBe(-1); // not even the chat: its creation is in the open batch
    await chain(store, 5, 4); // the 10th write (the create and 9 appends) commits
    expect(await committed()).toBe(9);
    await chain(store, 1, 9);
    expect((await store.loadChat("u", "c1"))!.messages).toHaveLength(10); // this connection sees its own batch
    expect(await committed()).toBe(9);
    await vi.advanceTimersByTimeAsync(19);
    expect(await committed()).toBe(9); // not before its batchDelayMs
    await vi.advanceTimersByTimeAsync(1);
    expect(await committed()).toBe(10);
    await chain(store, 1, 10);
    await store.flush();
    expect(await committed()).toBe(11);
    await chain(store, 1, 11);
    await store.close();
    expect(await committed()).toBe(12);
    expect((await reader.loadChat("u", "c1"))!.chat).toMatchObject({ head: 11, messageCount: 12, updatedAt: 111 });
    await reader.close();
  });

  it("the conditional append stays exact inside a batch, and a second store of this process on the file takes its turn", async () => {
    const path = file("turns.db");
    const a = sqliteStore(path, { durability: "batched", batchDelayMs: 10_000 });
    const b = sqliteStore(path, { durability: "batched", batchDelayMs: 10_000, busyTimeoutMs: 200 });
    await a.createChat(record());
    await chain(a, 2);
    // b needs the write lock that a's open batch holds: a commits first, then b sees its writes.
    expect(
      await b.appendMessage({ userId: "u", chatId: "c1", message: message({ id: 1 }), head: 1, updatedAt: 1 }),
    ).toEqual({ ok: false, size: 2 });
    await chain(b, 1, 2);
    expect(
      await a.appendMessage({ userId: "u", chatId: "c1", message: message({ id: 2 }), head: 2, updatedAt: 1 }),
    ).toEqual({ ok: false, size: 3 });
    await chain(a, 1, 3);
    await a.close();
    await b.close();
    const check = sqliteStore(path);
    expect((await check.loadChat("u", "c1"))!.messages.map((m) => m.content)).toEqual(["m0", "m1", "m2", "m3"]);
    await check.close();
  });
});

describe("a long chat loads in chunks of ids", () => {
  it("gives back every message as written (optional fields, summaries, odd texts), whole and from any `since`", {
    timeout: 60_000,
  }, async () => {
    const path = file("long.db");
    const store = sqliteStore(path, { durability: "batched" });
    await store.createChat(record());
    const written: Message[] = [];
    for (let id = 0; id < 2600; id++) {
      const m = message({
        id,
        parentId: id === 0 ? null : id % 97 === 0 ? id - 3 : id - 1,
        content: `m${id} é 😀 ${"x".repeat(id % 300)}`,
        tokens: id * 7,
        createdAt: 1_700_000_000_000 + id * 1.5,
      });
      if (id % 10 === 5)
        Object.assign(m, {
          role: "assistant",
          content: "",
          toolCalls: [{ id: `call${id}`, type: "function", function: { name: "f", arguments: `{"n":${id}}` } }],
        });
      if (id % 10 === 6) Object.assign(m, { role: "tool", toolCallId: `call${id - 1}`, priority: "high" });
      if (id % 10 === 7) m.name = `name${id}`;
      if (id % 500 === 499)
        Object.assign(m, { kind: "summary", role: "system", covers: { first: id - 10, last: id - 1 } });
      if (id % 333 === 0) m.content = `with a NUL \u0000 inside ${id}`;
      const r = await store.appendMessage({ userId: "u", chatId: "c1", message: m, head: id, updatedAt: 1 });
      expect(r).toEqual({ ok: true });
      written.push(m);
    }
    for (const since of [0, 1, 1023, 1024, 1500, 2599, 2600]) {
      const loaded = (await store.loadChat("u", "c1", since))!;
      expect(loaded.messages).toEqual(written.slice(since));
    }
    await store.close();
  });
});
