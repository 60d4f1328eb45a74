// The store contract's cases of a chat's writes (ctxloom/store/contract): appends (only as the
// next id, keys answering the stored message), setHead with and without expected, and embeddings
// per embedder; each case on a fresh store, as contract-chats.ts's cases are. No test framework here.
import { e2, message, record } from "./contract-fixtures.js";
import { type ChatCase, chatOf, first, vectors } from "./contract-chats.js";

export const WRITE_CASES: ChatCase[] = [
  {
    name:
      "appendMessage: lands only as the chat's next id, moving the head; otherwise answers the size and writes " +
      "nothing",
    async run(store) {
      await chatOf(store, 2);
      const ahead = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 3, parentId: 1 }),
        head: 3,
        updatedAt: 200,
      });
      const behind = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 1, parentId: 0, content: "late" }),
        head: 1,
        updatedAt: 200,
      });
      const next = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 2, parentId: 0, content: "branch" }),
        head: 2,
        updatedAt: 300,
      });
      const chat = await store.loadChat("u", "c1");
      return {
        ahead,
        behind,
        next,
        record: chat?.chat,
        contents: chat?.messages.map((m) => [m.id, m.parentId, m.content]),
      };
    },
    expected: {
      ahead: { ok: false, size: 2 },
      behind: { ok: false, size: 2 },
      next: { ok: true },
      record: record({ messageCount: 3, head: 2, updatedAt: 300 }),
      contents: [
        [0, null, "m0"],
        [1, 0, "m1"],
        [2, 0, "branch"],
      ],
    },
  },
  {
    name:
      "appendMessage: a key the chat holds answers the message stored under it, writing nothing; keys are the " +
      "chat's own",
    async run(store) {
      await store.createChat(record());
      await store.createChat(record({ id: "c2" }));
      const once = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: first({ content: "once" }),
        head: 0,
        updatedAt: 101,
        key: "k1",
      });
      const again = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 1, parentId: 0, content: "twice" }),
        head: 1,
        updatedAt: 102,
        key: "k1",
      });
      const other = await store.appendMessage({
        userId: "u",
        chatId: "c2",
        message: first({ content: "other chat" }),
        head: 0,
        updatedAt: 103,
        key: "k1",
      });
      return { once, again, c1: (await store.loadChat("u", "c1"))?.chat.messageCount, other };
    },
    expected: {
      once: { ok: true },
      again: { ok: false, existing: first({ content: "once" }) },
      c1: 1,
      other: { ok: true },
    },
  },
  {
    name: "setHead: moves the head; with expected, only when the stored head equals it",
    async run(store) {
      await chatOf(store, 3);
      const head = async () => (await store.loadChat("u", "c1"))?.chat.head;
      const moved = await store.setHead({ userId: "u", chatId: "c1", head: 0, updatedAt: 200 });
      const stale = await store.setHead({ userId: "u", chatId: "c1", head: 1, updatedAt: 201, expected: 2 });
      const afterStale = await head();
      const swapped = await store.setHead({ userId: "u", chatId: "c1", head: 1, updatedAt: 202, expected: 0 });
      const cleared = await store.setHead({ userId: "u", chatId: "c1", head: null, updatedAt: 203, expected: 1 });
      const record = (await store.loadChat("u", "c1"))?.chat;
      return {
        moved,
        stale,
        afterStale,
        swapped,
        cleared,
        head: record?.head,
        updatedAt: record?.updatedAt,
        count: record?.messageCount,
      };
    },
    expected: {
      moved: true,
      stale: false,
      afterStale: 0,
      swapped: true,
      cleared: true,
      head: null,
      updatedAt: 203,
      count: 3,
    },
  },
  {
    name:
      "embeddings: kept per embedder (name and dimension), in message id order, replaced per message, cleared " +
      "per chat or user",
    async run(store) {
      await chatOf(store, 3);
      await store.createChat(record({ id: "c2" }));
      await store.appendMessage({ userId: "u", chatId: "c2", message: first(), head: 0, updatedAt: 101 });
      const e3 = { name: "e", dimension: 3 };
      const f2 = { name: "f", dimension: 2 };
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [
          { messageId: 2, vector: new Float32Array([2, 2]) },
          { messageId: 0, vector: new Float32Array([0, 0]) },
        ],
      });
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [{ messageId: 2, vector: new Float32Array([2.5, -1]) }],
      });
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e3,
        rows: [{ messageId: 1, vector: new Float32Array([1, 1, 1]) }],
      });
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: f2,
        rows: [{ messageId: 1, vector: new Float32Array([9, 9]) }],
      });
      await store.putEmbeddings({
        userId: "u",
        chatId: "c2",
        embedder: e2,
        rows: [{ messageId: 0, vector: new Float32Array([7, 7]) }],
      });
      const out: Record<string, unknown> = {
        "e/2": vectors(await store.loadEmbeddings("u", "c1", e2)),
        "e/3": vectors(await store.loadEmbeddings("u", "c1", e3)),
        "f/2": vectors(await store.loadEmbeddings("u", "c1", f2)),
        "g/2": vectors(await store.loadEmbeddings("u", "c1", { name: "g", dimension: 2 })),
      };
      await store.clearEmbeddings("u", "c1");
      out["c1 cleared"] = [
        vectors(await store.loadEmbeddings("u", "c1", e2)),
        vectors(await store.loadEmbeddings("u", "c1", e3)),
      ];
      out["c2 kept"] = vectors(await store.loadEmbeddings("u", "c2", e2));
      out["messages kept"] = (await store.loadChat("u", "c1"))?.messages.length;
      await store.clearEmbeddings("u");
      out["all cleared"] = vectors(await store.loadEmbeddings("u", "c2", e2));
      return out;
    },
    expected: {
      "e/2": [
        [0, [0, 0]],
        [2, [2.5, -1]],
      ],
      "e/3": [[1, [1, 1, 1]]],
      "f/2": [[1, [9, 9]]],
      "g/2": [],
      "c1 cleared": [[], []],
      "c2 kept": [[0, [7, 7]]],
      "messages kept": 3,
      "all cleared": [],
    },
  },
];
