// The store contract's cases of the optional writes that remove or rewrite (ctxloom/store/contract):
// redactMessages, eraseUser, pruneChats, on the store itself. No test framework here: workers and
// pages bundle this file.
import type { Message } from "../message.js";
import { e2, message, note, record } from "./contract-fixtures.js";
import { chatOf, ids, loaded, vectors, type ChatCase } from "./contract-chats.js";
import type { Store } from "./types.js";

const call = { id: "call_1", type: "function" as const, function: { name: "look", arguments: '{"q":"secret"}' } };
const erased = { ...call, function: { name: "look", arguments: "{}" } };

/** User `userId`'s chat `id`: a question with a part, a tool call, its result; updatedAt as given. */
async function threeOf(store: Store, userId: string, id: string, updatedAt = 1): Promise<void> {
  await store.createChat(record({ id, userId, updatedAt, createdAt: 1 }));
  const messages: Message[] = [
    message({
      id: 0,
      parentId: null,
      role: "user",
      content: "secret question",
      parts: [{ type: "text", text: "secret question" }],
    }),
    message({ id: 1, parentId: 0, content: "", toolCalls: [call] }),
    message({ id: 2, parentId: 1, role: "tool", toolCallId: "call_1", content: "secret result" }),
  ];
  for (const m of messages) await store.appendMessage({ userId, chatId: id, message: m, head: m.id, updatedAt });
}

/** The optional methods a case of this file calls. */
type Uses = readonly (
  | "redactMessages"
  | "eraseUser"
  | "pruneChats"
  | "markEmbeddingsCleared"
  | "loadEmbeddingsCleared"
)[];

export const RETENTION_CASES: (ChatCase & { uses: Uses })[] = [
  {
    name:
      "redactMessages: each message named takes its new content, tool calls and tokens, losing its parts and " +
      "vectors",
    uses: ["redactMessages"],
    async run(store) {
      await threeOf(store, "u", "c1");
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [0, 1, 2].map((messageId) => ({ messageId, vector: new Float32Array([messageId, 1]) })),
      });
      const redacted = await store.redactMessages!("u", "c1", [
        { id: 0, content: "[redacted]", tokens: 2 },
        { id: 1, content: "", toolCalls: [erased], tokens: 3 },
      ]);
      return {
        redacted,
        "a chat the user lacks": await store.redactMessages!("u", "zz", [{ id: 0, content: "x", tokens: 1 }]),
        "the chat": await loaded(store, "u", "c1"),
        vectors: vectors(await store.loadEmbeddings("u", "c1", e2)),
      };
    },
    expected: {
      redacted: true,
      "a chat the user lacks": false,
      "the chat": {
        chat: record({ messageCount: 3, head: 2 }),
        messages: [
          message({ id: 0, parentId: null, role: "user", content: "[redacted]", tokens: 2 }),
          message({ id: 1, parentId: 0, content: "", toolCalls: [erased], tokens: 3 }),
          message({ id: 2, parentId: 1, role: "tool", toolCallId: "call_1", content: "secret result" }),
        ],
      },
      vectors: [[2, [2, 1]]],
    },
  },
  {
    name:
      "eraseUser: every chat, message, vector and memory of the user goes; answers what it removed; other users " +
      "stay",
    uses: ["eraseUser"],
    async run(store) {
      await threeOf(store, "u", "c1");
      await threeOf(store, "u", "c2");
      await store.createChat(record({ id: "c3" }));
      await threeOf(store, "v", "c1");
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [{ messageId: 0, vector: new Float32Array([1, 1]) }],
      });
      const memory = typeof store.writeMemory === "function";
      if (memory) await store.writeMemory!({ userId: "u", chatId: null, expected: 0, records: [note()] });
      const erased = await store.eraseUser!("u");
      return {
        erased,
        again: await store.eraseUser!("u"),
        "the user's chats": ids(await store.listChats("u")),
        c1: await loaded(store, "u", "c1"),
        vectors: vectors(await store.loadEmbeddings("u", "c1", e2)),
        memory: memory ? (await store.loadMemory!("u", null)).revision : 0,
        "the other user's": (await loaded(store, "v", "c1"))?.messages.length,
      };
    },
    expected: {
      erased: { chats: 3, messages: 6 },
      again: { chats: 0, messages: 0 },
      "the user's chats": [],
      c1: undefined,
      vectors: [],
      memory: 0,
      "the other user's": 3,
    },
  },
  {
    name: "pruneChats: batches remove chats idle before a time or past a user's newest, until next is null",
    uses: ["pruneChats"],
    async run(store) {
      for (const [userId, id, updatedAt] of [
        ["a", "old", 10],
        ["a", "new", 500],
        ["b", "old", 20],
        ["b", "mid", 300],
        ["b", "new", 400],
      ] as const) {
        await threeOf(store, userId, id, updatedAt);
      }
      const removed: string[] = [];
      const batches = async (query: { idleBefore?: number; keepNewest?: number }) => {
        let after: string | undefined;
        let count = 0;
        do {
          const batch = await store.pruneChats!({ ...query, limit: 1, ...(after === undefined ? {} : { after }) });
          for (const r of batch.removed) removed.push(`${r.userId}/${r.chatId} ${r.updatedAt} ${r.messageCount}`);
          after = batch.next ?? undefined;
          count++;
        } while (after !== undefined && count < 50);
        return count < 50;
      };
      const idleDone = await batches({ idleBefore: 100 });
      const idle = removed.splice(0).sort();
      const newestDone = await batches({ keepNewest: 1 });
      return {
        idle,
        "idle: done": idleDone,
        "keepNewest 1": removed.sort(),
        "keepNewest: done": newestDone,
        "a's chats": ids(await store.listChats("a")),
        "b's chats": ids(await store.listChats("b")),
        "b/old": await loaded(store, "b", "old"),
      };
    },
    expected: {
      idle: ["a/old 10 3", "b/old 20 3"],
      "idle: done": true,
      "keepNewest 1": ["b/mid 300 3"],
      "keepNewest: done": true,
      "a's chats": ["new"],
      "b's chats": ["new"],
      "b/old": undefined,
    },
  },
  {
    name:
      "markEmbeddingsCleared: a chat's clear mark reads back, the greatest holds; clearEmbeddings and " +
      "deleteChat drop it",
    uses: ["markEmbeddingsCleared", "loadEmbeddingsCleared"],
    async run(store) {
      await chatOf(store, 4);
      await store.createChat(record({ id: "c2" }));
      await store.appendMessage({
        userId: "u",
        chatId: "c2",
        message: message({ id: 0, parentId: null }),
        head: 0,
        updatedAt: 101,
      });
      const mark = (chatId: string) => store.loadEmbeddingsCleared!("u", chatId);
      const out: Record<string, unknown> = { "none yet": await mark("c1"), "a chat the user lacks": await mark("zz") };
      await store.markEmbeddingsCleared!("u", "c1", 1);
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [{ messageId: 3, vector: new Float32Array([3, 3]) }],
      });
      out["marked 1"] = await mark("c1");
      await store.markEmbeddingsCleared!("u", "c1", 3);
      await store.markEmbeddingsCleared!("u", "c1", 2);
      out["marked 3, then 2"] = await mark("c1");
      out["vectors kept"] = vectors(await store.loadEmbeddings("u", "c1", e2));
      out["another chat's"] = await mark("c2");
      out["another user's"] = await store.loadEmbeddingsCleared!("v", "c1");
      await store.markEmbeddingsCleared!("u", "c2", 0);
      await store.clearEmbeddings("u", "c1");
      out["after clearing c1"] = [await mark("c1"), await mark("c2")];
      await store.deleteChat("u", "c2");
      await store.createChat(record({ id: "c2" }));
      out["c2 deleted, made again"] = await mark("c2");
      await store.markEmbeddingsCleared!("u", "c1", 0);
      await store.clearEmbeddings("u");
      out["after clearing the user's"] = await mark("c1");
      return out;
    },
    expected: {
      "none yet": null,
      "a chat the user lacks": null,
      "marked 1": 1,
      "marked 3, then 2": 3,
      "vectors kept": [[3, [3, 3]]],
      "another chat's": null,
      "another user's": null,
      "after clearing c1": [null, 0],
      "c2 deleted, made again": null,
      "after clearing the user's": null,
    },
  },
];
