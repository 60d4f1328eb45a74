// Issue 35, items 4 and 5: a user's erasure and a prune, through a Loom, as cases every store runs:
// the memory, SQLite and PostgreSQL stores in test/store/retention.test.ts, a Durable Object's and
// D1 in workerd (test/runtime/do-store-ops.ts, d1-worker.ts), the browser's in Chromium. What
// "gone" means beyond what a store reads back (a file's bytes, a heap) each test checks itself.
// No test framework here: the workers bundle this file.
import type { Loom, Message, Store } from "../../src/index.js";
import type { ChatRecord } from "../../src/store-entry.js";
import type { OpenLoom } from "./exists-cases.js";

/** A text no other chat holds, in alice's chats. */
export const SECRET = "SECRET-ERASE-7Q2K-93XW";
const DAY = 86_400_000;

const code = async (call: () => unknown): Promise<string> => {
  try {
    await call();
    return "ok";
  } catch (error) {
    return String((error as { code?: unknown }).code ?? `not coded: ${String(error)}`);
  }
};

/**
 * Alice's chats (a secret, a long text, recall's vectors, append keys, a branch), Bob's beside
 * them; then alice erased. What each step answers (compare with expectedErasure).
 */
export async function erasureCases(open: OpenLoom, store: Store): Promise<Record<string, unknown>> {
  const loom = await open(store);
  const alice = loom.user("alice");
  const held = await alice.create({ id: "a1", title: `title ${SECRET}`, system: `system ${SECRET}` });
  for (let i = 0; i < 12; i++)
    await held.append(
      { role: i % 2 ? "assistant" : "user", content: i === 5 ? `my ${SECRET} ${"long ".repeat(3000)}` : `a1 ${i}` },
      { key: `k${i}` },
    );
  await held.regenerate(held.head!); // a branch: the next answer is a sibling
  await held.append({ role: "assistant", content: `again ${SECRET}` });
  const a2 = await alice.create({ id: "a2" });
  await a2.append({ role: "user", content: `a2 ${SECRET}` });
  await alice.create({ id: "empty" });
  const bob = await loom.user("bob").create({ id: "a1", title: "bob's" });
  await bob.append({ role: "user", content: "bob stays" });
  await loom.flush(); // the vectors too
  const out: Record<string, unknown> = {};
  out["alice's vectors before"] =
    (await store.loadEmbeddings("alice", "a1", { name: "hashing-384", dimension: 384 })).length > 0;
  out["erase"] = await alice.erase();
  out["alice's list"] = await alice.list();
  out["open a1"] = await code(() => alice.open("a1"));
  out["append to a chat held"] = await code(() => held.append({ role: "user", content: "more" }));
  out["the store's a1"] = (await store.loadChat("alice", "a1")) ?? null;
  out["the store's vectors"] = (
    await store.loadEmbeddings("alice", "a1", { name: "hashing-384", dimension: 384 })
  ).length;
  out["bob's chat"] = (await (await loom.user("bob").open("a1")).path()).map((m: Message) => m.content);
  out["bob's list"] = (await loom.user("bob").list()).map((c) => c.id);
  out["erase again"] = await alice.erase();
  const again = await alice.create({ id: "a1" });
  out["alice afresh"] = (await again.append({ role: "user", content: "new start" })).id;
  out["erase: a bad user id"] = await code(() => loom.user(""));
  await loom.close();
  return out;
}

/** What erasureCases answers on every store. */
export const expectedErasure = (): Record<string, unknown> => ({
  "alice's vectors before": true,
  erase: { chats: 3, messages: 14 },
  "alice's list": [],
  "open a1": "UNKNOWN_CHAT",
  "append to a chat held": "CHAT_DELETED",
  "the store's a1": null,
  "the store's vectors": 0,
  "bob's chat": ["bob stays"],
  "bob's list": ["a1"],
  "erase again": { chats: 0, messages: 0 },
  "alice afresh": 0,
  "erase: a bad user id": "INVALID_ARGUMENT",
});

/**
 * Working memories through an erasure and a prune: alice's own and her chat's, bob's beside them.
 * After alice's erasure and the prune of an idle chat, the store reads back none of hers or of the
 * chat pruned, and the Loom holds none either (compare with expectedMemoryErasure).
 */
export async function memoryErasureCases(open: OpenLoom, store: Store): Promise<Record<string, unknown>> {
  const loom = await open(store);
  const alice = loom.user("alice");
  const chat = await alice.create({ id: "a1", memoryScope: "chat" });
  await alice.memory.write({ revision: 0, path: "prefs.md", text: `likes ${SECRET}` });
  await chat.memory.write({ revision: 0, path: "task.md", text: `task ${SECRET}` });
  const bob = loom.user("bob");
  const idle = await bob.create({ id: "idle", memoryScope: "chat" });
  await idle.memory.write({ revision: 0, path: "task.md", text: "bob's idle task" });
  await bob.memory.write({ revision: 0, path: "prefs.md", text: "bob's prefs" });
  await bob.create({ id: "kept" });
  await loom.flush();
  const revisions = async (userId: string, chatId: string | null) => (await store.loadMemory!(userId, chatId)).revision;
  const out: Record<string, unknown> = { before: [await revisions("alice", null), await revisions("alice", "a1")] };
  await alice.erase();
  out["the store's, after the erasure"] = [
    await revisions("alice", null),
    (await store.loadMemoryHistory!("alice", null)).length,
  ];
  out["through the Loom"] = (await alice.memory.read()).revision;
  out["a new chat's context"] = (await (await alice.create({ id: "a1" })).buildContext()).memory;
  out["bob's"] = (await bob.memory.read()).documents.map((d) => d.path);
  await bob.open("kept").then((c) => c.append({ role: "user", content: "written now" }));
  out["prune"] = (await loom.prune({ keepNewest: 1 })).removed.map((c) => `${c.userId}/${c.chatId}`);
  out["the pruned chat's memory"] = await code(() => revisions("bob", "idle"));
  await bob.create({ id: "idle" }); // a chat of the same id: none of the old one's memory
  out["a new chat of its id"] = await revisions("bob", "idle");
  out["bob's own after the prune"] = (await bob.memory.read()).revision;
  await loom.close();
  return out;
}

/** What memoryErasureCases answers on every store. */
export const expectedMemoryErasure = (): Record<string, unknown> => ({
  before: [1, 1],
  "the store's, after the erasure": [0, 0],
  "through the Loom": 0,
  "a new chat's context": "",
  "bob's": ["prefs.md"],
  prune: ["bob/idle"],
  "the pruned chat's memory": "UNKNOWN_CHAT",
  "a new chat of its id": 0,
  "bob's own after the prune": 1,
});

const record = (userId: string, id: string, updatedAt: number, messageCount: number): ChatRecord => ({
  id,
  userId,
  title: id,
  model: "gpt-4o",
  system: null,
  createdAt: updatedAt - 1000,
  updatedAt,
  messageCount,
  head: messageCount - 1,
  options: {},
});
const messages = (n: number, at: number): Message[] =>
  Array.from({ length: n }, (_, id) => ({
    id,
    parentId: id === 0 ? null : id - 1,
    role: id % 2 ? "assistant" : "user",
    content: `m${id}`,
    priority: "normal",
    tokens: 4,
    createdAt: at,
    kind: "message",
  }));

/**
 * Seven users, each with chats written 1 to 5 days and 100 days ago; prunes by idleness, then by
 * count, in small batches (the cursor crosses users mid-way). What each step answers.
 */
export async function pruneCases(open: OpenLoom, store: Store): Promise<Record<string, unknown>> {
  const now = Date.now();
  for (let u = 0; u < 7; u++) {
    for (let c = 0; c < 6; c++) {
      const at = c === 5 ? now - 100 * DAY : now - (c + 1) * DAY;
      await store.importChat(record(`user${u}`, `c${c}`, at + u, 2), messages(2, at));
    }
  }
  const old = {
    id: "old",
    userId: "user3",
    title: "held",
    model: "gpt-4o",
    system: null,
    createdAt: now - 300 * DAY,
    updatedAt: now - 200 * DAY,
    messageCount: 0,
    head: null,
    options: {},
  };
  await store.createChat(old);
  const loom = await open(store);
  const held = await loom.user("user3").open("old");
  const out: Record<string, unknown> = {};
  const names = (removed: { userId: string; chatId: string }[]) => removed.map((c) => `${c.userId}/${c.chatId}`).sort();
  const idle = await loom.prune({ idleFor: 30 * DAY, batchSize: 3 });
  out["idle: removed"] = names(idle.removed);
  out["idle: counts"] = [idle.chats, idle.messages];
  out["a pruned chat held"] = await code(() => held.append({ role: "user", content: "late" }));
  const counted = await loom.prune({ keepNewest: 2, batchSize: 4 });
  out["keepNewest: removed"] = names(counted.removed);
  out["what stays"] = Object.fromEntries(
    await Promise.all(
      Array.from({ length: 7 }, async (_, u) => [`user${u}`, (await loom.user(`user${u}`).list()).map((c) => c.id)]),
    ),
  );
  out["both, nothing left to remove"] = (await loom.prune({ idleFor: 30 * DAY, keepNewest: 2 })).chats;
  out["prune: no rule"] = await code(() => loom.prune({} as never));
  out["prune: idleFor negative"] = await code(() => loom.prune({ idleFor: -1 }));
  out["prune: keepNewest 0"] = await code(() => loom.prune({ keepNewest: 0 }));
  out["prune: an unknown key"] = await code(() => loom.prune({ idleFor: 1, batch: 3 } as never));
  await loom.close();
  return out;
}

/** What pruneCases answers on every store. */
export function expectedPrune(): Record<string, unknown> {
  const users = Array.from({ length: 7 }, (_, u) => `user${u}`);
  return {
    "idle: removed": [...users.map((u) => `${u}/c5`), "user3/old"].sort(),
    "idle: counts": [8, 14],
    "a pruned chat held": "CHAT_DELETED",
    "keepNewest: removed": users.flatMap((u) => [`${u}/c2`, `${u}/c3`, `${u}/c4`]).sort(),
    "what stays": Object.fromEntries(users.map((u) => [u, ["c0", "c1"]])),
    "both, nothing left to remove": 0,
    "prune: no rule": "INVALID_ARGUMENT",
    "prune: idleFor negative": "INVALID_ARGUMENT",
    "prune: keepNewest 0": "INVALID_ARGUMENT",
    "prune: an unknown key": "INVALID_ARGUMENT",
  };
}

/** Opens the Loom the cases use (heuristic counting: no tokenizer to load; recall on, for its vectors). */
export const openFor =
  (LoomClass: typeof Loom): OpenLoom =>
  (store) =>
    LoomClass.open({ store, counter: "heuristic", recall: true });
