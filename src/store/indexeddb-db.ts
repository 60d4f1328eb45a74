// The browser store's database (indexeddb.ts): its object stores, opening it, transactions as
// promises, and what a failure means for the page (a full quota, a blocked upgrade).
import { CtxloomError } from "../errors.js";

/**
 *   chats       key [user, id]                     a record: user, id, title, model, system, options, head,
 *                                                  created, updated, count
 *   messages    key [user, chat, id]               a message's fields, its append key (`key`) where it has one
 *               index byKey [user, chat, key]      unique: a retry of an append finds its message
 *   embeddings  key [user, chat, embedder, dimension, message]    vector (float32 bytes)
 *   memory      key [user, scope, revision, path]  a working memory's record (indexeddb-memory.ts); scope "" for the
 *               index byPath [user, scope, path, revision]             user's own, a chat's id for the chat's
 * A user's rows are one key range in each store: [user] up to [user, []] (an array sorts after every string); a chat's
 * the range [user, chat] in each.
 *
 * Versions: 1 (chats, messages, embeddings), 2 (memory). An upgrade adds what is missing and keeps every row.
 */
export const DB_VERSION = 2;
export const STORES = ["chats", "messages", "embeddings", "memory"] as const;

/**
 * Every key that starts with `prefix` (arrays sort after strings and numbers, so `[...prefix, []]` is past them all).
 */
export const prefixRange = (...prefix: IDBValidKey[]): IDBKeyRange => IDBKeyRange.bound(prefix, [...prefix, []]);

/** The request's result, as a promise. */
export function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The store's words for a failure: STORE_FAILED saying what to do (a full quota above all). */
export function idbError(name: string, what: string, error: unknown): CtxloomError {
  if (error instanceof CtxloomError) return error;
  const e = error as { name?: string; message?: string } | null;
  const kind = e?.name ?? "Error";
  const advice =
    kind === "QuotaExceededError"
      ? "the browser's storage for this site is full (its quota). Delete or prune old chats (loom.prune()), or ask " +
        "the browser to keep more " +
        "(navigator.storage.persist() lets it grant a larger share of the disk); nothing was written"
      : kind === "VersionError"
        ? "another tab runs a newer ctxloom on this database; reload this page"
        : "retry; if it keeps failing, the browser may have cleared or blocked the site's storage";
  return new CtxloomError(
    "STORE_FAILED",
    `The browser store ${name} failed while ${what} (${kind}: ${e?.message ?? String(error)}); ${advice}.`,
    { cause: error },
  );
}

/**
 * Opens (and makes, at first use, or upgrades) the database `name`. A newer release's upgrade (in
 * another tab) closes this connection and calls `closed`: the next call opens anew, and learns
 * the version is newer than this release's (VersionError: reload the page).
 */
export function openDatabase(factory: IDBFactory, name: string, closed: () => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains("chats")) db.createObjectStore("chats", { keyPath: ["user", "id"] });
      if (!db.objectStoreNames.contains("messages")) {
        const messages = db.createObjectStore("messages", { keyPath: ["user", "chat", "id"] });
        messages.createIndex("byKey", ["user", "chat", "key"], { unique: true });
      }
      if (!db.objectStoreNames.contains("embeddings"))
        db.createObjectStore("embeddings", { keyPath: ["user", "chat", "embedder", "dimension", "message"] });
      if (!db.objectStoreNames.contains("memory")) {
        const memory = db.createObjectStore("memory", { keyPath: ["user", "scope", "revision", "path"] });
        memory.createIndex("byPath", ["user", "scope", "path", "revision"], { unique: true });
      }
    };
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => {
        db.close(); // a tab with a newer release upgrades: let it
        closed();
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () =>
      reject(new DOMException("another tab holds an older version of the database open", "VersionError"));
  });
}

/**
 * Runs `fn` in one transaction over the stores it names and resolves once it committed (all or
 * nothing: a failure, or a throw of `fn`, aborts it). The browser runs read-write transactions on
 * the same stores one at a time, across the site's tabs too: what `fn` reads, it writes against.
 */
export async function transaction<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  fn: (tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  const tx = db.transaction([...STORES], mode, { durability: "strict" });
  const committed = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException("the transaction was aborted", "AbortError"));
  });
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // (already finished)
    }
    await committed.catch(() => undefined);
    throw error;
  }
  await committed;
  return result;
}
