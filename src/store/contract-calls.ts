// The store contract's bad calls (ctxloom/store/contract): the one validation policy of every
// store (src/store/checks.ts). On a store holding contractChat's chat, each bad call must fail
// with its code and change nothing. No test framework here: workers and pages bundle this file.
import { e2, message, record } from "./contract-fixtures.js";
import { memoryBadCalls } from "./contract-memory-calls.js";
import type { AppendMessageRequest, Store } from "./types.js";

/** [what, the call, the code it must fail with]: on a store holding contractChat's chat. */
export function badCalls(store: Store): [string, () => unknown, string][] {
  const bad = <T>(v: unknown) => v as T;
  /** An append of message 1 to user "u"'s chat "c1", but for what `over` sets. */
  const append = (over: Partial<AppendMessageRequest>) =>
    store.appendMessage({ userId: "u", chatId: "c1", message: message(), head: 1, updatedAt: 101, ...over });
  return [
    ["append: not an object", () => store.appendMessage(bad("u")), "INVALID_ARGUMENT"],
    ["append: an unknown key", () => append(bad({ headId: 1 })), "INVALID_ARGUMENT"],
    ["append: a role", () => append({ message: message({ role: bad("robot") }) }), "INVALID_ROLE"],
    ["append: a priority", () => append({ message: message({ priority: bad("urgent") }) }), "INVALID_PRIORITY"],
    ["append: content not a string", () => append({ message: message({ content: bad(42) }) }), "INVALID_CONTENT"],
    ["append: a parent that is not earlier", () => append({ message: message({ parentId: 1 }) }), "INVALID_ARGUMENT"],
    ["append: negative tokens", () => append({ message: message({ tokens: -1 }) }), "INVALID_ARGUMENT"],
    ["append: tool calls not a list", () => append({ message: message({ toolCalls: bad("x") }) }), "INVALID_ARGUMENT"],
    ["append: a name not a string", () => append({ message: message({ name: bad(7) }) }), "INVALID_ARGUMENT"],
    ["append: a head past the message", () => append({ head: 2 }), "UNKNOWN_MESSAGE"],
    ["append: updatedAt NaN", () => append({ updatedAt: Number.NaN }), "INVALID_ARGUMENT"],
    ["append: an empty key", () => append({ key: "" }), "INVALID_ARGUMENT"],
    ["append: an empty user id", () => append({ userId: "" }), "INVALID_ARGUMENT"],
    [
      "append: no such chat",
      () => append({ chatId: "zz", message: message({ id: 0, parentId: null }), head: 0 }),
      "UNKNOWN_CHAT",
    ],
    ["load: since -1", () => store.loadChat("u", "c1", -1), "INVALID_ARGUMENT"],
    ["load: a chat id not a string", () => store.loadChat("u", bad(5)), "INVALID_ARGUMENT"],
    ["list: an empty user id", () => store.listChats(""), "INVALID_ARGUMENT"],
    ["hasChat: an empty user id", () => store.hasChat("", "c1"), "INVALID_ARGUMENT"],
    ["hasChat: a chat id not a string", () => store.hasChat("u", bad(5)), "INVALID_ARGUMENT"],
    ["create: with a head", () => store.createChat(record({ id: "x", head: 0 })), "INVALID_ARGUMENT"],
    [
      "create: options not an object",
      () => store.createChat(record({ id: "x", options: bad(null) })),
      "INVALID_ARGUMENT",
    ],
    ["create: an id the user has", () => store.createChat(record()), "CHAT_EXISTS"],
    [
      "import: ids out of order",
      () => store.importChat(record({ id: "x", messageCount: 1, head: 0 }), [message({ id: 1 })]),
      "INVALID_ARGUMENT",
    ],
    [
      "import: a count that is not the messages'",
      () => store.importChat(record({ id: "x", messageCount: 2, head: 0 }), [message({ id: 0, parentId: null })]),
      "INVALID_ARGUMENT",
    ],
    ["import: an id the user has", () => store.importChat(record({ messageCount: 0 }), []), "CHAT_EXISTS"],
    [
      "setHead: past the chat",
      () => store.setHead({ userId: "u", chatId: "c1", head: 5, updatedAt: 101 }),
      "UNKNOWN_MESSAGE",
    ],
    [
      "setHead: a head not an integer",
      () => store.setHead({ userId: "u", chatId: "c1", head: bad(0.5), updatedAt: 101 }),
      "INVALID_ARGUMENT",
    ],
    [
      "setHead: no such chat",
      () => store.setHead({ userId: "u", chatId: "zz", head: null, updatedAt: 101 }),
      "UNKNOWN_CHAT",
    ],
    [
      "setHead: an unknown key",
      () => store.setHead(bad({ userId: "u", chatId: "c1", head: 0, updatedAt: 101, when: 0 })),
      "INVALID_ARGUMENT",
    ],
    ["embeddings: put without an object", () => store.putEmbeddings(bad(null)), "INVALID_ARGUMENT"],
    [
      "embeddings: an embedder without a name",
      () => store.putEmbeddings({ userId: "u", chatId: "c1", embedder: { name: "", dimension: 2 }, rows: [] }),
      "INVALID_ARGUMENT",
    ],
    [
      "embeddings: a message the chat lacks",
      () =>
        store.putEmbeddings({
          userId: "u",
          chatId: "c1",
          embedder: e2,
          rows: [{ messageId: 3, vector: new Float32Array(2) }],
        }),
      "UNKNOWN_MESSAGE",
    ],
    [
      "embeddings: the wrong dimension",
      () =>
        store.putEmbeddings({
          userId: "u",
          chatId: "c1",
          embedder: e2,
          rows: [{ messageId: 0, vector: new Float32Array(3) }],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "embeddings: no such chat",
      () =>
        store.putEmbeddings({
          userId: "u",
          chatId: "zz",
          embedder: e2,
          rows: [{ messageId: 0, vector: new Float32Array(2) }],
        }),
      "UNKNOWN_CHAT",
    ],
    [
      "embeddings: load with a bad dimension",
      () => store.loadEmbeddings("u", "c1", { name: "e", dimension: 0 }),
      "INVALID_ARGUMENT",
    ],
    ["embeddings: clear for a user id not a string", () => store.clearEmbeddings(bad(5)), "INVALID_ARGUMENT"],
    ["clear mark: upTo not a count", () => store.markEmbeddingsCleared!("u", "c1", bad(-1)), "INVALID_ARGUMENT"],
    ["clear mark: a message the chat lacks", () => store.markEmbeddingsCleared!("u", "c1", 5), "UNKNOWN_MESSAGE"],
    ["clear mark: no such chat", () => store.markEmbeddingsCleared!("u", "zz", 0), "UNKNOWN_CHAT"],
    ["clear mark: an empty user id", () => store.markEmbeddingsCleared!("", "c1", 0), "INVALID_ARGUMENT"],
    ["clear mark: load for an empty chat id", () => store.loadEmbeddingsCleared!("u", ""), "INVALID_ARGUMENT"],
    ["delete: an empty chat id", () => store.deleteChat("u", ""), "INVALID_ARGUMENT"],
    ["list: a page of 0", () => store.listChats("u", { limit: 0 }), "INVALID_ARGUMENT"],
    [
      "list: a page after a chat without its id",
      () => store.listChats("u", { limit: 2, after: bad({ updatedAt: 1, createdAt: 1 }) }),
      "INVALID_ARGUMENT",
    ],
    ["redact: no change", () => store.redactMessages!("u", "c1", []), "INVALID_ARGUMENT"],
    [
      "redact: content not a string",
      () => store.redactMessages!("u", "c1", [{ id: 0, content: bad(5), tokens: 1 }]),
      "INVALID_ARGUMENT",
    ],
    [
      "redact: tool calls not a list",
      () => store.redactMessages!("u", "c1", [{ id: 0, content: "x", toolCalls: bad("x"), tokens: 1 }]),
      "INVALID_ARGUMENT",
    ],
    [
      "redact: a message the chat lacks, after one it has (nothing is written)",
      () =>
        store.redactMessages!("u", "c1", [
          { id: 0, content: "x", tokens: 1 },
          { id: 9, content: "x", tokens: 1 },
        ]),
      "UNKNOWN_MESSAGE",
    ],
    [
      "redact: an empty chat id",
      () => store.redactMessages!("u", "", [{ id: 0, content: "x", tokens: 1 }]),
      "INVALID_ARGUMENT",
    ],
    [
      "redact: tokens not a count",
      () => store.redactMessages!("u", "c1", [{ id: 0, content: "x", tokens: bad(-1) }]),
      "INVALID_ARGUMENT",
    ],
    // Issue 34: a user's working memory (contract-memory-calls.ts).
    ...memoryBadCalls(store),
    ["erase: an empty user id", () => store.eraseUser!(""), "INVALID_ARGUMENT"],
    ["erase: a user id not a string", () => store.eraseUser!(bad(5)), "INVALID_ARGUMENT"],
    ["prune: neither idleBefore nor keepNewest", () => store.pruneChats!({ limit: 10 }), "INVALID_ARGUMENT"],
    ["prune: a limit of 0", () => store.pruneChats!({ idleBefore: 5, limit: 0 }), "INVALID_ARGUMENT"],
    ["prune: keepNewest 0", () => store.pruneChats!({ keepNewest: 0, limit: 10 }), "INVALID_ARGUMENT"],
    ["prune: idleBefore NaN", () => store.pruneChats!({ idleBefore: Number.NaN, limit: 10 }), "INVALID_ARGUMENT"],
    [
      "prune: an unknown key",
      () => store.pruneChats!(bad({ idleBefore: 5, limit: 10, user: "u" })),
      "INVALID_ARGUMENT",
    ],
    [
      "prune: a cursor not a string",
      () => store.pruneChats!(bad({ idleBefore: 5, limit: 10, after: 3 })),
      "INVALID_ARGUMENT",
    ],
  ];
}
