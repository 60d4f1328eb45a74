// The store contract's bad calls on a user's working memory (ctxloom/store/contract, issue 34):
// loads, histories, writes and deletions that each store must refuse with their code, changing
// nothing. Part of badCalls (contract-calls.ts); no test framework here.
import { note } from "./contract-fixtures.js";
import type { Store } from "./types.js";

/** [what, the call, the code it must fail with]: on a store holding contractChat's chat and memories. */
export function memoryBadCalls(store: Store): [string, () => unknown, string][] {
  const bad = <T>(v: unknown) => v as T;
  return [
    ["memory load: an empty user id", () => store.loadMemory!("", null), "INVALID_ARGUMENT"],
    ["memory load: a chat the user lacks", () => store.loadMemory!("u", "zz"), "UNKNOWN_CHAT"],
    ["memory load: another user's chat", () => store.loadMemory!("v", "c1"), "UNKNOWN_CHAT"],
    ["memory load: a known revision not a count", () => store.loadMemory!("u", null, bad(-1)), "INVALID_ARGUMENT"],
    ["memory load: a chat id left out", () => store.loadMemory!("u", bad(undefined)), "INVALID_ARGUMENT"],
    [
      "memory history: an unknown key",
      () => store.loadMemoryHistory!("u", null, bad({ since: 1 })),
      "INVALID_ARGUMENT",
    ],
    [
      "memory history: a path climbing out",
      () => store.loadMemoryHistory!("u", null, { path: "../x" }),
      "INVALID_PATH",
    ],
    ["memory history: another user's chat", () => store.loadMemoryHistory!("v", "c1"), "UNKNOWN_CHAT"],
    [
      "memory write: an unknown key",
      () => store.writeMemory!(bad({ userId: "u", chatId: null, expected: 1, records: [note()], force: true })),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: no records",
      () => store.writeMemory!({ userId: "u", chatId: null, expected: 1, records: [] }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a revision that does not follow",
      () => store.writeMemory!({ userId: "u", chatId: null, expected: 1, records: [note({ revision: 3 })] }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: revisions out of order",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2 }), note({ revision: 4, path: "b" })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a path twice in a revision",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2 }), note({ revision: 2 })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a path climbing out",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, path: "a/../../etc" })],
        }),
      "INVALID_PATH",
    ],
    [
      "memory write: an absolute path",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, path: "/etc/passwd" })],
        }),
      "INVALID_PATH",
    ],
    [
      "memory write: a hidden name",
      () =>
        store.writeMemory!({ userId: "u", chatId: null, expected: 1, records: [note({ revision: 2, path: ".env" })] }),
      "INVALID_PATH",
    ],
    [
      "memory write: a text past the cap",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, content: "x".repeat(100_001) })],
        }),
      "MEMORY_TOO_LARGE",
    ],
    [
      "memory write: a text with a schema",
      () =>
        store.writeMemory!({ userId: "u", chatId: null, expected: 1, records: [note({ revision: 2, schema: "{}" })] }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: an object without a schema",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, kind: "object", content: "{}" })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a deletion with content",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, kind: "deleted" })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a kind",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, kind: bad("file") })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: an author",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, by: bad("robot") })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a time",
      () =>
        store.writeMemory!({
          userId: "u",
          chatId: null,
          expected: 1,
          records: [note({ revision: 2, at: Number.NaN })],
        }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a revision not a count",
      () => store.writeMemory!({ userId: "u", chatId: null, expected: bad(-1), records: [note({ revision: 0 })] }),
      "INVALID_ARGUMENT",
    ],
    [
      "memory write: a chat the user lacks",
      () => store.writeMemory!({ userId: "u", chatId: "zz", expected: 0, records: [note()] }),
      "UNKNOWN_CHAT",
    ],
    [
      "memory write: another user's chat",
      () => store.writeMemory!({ userId: "v", chatId: "c1", expected: 0, records: [note()] }),
      "UNKNOWN_CHAT",
    ],
    ["memory delete: an empty chat id", () => store.deleteMemory!("u", ""), "INVALID_ARGUMENT"],
    ["memory delete: a user id not a string", () => store.deleteMemory!(bad(5)), "INVALID_ARGUMENT"],
  ];
}
