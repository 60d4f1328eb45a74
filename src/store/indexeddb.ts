// The browser's store (ctxloom/browser): chats in the page's IndexedDB, so that a local-first page
// keeps them across a reload and a restart of the browser, and tabs of one site share them.
// Every method is one IndexedDB transaction; the browser runs read-write transactions on the same
// stores one at a time, across tabs too, so the conditional append reads the chat's count and
// writes against it: two tabs appending to one chat make sibling branches, never a lost message.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import {
  checkAppend,
  checkChatRecord,
  checkHead,
  checkIds,
  checkImported,
  checkSetHead,
  checkSince,
  chatExists,
  unknownChat,
} from "./checks.js";
import {
  checkEmbedder,
  checkEmbeddingIds,
  checkEmbeddingRows,
  checkPage,
  checkPruneQuery,
  checkRedactedIds,
  checkRedactions,
  checkRequest,
} from "./call-checks.js";
import { done, idbError, openDatabase, prefixRange, transaction } from "./indexeddb-db.js";
import { indexedDBMemory } from "./indexeddb-memory.js";
import { type ChatRow, fromMessageRow, recordOf, rowOf, toMessageRow, type MessageRow } from "./indexeddb-rows.js";
import { newestFirst } from "./order.js";
import { pruneCandidates } from "./prune.js";
import type {
  AppendMessageRequest,
  ChatRecord,
  PrunedChat,
  PutEmbeddingsRequest,
  SetHeadRequest,
  Store,
} from "./types.js";
import { withClearMarks } from "./clear-marks.js";

/** What `indexedDBStore()` returns: a Store in the browser's IndexedDB. */
export interface IndexedDBStore extends Store {}

/** Options of `indexedDBStore()`. */
export interface IndexedDBStoreOptions {
  /** The IndexedDB database's name; default "ctxloom". */
  name?: string;
}

/**
 * A store in the browser's IndexedDB, for local-first pages: chats survive a reload and a restart
 * of the browser (within the site's storage, which the browser may clear under pressure unless the
 * page asked `navigator.storage.persist()`), and the site's tabs share them, appending as writers
 * on one store do (sibling branches, never a lost message). Users' working memories
 * (`loom.user(id).memory`, a chat's own) are kept beside the chats, each write compared-and-set in
 * one transaction: of two tabs writing on one revision, one lands and the other learns the new
 * revision. A write past the site's quota fails with STORE_FAILED saying so, having written nothing.
 * A database made by an earlier release is upgraded in place, its chats kept; a tab still running
 * the earlier release is then told to reload.
 * @throws UNSUPPORTED_RUNTIME where there is no IndexedDB (Node, Workers); INVALID_ARGUMENT for bad options
 */
export function indexedDBStore(options?: IndexedDBStoreOptions): IndexedDBStore {
  const o = checkOptions<IndexedDBStoreOptions>(options, "indexedDBStore(options)", ["name"]);
  if (o.name !== undefined && (typeof o.name !== "string" || o.name.length === 0)) {
    throw new CtxloomError("INVALID_ARGUMENT", `name must be a non-empty string; got ${describe(o.name)}.`);
  }
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) {
    throw new CtxloomError(
      "UNSUPPORTED_RUNTIME",
      "indexedDBStore needs a browser's IndexedDB, which this runtime has not; on Node use ctxloom/sqlite, on " +
        "Workers ctxloom/cloudflare.",
    );
  }
  const dbName = o.name ?? "ctxloom";
  const name = `indexeddb:${dbName}`;
  let opened: Promise<IDBDatabase> | undefined;
  let closed = false;
  const run = async <T>(what: string, mode: IDBTransactionMode, fn: (tx: IDBTransaction) => Promise<T>): Promise<T> => {
    if (closed) throw new CtxloomError("STORE_FAILED", `The browser store ${dbName} is closed; open a new one.`);
    try {
      const db = await (opened ??= openDatabase(factory, dbName, () => (opened = undefined)).catch((error: unknown) => {
        opened = undefined;
        throw error;
      }));
      return await transaction(db, mode, fn);
    } catch (error) {
      throw idbError(dbName, what, error);
    }
  };
  const where = `the browser store ${dbName}`;
  const chatOf = async (tx: IDBTransaction, userId: string, chatId: string) =>
    (await done(tx.objectStore("chats").get([userId, chatId]))) as ChatRow | undefined;
  /** Deletes a chat's rows (messages, embeddings, its own memory, record). */
  const dropChat = (tx: IDBTransaction, userId: string, chatId: string) => {
    for (const s of ["messages", "embeddings", "memory"] as const)
      tx.objectStore(s).delete(prefixRange(userId, chatId));
    tx.objectStore("chats").delete([userId, chatId]);
  };
  const create = (what: string, c: ChatRecord, messages: MessageRow[]) =>
    run(what, "readwrite", async (tx) => {
      if (await chatOf(tx, c.userId, c.id)) throw chatExists(where, c);
      tx.objectStore("chats").put(rowOf(c));
      const store = tx.objectStore("messages");
      for (const m of messages) store.put(m);
    });
  return withClearMarks({
    name,
    hasChat(userId, chatId) {
      checkIds(userId, chatId);
      return run("looking a chat up", "readonly", async (tx) => (await chatOf(tx, userId, chatId)) !== undefined);
    },
    createChat(chat) {
      const c = checkChatRecord(chat);
      return create("creating a chat", c, []);
    },
    importChat(chat, messages) {
      const c = checkChatRecord(chat, true);
      const rows = checkImported(c, messages).map((m) => toMessageRow(c.userId, c.id, m));
      return create("importing a chat", c, rows);
    },
    listChats(userId, page) {
      checkIds(userId, undefined, true);
      const p = checkPage(page);
      return run("listing chats", "readonly", async (tx) => {
        const all = ((await done(tx.objectStore("chats").getAll(prefixRange(userId)))) as ChatRow[])
          .map(recordOf)
          .sort(newestFirst);
        if (!p) return all;
        const from = p.after ? all.findIndex((c) => newestFirst(c, p.after!) > 0) : 0;
        return from < 0 ? [] : all.slice(from, from + p.limit);
      });
    },
    loadChat(userId, chatId, since = 0) {
      checkIds(userId, chatId);
      checkSince(since);
      return run("loading a chat", "readonly", async (tx) => {
        const row = await chatOf(tx, userId, chatId);
        if (!row) return undefined;
        const range = IDBKeyRange.bound([userId, chatId, since], [userId, chatId, Infinity]);
        const messages = ((await done(tx.objectStore("messages").getAll(range))) as MessageRow[]).map(fromMessageRow);
        return { chat: recordOf(row), messages };
      });
    },
    appendMessage(request) {
      const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
        request,
        "appendMessage",
      );
      const m = checkAppend(userId, chatId, message, head, updatedAt, key);
      const row = toMessageRow(userId, chatId, m, key);
      return run("appending a message", "readwrite", async (tx) => {
        const chat = await chatOf(tx, userId, chatId);
        if (!chat) throw unknownChat(where, userId, chatId);
        if (key !== undefined) {
          const found = (await done(tx.objectStore("messages").index("byKey").get([userId, chatId, key]))) as
            | MessageRow
            | undefined;
          if (found) return { ok: false as const, existing: fromMessageRow(found) };
        }
        if (m.id !== chat.count) return { ok: false as const, size: chat.count };
        tx.objectStore("messages").add(row);
        tx.objectStore("chats").put({ ...chat, count: chat.count + 1, head, updated: updatedAt });
        return { ok: true as const };
      });
    },
    setHead(request) {
      const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
      checkSetHead(userId, chatId, head, updatedAt, expected);
      return run("moving the head", "readwrite", async (tx) => {
        const chat = await chatOf(tx, userId, chatId);
        if (!chat) throw unknownChat(where, userId, chatId);
        checkHead(head, chat.count, chatId);
        if (expected !== undefined && chat.head !== expected) return false;
        tx.objectStore("chats").put({ ...chat, head, updated: updatedAt });
        return true;
      });
    },
    deleteChat(userId, chatId) {
      checkIds(userId, chatId);
      return run("deleting a chat", "readwrite", async (tx) => {
        if (!(await chatOf(tx, userId, chatId))) return false;
        dropChat(tx, userId, chatId);
        return true;
      });
    },
    redactMessages(userId, chatId, changes) {
      const checked = checkRedactions(userId, chatId, changes);
      return run("redacting messages", "readwrite", async (tx) => {
        const chat = await chatOf(tx, userId, chatId);
        if (!chat) return false;
        checkRedactedIds(checked, chat.count, chatId);
        const messages = tx.objectStore("messages");
        for (const c of checked) {
          const row = (await done(messages.get([userId, chatId, c.id]))) as MessageRow;
          const next: MessageRow = { ...row, content: c.content, tokens: c.tokens };
          delete next.parts;
          if (c.toolCalls) next.toolCalls = c.toolCalls;
          messages.put(next);
        }
        // Each redacted message's vectors, of every embedder.
        const vectors = tx.objectStore("embeddings");
        const ids = new Set(checked.map((c) => c.id));
        const keys = (await done(vectors.getAllKeys(prefixRange(userId, chatId)))) as IDBValidKey[][];
        for (const k of keys) if (ids.has(k[4] as number)) vectors.delete(k);
        return true;
      });
    },
    eraseUser(userId) {
      checkIds(userId, undefined, true);
      return run("erasing a user", "readwrite", async (tx) => {
        const rows = (await done(tx.objectStore("chats").getAll(prefixRange(userId)))) as ChatRow[];
        // Their chats' rows, and every memory of theirs (their own and each chat's).
        for (const s of ["messages", "embeddings", "memory", "chats"] as const)
          tx.objectStore(s).delete(prefixRange(userId));
        return { chats: rows.length, messages: rows.reduce((n, c) => n + c.count, 0) };
      });
    },
    pruneChats(query) {
      const q = checkPruneQuery(query);
      return run("pruning chats", "readwrite", async (tx) => {
        const chats = tx.objectStore("chats");
        const removed: PrunedChat[] = [];
        const first = async (range: IDBKeyRange) =>
          ((await done(chats.getKey(range))) as [string, string] | undefined)?.[0];
        let user = await first(IDBKeyRange.lowerBound([q.after ?? ""]));
        for (let seen = 0; user !== undefined && seen < q.limit; seen++) {
          const records = ((await done(chats.getAll(prefixRange(user)))) as ChatRow[]).map(recordOf);
          for (const c of pruneCandidates(records, q, q.limit - removed.length)) {
            dropChat(tx, c.userId, c.id);
            removed.push({ userId: c.userId, chatId: c.id, updatedAt: c.updatedAt, messageCount: c.messageCount });
          }
          if (removed.length === q.limit) return { removed, next: user };
          user = await first(IDBKeyRange.lowerBound([user, []], true));
        }
        return { removed, next: user ?? null };
      });
    },
    putEmbeddings(request) {
      const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
      checkIds(userId, chatId);
      const e = checkEmbedder(embedder);
      checkEmbeddingRows(rows, e.dimension);
      return run("storing embeddings", "readwrite", async (tx) => {
        const chat = await chatOf(tx, userId, chatId);
        if (!chat) throw unknownChat(where, userId, chatId);
        checkEmbeddingIds(rows, chat.count, chatId);
        const store = tx.objectStore("embeddings");
        for (const r of rows)
          store.put({
            user: userId,
            chat: chatId,
            embedder: e.name,
            dimension: e.dimension,
            message: r.messageId,
            vector: r.vector.slice(),
          });
      });
    },
    loadEmbeddings(userId, chatId, embedder) {
      checkIds(userId, chatId);
      const e = checkEmbedder(embedder);
      return run("loading embeddings", "readonly", async (tx) => {
        const rows = (await done(
          tx.objectStore("embeddings").getAll(prefixRange(userId, chatId, e.name, e.dimension)),
        )) as { message: number; vector: Float32Array }[];
        return rows.map((r) => ({ messageId: r.message, vector: r.vector }));
      });
    },
    clearEmbeddings(userId, chatId) {
      checkIds(userId, chatId, true);
      return run("clearing embeddings", "readwrite", async (tx) => {
        tx.objectStore("embeddings").delete(chatId === undefined ? prefixRange(userId) : prefixRange(userId, chatId));
      });
    },
    ...indexedDBMemory(run, where),
    flush() {},
    async close() {
      closed = true;
      const db = await opened?.catch(() => undefined);
      db?.close();
    },
  });
}
