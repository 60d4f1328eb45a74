import { CtxloomError, type Message } from "file:///work/wt-d/src/index.ts";
import { storeChecks, type AppendResult, type ChatRecord, type Store } from "file:///work/wt-d/src/store-entry.ts";
import { storeContract, type OptionalStoreMethod } from "file:///work/wt-d/src/store-contract.ts";

interface Kept {
  chat: ChatRecord;
  messages: Message[];
  /** Append key -> the id of the message appended under it. */
  keys: Map<string, number>;
  /** "name/dimension" of an embedder -> message id -> vector. */
  vectors: Map<string, Map<number, Float32Array>>;
}
type Listed = Pick<ChatRecord, "updatedAt" | "createdAt" | "id">;

/** The list's order: updated later first, then created later, then the greater id. */
const newestFirst = (a: Listed, b: Listed): number =>
  b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A store in a Map of this process: chats keyed by user and id, copies in and out. */
export function mapStore(): Store {
  const chats = new Map<string, Kept>();
  const keyOf = (userId: string, chatId: string) => JSON.stringify([userId, chatId]);
  const get = (userId: string, chatId: string): Kept => {
    const kept = chats.get(keyOf(userId, chatId));
    if (!kept) throw new CtxloomError("UNKNOWN_CHAT", `User ${userId} has no chat ${chatId}.`);
    return kept;
  };
  const within = (id: number, kept: Kept): void => {
    if (id >= kept.messages.length)
      throw new CtxloomError("UNKNOWN_MESSAGE", `Chat ${kept.chat.id} has no message ${id}.`);
  };
  const create = (chat: ChatRecord, messages: Message[]): void => {
    const key = keyOf(chat.userId, chat.id);
    if (chats.has(key)) throw new CtxloomError("CHAT_EXISTS", `User ${chat.userId} has a chat ${chat.id} already.`);
    chats.set(key, {
      chat: structuredClone(chat),
      messages: structuredClone(messages),
      keys: new Map(),
      vectors: new Map(),
    });
  };
  return {
    name: "map",
    hasChat(userId, chatId) {
      storeChecks.hasChat(userId, chatId);
      return chats.has(keyOf(userId, chatId));
    },
    createChat(chat) {
      storeChecks.createChat(chat);
      create(chat, []);
    },
    importChat(chat, messages) {
      storeChecks.importChat(chat, messages);
      create(chat, messages);
    },
    listChats(userId, page) {
      storeChecks.listChats(userId, page);
      const mine = [...chats.values()]
        .map((kept) => kept.chat)
        .filter((chat) => chat.userId === userId)
        .sort(newestFirst);
      const after = page?.after;
      const rest = after ? mine.filter((chat) => newestFirst(chat, after) > 0) : mine;
      return structuredClone(page ? rest.slice(0, page.limit) : rest);
    },
    loadChat(userId, chatId, since = 0) {
      storeChecks.loadChat(userId, chatId, since);
      const kept = chats.get(keyOf(userId, chatId));
      return kept && structuredClone({ chat: kept.chat, messages: kept.messages.slice(since) });
    },
    appendMessage(userId, chatId, message, head, updatedAt, key): AppendResult {
      storeChecks.appendMessage(userId, chatId, message, head, updatedAt, key);
      const kept = get(userId, chatId);
      const earlier = key === undefined ? undefined : kept.keys.get(key);
      if (earlier !== undefined) return { ok: false, existing: structuredClone(kept.messages[earlier]!) };
      if (message.id !== kept.messages.length) return { ok: false, size: kept.messages.length };
      kept.messages.push(structuredClone(message));
      if (key !== undefined) kept.keys.set(key, message.id);
      Object.assign(kept.chat, { head, updatedAt, messageCount: kept.messages.length });
      return { ok: true };
    },
    setHead(userId, chatId, head, updatedAt, expected) {
      storeChecks.setHead(userId, chatId, head, updatedAt, expected);
      const kept = get(userId, chatId);
      if (head !== null) within(head, kept);
      if (expected !== undefined && kept.chat.head !== expected) return false;
      Object.assign(kept.chat, { head, updatedAt });
      return true;
    },
    deleteChat(userId, chatId) {
      storeChecks.deleteChat(userId, chatId);
      return chats.delete(keyOf(userId, chatId));
    },
    putEmbeddings(userId, chatId, embedder, rows) {
      storeChecks.putEmbeddings(userId, chatId, embedder, rows);
      const kept = get(userId, chatId);
      for (const row of rows) within(row.messageId, kept);
      const name = `${embedder.name}/${embedder.dimension}`;
      const vectors = kept.vectors.get(name) ?? new Map<number, Float32Array>();
      for (const row of rows) vectors.set(row.messageId, row.vector.slice());
      kept.vectors.set(name, vectors);
    },
    loadEmbeddings(userId, chatId, embedder) {
      storeChecks.loadEmbeddings(userId, chatId, embedder);
      const vectors = chats.get(keyOf(userId, chatId))?.vectors.get(`${embedder.name}/${embedder.dimension}`);
      const rows = [...(vectors ?? [])].sort((a, b) => a[0] - b[0]);
      return rows.map(([messageId, vector]) => ({ messageId, vector: vector.slice() }));
    },
    clearEmbeddings(userId, chatId) {
      storeChecks.clearEmbeddings(userId, chatId);
      for (const kept of chats.values()) {
        if (kept.chat.userId === userId && (chatId === undefined || kept.chat.id === chatId)) kept.vectors.clear();
      }
    },
    flush() {},
    close() {},
  };
}

// The contract, without a test framework: every case on a store of its own.
const NONE: OptionalStoreMethod[] = [
  "redactMessages",
  "eraseUser",
  "pruneChats",
  "loadMemory",
  "loadMemoryHistory",
  "writeMemory",
  "deleteMemory",
];
const cases = storeContract(mapStore, { without: NONE });
let passed = 0;
for (const c of cases) {
  await c.run();
  passed++;
}
console.log(`${passed} of ${cases.length} cases passed`);
