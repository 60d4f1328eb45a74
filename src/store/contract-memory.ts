// The store contract's case of users' working memories (ctxloom/store/contract; Store.loadMemory,
// loadMemoryHistory, writeMemory, deleteMemory): revisions compared-and-set (ten writes on one
// revision at once: one lands), each path's newest record, the history narrowed, a chat's own
// memory gone with the chat, a user's deleted, texts kept exactly. No test framework here:
// workers and pages bundle this file.
import type { MemoryRecord } from "../memory/types.js";
import { outcome } from "./contract-fixtures.js";
import type { ChatRecord, Store } from "./types.js";

const rec = (revision: number, path: string, over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  revision,
  path,
  kind: "text",
  content: `${path} at ${revision}`,
  schema: null,
  by: "app",
  chatId: null,
  at: 1000 + revision,
  ...over,
});
const chat = (id: string, userId = "m"): ChatRecord => ({
  id,
  userId,
  title: "t",
  model: "gpt-4o",
  system: null,
  createdAt: 1,
  updatedAt: 1,
  messageCount: 0,
  head: null,
  options: {},
});
/**
 * Texts a store must keep exactly: U+0000 and U+0001 (PostgreSQL escapes them), astral characters, lone surrogates
 * aside.
 */
export const TRICKY = "nul \u0000 soh \u0001 \u00011 emoji 🦜 CJK 漢字 tab\tcr\r\nend";

/** What each step answers, on a store with no data of users "m" and "n". */
export async function memoryStoreCases(store: Store): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const s = store as Required<Store>;
  out["empty"] = await s.loadMemory("m", null);
  out["write revision 1 (a text, an object)"] = await s.writeMemory({
    userId: "m",
    chatId: null,
    expected: 0,
    records: [
      rec(1, "a.md"),
      rec(1, "p", {
        kind: "object",
        content: '{"name":"Ann"}',
        schema: '{"type":"object"}',
        by: "model",
        chatId: "c9",
      }),
    ],
  });
  out["load"] = await s.loadMemory("m", null);
  out["load, revision known"] = await s.loadMemory("m", null, 1);
  out["load, an older revision known"] = (await s.loadMemory("m", null, 0)).records?.length;
  out["write on revision 0 again"] = await s.writeMemory({
    userId: "m",
    chatId: null,
    expected: 0,
    records: [rec(1, "b.md")],
  });
  out["write revisions 2 and 3 at once"] = await s.writeMemory({
    userId: "m",
    chatId: null,
    expected: 1,
    records: [rec(2, "a.md", { kind: "deleted", content: "" }), rec(3, "b.md"), rec(3, "c.md")],
  });
  out["newest records"] = (await s.loadMemory("m", null)).records?.map((r) => [r.path, r.revision, r.kind]);
  out["history"] = (await s.loadMemoryHistory("m", null)).map((r) => [r.revision, r.path]);
  out["history of a.md"] = (await s.loadMemoryHistory("m", null, { path: "a.md" })).map((r) => [r.revision, r.kind]);
  out["history after 1 up to 2"] = (await s.loadMemoryHistory("m", null, { after: 1, upTo: 2 })).map((r) => [
    r.revision,
    r.path,
  ]);
  out["history, 2 at most"] = (await s.loadMemoryHistory("m", null, { limit: 2 })).map((r) => [r.revision, r.path]);
  out["another user's memory"] = await s.loadMemory("n", null);
  // Ten writes on one revision at once: one lands (truly concurrent on a store whose calls wait).
  const racing = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      s.writeMemory({ userId: "m", chatId: null, expected: 3, records: [rec(4, `race${i}.md`)] }),
    ),
  );
  out["10 writes on revision 3 at once"] = racing.map((r) => (r.ok ? "ok" : `moved to ${r.revision}`)).sort();
  out["after the race"] = (await s.loadMemory("m", null)).records!.filter((r) => r.path.startsWith("race")).length;
  out["a text kept exactly"] = await (async () => {
    await s.writeMemory({
      userId: "m",
      chatId: null,
      expected: 4,
      records: [rec(5, "tricky.md", { content: TRICKY, chatId: "chat \u0000 1" })],
    });
    const [r] = await s.loadMemoryHistory("m", null, { path: "tricky.md" });
    return r!.content === TRICKY && r!.chatId === "chat \u0000 1";
  })();
  // A chat's own memory: the chat's, and gone with it.
  await s.createChat(chat("mc"));
  out["a chat's memory, written"] = await s.writeMemory({
    userId: "m",
    chatId: "mc",
    expected: 0,
    records: [rec(1, "plan.md", { chatId: "mc" })],
  });
  out["a chat's memory, and the user's apart"] = [
    (await s.loadMemory("m", "mc")).revision,
    (await s.loadMemory("m", null)).revision,
  ];
  out["deleting the chat"] = await s.deleteChat("m", "mc");
  out["the chat's memory after"] = await outcome(() => s.loadMemory("m", "mc"), "ok");
  await s.createChat(chat("mc"));
  out["a chat of that id again: its memory empty"] = await s.loadMemory("m", "mc");
  await s.writeMemory({ userId: "m", chatId: "mc", expected: 0, records: [rec(1, "plan.md")] });
  // Deleting: one memory, then all of a user's.
  out["delete the user's own"] = await s.deleteMemory("m", null);
  out["delete it again"] = await s.deleteMemory("m", null);
  out["the user's own after"] = await s.loadMemory("m", null);
  out["the chat's own still"] = (await s.loadMemory("m", "mc")).revision;
  await s.writeMemory({ userId: "m", chatId: null, expected: 0, records: [rec(1, "again.md")] });
  out["delete all of the user's"] = await s.deleteMemory("m");
  out["all after"] = [
    (await s.loadMemory("m", null)).revision,
    (await s.loadMemory("m", "mc")).revision,
    await s.deleteMemory("m"),
  ];
  return out;
}

/** What memoryStoreCases must answer on every store. */
export const expectedMemoryCases = (): Record<string, unknown> => {
  const a1 = rec(1, "a.md");
  const p1 = rec(1, "p", {
    kind: "object",
    content: '{"name":"Ann"}',
    schema: '{"type":"object"}',
    by: "model",
    chatId: "c9",
  });
  return {
    empty: { revision: 0, at: 0, records: [] },
    "write revision 1 (a text, an object)": { ok: true },
    load: { revision: 1, at: 1001, records: [a1, p1] },
    "load, revision known": { revision: 1, at: 1001 },
    "load, an older revision known": 2,
    "write on revision 0 again": { ok: false, revision: 1 },
    "write revisions 2 and 3 at once": { ok: true },
    "newest records": [
      ["a.md", 2, "deleted"],
      ["b.md", 3, "text"],
      ["c.md", 3, "text"],
      ["p", 1, "object"],
    ],
    history: [
      [1, "a.md"],
      [1, "p"],
      [2, "a.md"],
      [3, "b.md"],
      [3, "c.md"],
    ],
    "history of a.md": [
      [1, "text"],
      [2, "deleted"],
    ],
    "history after 1 up to 2": [[2, "a.md"]],
    "history, 2 at most": [
      [1, "a.md"],
      [1, "p"],
    ],
    "another user's memory": { revision: 0, at: 0, records: [] },
    "10 writes on revision 3 at once": [
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "moved to 4",
      "ok",
    ],
    "after the race": 1,
    "a text kept exactly": true,
    "a chat's memory, written": { ok: true },
    "a chat's memory, and the user's apart": [1, 5],
    "deleting the chat": true,
    "the chat's memory after": "UNKNOWN_CHAT",
    "a chat of that id again: its memory empty": { revision: 0, at: 0, records: [] },
    "delete the user's own": true,
    "delete it again": false,
    "the user's own after": { revision: 0, at: 0, records: [] },
    "the chat's own still": 1,
    "delete all of the user's": true,
    "all after": [0, 0, false],
  };
};
