// The store contract's fixtures (ctxloom/store/contract): the records, messages and memories its
// checks write, the chat every bad call runs against, what a call did, and what a store holds of
// that chat to compare before and after. No test framework here: workers and pages bundle this file.
import type { Message } from "../message.js";
import type { MemoryRecord } from "../memory/types.js";
import type { ChatRecord, Store } from "./types.js";

export const record = (over: Partial<ChatRecord> = {}): ChatRecord => ({
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
export const message = (over: Partial<Message> = {}): Message => ({
  id: 1,
  parentId: 0,
  role: "assistant",
  content: "hi",
  priority: "normal",
  tokens: 5,
  createdAt: 2,
  kind: "message",
  ...over,
});
export const e2 = { name: "e", dimension: 2 };
export const note = (over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  revision: 1,
  path: "notes.md",
  kind: "text",
  content: "likes tea",
  schema: null,
  by: "app",
  chatId: null,
  at: 3,
  ...over,
});

/**
 * Makes user "u"'s chat "c1" with message 0 (head 0, updatedAt 100) and one embedding; with
 * `memory`, the user's memory and the chat's own, at revision 1 each.
 */
export async function contractChat(store: Store, memory: boolean): Promise<void> {
  await store.createChat(record());
  await store.appendMessage({
    userId: "u",
    chatId: "c1",
    message: message({ id: 0, parentId: null, role: "user" }),
    head: 0,
    updatedAt: 100,
  });
  await store.putEmbeddings({
    userId: "u",
    chatId: "c1",
    embedder: e2,
    rows: [{ messageId: 0, vector: new Float32Array([1, 2]) }],
  });
  if (!memory) return;
  await store.writeMemory!({ userId: "u", chatId: null, expected: 0, records: [note()] });
  await store.writeMemory!({
    userId: "u",
    chatId: "c1",
    expected: 0,
    records: [note({ path: "chat.md", chatId: "c1" })],
  });
}

/** What a bad call did: its error's code, "none" when it did not fail, or what it threw without a code. */
export async function outcome(call: () => unknown, ok = "none"): Promise<string> {
  try {
    await call();
    return ok;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : `not coded: ${String(error)}`;
  }
}

/**
 * What the store holds of the contract chat (with `memory`, its memories too), to compare
 * before and after the bad calls.
 */
export async function contractState(store: Store, memory: boolean): Promise<unknown> {
  const loaded = await store.loadChat("u", "c1");
  const state = {
    chat: loaded?.chat,
    messages: loaded?.messages,
    list: (await store.listChats("u")).map((c) => c.id),
    embeddings: (await store.loadEmbeddings("u", "c1", e2)).map((r) => [r.messageId, [...r.vector]]),
    mark: typeof store.loadEmbeddingsCleared === "function" ? await store.loadEmbeddingsCleared("u", "c1") : "none",
  };
  if (!memory) return state;
  const memories = [
    await store.loadMemory!("u", null),
    await store.loadMemory!("u", "c1"),
    await store.loadMemoryHistory!("u", null),
  ];
  return { ...state, memories, others: [await store.loadMemory!("v", null)] };
}
