// The store contract's cases of chats (ctxloom/store/contract): what every store answers of the
// required methods, each case on a fresh store, as [what it did, what it saw] to compare with
// what it must see. No test framework here: workers and pages bundle this file.
import type { Store } from "./types.js";
import { e2, message, outcome, record } from "./contract-fixtures.js";

/** One case: its name, what it sees on a fresh store, and what it must see. */
export interface ChatCase {
  name: string;
  run(store: Store): Promise<Record<string, unknown>>;
  expected: Record<string, unknown>;
}

export const first = (over = {}) => message({ id: 0, parentId: null, role: "user", ...over });
export const ids = (rows: { id: string }[]) => rows.map((c) => c.id);
/** What loadChat answered: the chat and its messages (undefined for none). */
export const loaded = async (store: Store, userId: string, chatId: string) => {
  const chat = await store.loadChat(userId, chatId);
  return chat && { chat: chat.chat, messages: chat.messages };
};
export const vectors = (rows: { messageId: number; vector: Float32Array }[]) =>
  rows.map((r) => [r.messageId, [...r.vector]]);

/**
 * User "u"'s chat "c1" of `count` messages (ids 0.., each the parent of the next), head the last, updatedAt 100 +
 * count.
 */
export async function chatOf(store: Store, count: number): Promise<void> {
  await store.createChat(record());
  for (let id = 0; id < count; id++) {
    await store.appendMessage({
      userId: "u",
      chatId: "c1",
      message: message({ id, parentId: id === 0 ? null : id - 1, content: `m${id}` }),
      head: id,
      updatedAt: 101 + id,
    });
  }
}

const TEN_RACING = [
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "CHAT_EXISTS",
  "ok",
];

export const CHAT_CASES: ChatCase[] = [
  {
    name:
      "createChat and loadChat: the record reads back as given; loadChat answers undefined for a chat the user " +
      "lacks",
    async run(store) {
      const options = { budget: { conversation: 0.5 }, metadata: { tags: ["a", "ü"], n: 1.5, none: null } };
      await store.createChat(record({ system: "be brief", options }));
      await store.createChat(record({ id: "c2", title: "" }));
      return {
        c1: await loaded(store, "u", "c1"),
        c2: (await store.loadChat("u", "c2"))?.chat,
        "another user's": await store.loadChat("v", "c1"),
        "an id the user lacks": await store.loadChat("u", "zz"),
      };
    },
    expected: {
      c1: {
        chat: record({
          system: "be brief",
          options: { budget: { conversation: 0.5 }, metadata: { tags: ["a", "ü"], n: 1.5, none: null } },
        }),
        messages: [],
      },
      c2: record({ id: "c2", title: "" }),
      "another user's": undefined,
      "an id the user lacks": undefined,
    },
  },
  {
    name: "hasChat: true for the user's chat only",
    async run(store) {
      await store.createChat(record());
      return {
        "the user's": await store.hasChat("u", "c1"),
        "another user's id": await store.hasChat("v", "c1"),
        "an id the user lacks": await store.hasChat("u", "c2"),
      };
    },
    expected: { "the user's": true, "another user's id": false, "an id the user lacks": false },
  },
  {
    name: "createChat: ten creates of one id at once make one chat; the others get CHAT_EXISTS",
    async run(store) {
      const racing = await Promise.all(
        Array.from({ length: 10 }, (_, i) => outcome(() => store.createChat(record({ title: `try ${i}` })), "ok")),
      );
      const chat = await store.loadChat("u", "c1");
      return {
        outcomes: racing.sort(),
        chats: ids(await store.listChats("u")),
        messages: chat?.messages.length,
        count: chat?.chat.messageCount,
      };
    },
    expected: { outcomes: TEN_RACING, chats: ["c1"], messages: 0, count: 0 },
  },
  {
    name:
      "importChat: the chat and its messages read back as imported; CHAT_EXISTS for an id the user has, writing " +
      "nothing",
    async run(store) {
      const messages = [
        first(),
        message({ id: 1, parentId: 0, content: "two" }),
        message({ id: 2, parentId: 0, content: "sibling", role: "assistant" }),
      ];
      await store.importChat(record({ messageCount: 3, head: 2, updatedAt: 7 }), messages);
      await store.createChat(record({ id: "c2" }));
      return {
        imported: await loaded(store, "u", "c1"),
        "import of an id the user has": await outcome(
          () => store.importChat(record({ id: "c2", messageCount: 1, head: 0 }), [first()]),
          "ok",
        ),
        "that chat after": await loaded(store, "u", "c2"),
        "that id for another user": await outcome(
          () => store.importChat(record({ id: "c2", userId: "v", messageCount: 1, head: 0 }), [first()]),
          "ok",
        ),
      };
    },
    expected: {
      imported: {
        chat: record({ messageCount: 3, head: 2, updatedAt: 7 }),
        messages: [
          first(),
          message({ id: 1, parentId: 0, content: "two" }),
          message({ id: 2, parentId: 0, content: "sibling", role: "assistant" }),
        ],
      },
      "import of an id the user has": "CHAT_EXISTS",
      "that chat after": { chat: record({ id: "c2" }), messages: [] },
      "that id for another user": "ok",
    },
  },
  {
    name: "loadChat: the messages from since on, in id order; since past every id gives the chat and no message",
    async run(store) {
      await chatOf(store, 4);
      const from = async (since: number) => (await store.loadChat("u", "c1", since))?.messages.map((m) => m.id);
      return {
        "0": await from(0),
        "2": await from(2),
        "4": await from(4),
        "past every id": await from(Number.MAX_SAFE_INTEGER),
      };
    },
    expected: { "0": [0, 1, 2, 3], "2": [2, 3], "4": [], "past every id": [] },
  },
  {
    name: "listChats: most recently updated first (ties: created later first, then the greater id), whole or in pages",
    async run(store) {
      const made: [string, number, number][] = [
        ["a", 1, 5],
        ["b", 2, 5],
        ["c", 2, 5],
        ["d", 1, 9],
        ["e", 3, 1],
      ];
      for (const [id, createdAt, updatedAt] of made) await store.createChat(record({ id, createdAt, updatedAt }));
      await store.createChat(record({ id: "x", userId: "v" }));
      const pages: string[][] = [];
      let after: { id: string; createdAt: number; updatedAt: number } | undefined;
      for (
        let page = await store.listChats("u", { limit: 2 });
        page.length;
        page = await store.listChats("u", { limit: 2, after })
      ) {
        pages.push(ids(page));
        after = page[page.length - 1]!;
      }
      return { all: ids(await store.listChats("u")), pages, "a user with none": await store.listChats("w") };
    },
    expected: { all: ["d", "c", "b", "a", "e"], pages: [["d", "c"], ["b", "a"], ["e"]], "a user with none": [] },
  },
  {
    name: "deleteChat: the chat, its messages and embeddings go, and its id is free again; false when there was none",
    async run(store) {
      await chatOf(store, 2);
      await store.putEmbeddings({
        userId: "u",
        chatId: "c1",
        embedder: e2,
        rows: [{ messageId: 1, vector: new Float32Array([1, 2]) }],
      });
      const deleted = await store.deleteChat("u", "c1");
      const again = await store.deleteChat("u", "c1");
      const gone = [await store.hasChat("u", "c1"), await loaded(store, "u", "c1"), ids(await store.listChats("u"))];
      const made = await outcome(() => store.createChat(record()), "ok");
      const fresh = [
        (await store.loadChat("u", "c1"))?.messages.length,
        vectors(await store.loadEmbeddings("u", "c1", e2)),
      ];
      return { deleted, again, gone, "create the id again": made, fresh };
    },
    expected: {
      deleted: true,
      again: false,
      gone: [false, undefined, []],
      "create the id again": "ok",
      fresh: [0, []],
    },
  },
];
