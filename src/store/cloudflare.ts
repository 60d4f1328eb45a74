// The store in a Durable Object's SQLite storage (ctxloom/cloudflare): the kit's schema,
// statements and operations (sql-*.ts), the SQLite file's, on `ctx.storage.sql`, every write
// in one `transactionSync`. Within Cloudflare's limits: a row holds at most 2 MB, so a message
// past it is refused before the write; a storage without SQLite is refused at creation.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { Message } from "../message.js";
import { migrateReleased } from "./cloudflare-legacy.js";
import { ChatStates, type ChatState, type SqlConnection, type Transactions } from "./sql-connection.js";
import { corruptIn, storeError, type SqlPlace } from "./sql-errors.js";
import { migrate, type SchemaNames } from "./sql-schema.js";
import { sqlStatements } from "./sql-statements.js";
import { SqlStore } from "./sql-store.js";
import { SqlMemory } from "./sql-memory.js";
import { PAGED_FROM } from "./sql-paged.js";
import { checkRequest } from "./call-checks.js";
import type { WriteMemoryRequest } from "../memory/types.js";
import type { AppendMessageRequest, PutEmbeddingsRequest, SetHeadRequest, Store } from "./types.js";
import { withClearMarks } from "./clear-marks.js";

/** The part of a Durable Object's `ctx.storage` this store uses (SQLite-backed objects). */
export interface DurableObjectStorageLike {
  /** The object's SQLite database (`ctx.storage.sql`). */
  sql: {
    exec(
      query: string,
      ...bindings: unknown[]
    ): { toArray(): Record<string, unknown>[]; raw(): Iterable<unknown[]>; readonly rowsWritten: number };
  };
  /** Runs `body` in one transaction (`ctx.storage.transactionSync`). */
  transactionSync<T>(body: () => T): T;
}

/** What `durableObjectStore()` returns: a Store in a Durable Object's SQLite storage. */
export interface DurableObjectStore extends Store {}

/** Options of `durableObjectStore()`. */
export interface DurableObjectStoreOptions {
  /** Prefix of the table names; default "ctxloom_". */
  tablePrefix?: string;
  /**
   * Chats of this many messages or more open paged: the tree's numbers in memory, the texts left
   * in the object's storage and read when a context, a path or a message needs them (a few hundred
   * a context), so that a chat of a million messages opens within the isolate's 128 MB.
   * @default 50000
   */
  pagedFrom?: number;
}

/**
 * The most bytes a message's row may take: Cloudflare documents 2 MB for a string, BLOB or
 * row of a Durable Object's SQLite (workerd refuses past 2,200,000 bytes, SQLITE_TOOBIG).
 */
export const DURABLE_OBJECT_ROW_BYTES = 2_000_000;

/**
 * A store in a Durable Object's SQLite storage (`ctx.storage`), for Cloudflare Workers.
 * Use one object per user (`idFromName(userId)`) so that a user's chats list and open in
 * one place; every request for that user goes to the object, which runs them one at a time.
 * Writes are durable when the object's response leaves (Workers' output gate), so an
 * acknowledged append survives an eviction or a crash. Its tables are the SQLite store's,
 * named with `tablePrefix`; an object written by an older release is migrated on first use.
 * A message whose row would pass 2 MB (text, parts and tool calls) is refused with
 * MESSAGE_TOO_LARGE before anything is written. A chat of `pagedFrom` messages or more opens
 * paged (its texts stay in storage, read when needed), so that a million messages fit the
 * isolate's 128 MB. A delete, a redaction or an erasure changes the rows, so
 * no row the object reads back holds the old text; a Worker may not run VACUUM, secure_delete
 * or a checkpoint, so the old bytes are the runtime's (its log until it checkpoints, pages
 * SQLite freed until reused, and Cloudflare's point-in-time recovery for 30 days).
 * @throws INVALID_ARGUMENT when `storage` is not a SQLite-backed Durable Object's storage
 *   (a class created with `new_classes` rather than `new_sqlite_classes`), or for bad options
 */
export function durableObjectStore(
  storage: DurableObjectStorageLike,
  options?: DurableObjectStoreOptions,
): DurableObjectStore {
  const o = checkOptions<DurableObjectStoreOptions>(options, "durableObjectStore(options)", [
    "tablePrefix",
    "pagedFrom",
  ]);
  const pagedFrom = o.pagedFrom === undefined ? PAGED_FROM : checkInteger(o.pagedFrom, "pagedFrom", 1);
  if (
    typeof storage !== "object" ||
    storage === null ||
    typeof storage.sql?.exec !== "function" ||
    typeof storage.transactionSync !== "function"
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `durableObjectStore takes a Durable Object's ctx.storage with SQLite (new_sqlite_classes in your wrangler ` +
        `migrations); got ${describe(storage)}.`,
    );
  }
  const p = o.tablePrefix ?? "ctxloom_";
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(p)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `tablePrefix must be letters, digits and underscores; got ${describe(p)}.`,
    );
  }
  try {
    storage.sql.exec("SELECT 1");
  } catch (cause) {
    // An object of a class with key-value storage has `sql`, and every statement fails.
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `durableObjectStore needs a Durable Object with SQLite storage, and this one has none ` +
        `(${String((cause as Error)?.message ?? cause)}). ` +
        "Declare the class in new_sqlite_classes (not new_classes) of a wrangler migration; a class deployed with " +
        "key-value storage cannot switch, so give ctxloom a new class.",
      { cause },
    );
  }
  const names: SchemaNames = { prefix: p, versions: `${p}schema` };
  const place = durablePlace(p);
  const db = durableConnection(storage);
  const st = sqlStatements(p);
  const tx = new DurableTransactions(storage, db, st, place);
  const ops = new SqlStore(db, st, tx, {
    place,
    prefix: p,
    pageFrom: pagedFrom,
    maxRowBytes: DURABLE_OBJECT_ROW_BYTES,
    rowAdvice: "Split it, or keep large files outside the chat (an image or file part can hold a URL).",
  });
  const memory = new SqlMemory(db, st, tx, place);
  let migrated = false;
  const ready = (): SqlStore => {
    if (!migrated) {
      tx.write("migrating the tables", () =>
        migrate(
          db,
          names,
          (fn) => fn(),
          (from) => migrateReleased(db, names, from),
          (what) => corruptIn(place, what),
        ),
      );
      migrated = true;
    }
    return ops;
  };
  return withClearMarks({
    name: `durable-object:${p}`,
    hasChat: (userId, chatId) => ready().hasChat(userId, chatId),
    createChat: (chat) => ready().createChat(chat),
    importChat: (chat, messages: Message[]) => ready().importChat(chat, messages),
    listChats: (userId, page) => ready().listChats(userId, page),
    loadChat: (userId, chatId, since) => ready().loadChat(userId, chatId, since),
    appendMessage(request) {
      const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
        request,
        "appendMessage",
      );
      return ready().appendMessage(userId, chatId, message, head, updatedAt, key);
    },
    setHead(request) {
      const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
      return ready().setHead(userId, chatId, head, updatedAt, expected);
    },
    // The rows are deleted or rewritten; the old bytes are the platform's (see above).
    deleteChat: (userId, chatId) => ready().deleteChat(userId, chatId),
    redactMessages: (userId, chatId, changes) => ready().redactMessages(userId, chatId, changes),
    eraseUser: (userId) => ready().eraseUser(userId),
    pruneChats: (query) => ready().pruneChats(query),
    putEmbeddings(request) {
      const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
      return ready().putEmbeddings(userId, chatId, embedder, rows);
    },
    loadEmbeddings: (userId, chatId, embedder) => ready().loadEmbeddings(userId, chatId, embedder),
    clearEmbeddings: (userId, chatId) => ready().clearEmbeddings(userId, chatId),
    loadMemory: (userId, chatId, known) => (ready(), memory.loadMemory(userId, chatId, known)),
    loadMemoryHistory: (userId, chatId, query) => (ready(), memory.loadMemoryHistory(userId, chatId, query)),
    writeMemory(request) {
      const { userId, chatId, expected, records } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
      ready();
      return memory.writeMemory(userId, chatId, expected, records);
    },
    deleteMemory: (userId, chatId) => (ready(), memory.deleteMemory(userId, chatId)),
    flush() {},
    close() {},
  });
}

function durablePlace(p: string): SqlPlace {
  return {
    label: `The Durable Object store (tables ${p}*)`,
    where: `this Durable Object (tables ${p}*)`,
    restore:
      "restore the object's storage to an earlier time (point-in-time recovery), or give durableObjectStore() " +
      "another tablePrefix",
    advice(code) {
      if (code === "SQLITE_FULL")
        return (
          "the Durable Object's storage is full (Cloudflare allows 10 GB an object). Delete chats, or spread " +
          "users over more objects"
        );
      if (code === "SQLITE_TOOBIG")
        return `a value is larger than a Durable Object row holds (2 MB); retrying cannot help`;
      return undefined;
    },
  };
}

/** The kit's connection over `ctx.storage.sql` (workerd caches each statement's preparation by its text). */
function durableConnection(storage: DurableObjectStorageLike): SqlConnection {
  const sql = storage.sql;
  return {
    all: (query, ...params) => Array.from(sql.exec(query, ...params).raw()),
    get(query, ...params) {
      for (const row of sql.exec(query, ...params).raw()) return row;
      return undefined;
    },
    column: (query, ...params) => Array.from(sql.exec(query, ...params).raw(), (row) => row[0]),
    run(query, ...params) {
      sql.exec(query, ...params);
    },
    exec(query) {
      sql.exec(query);
    },
  };
}

/**
 * Every write in one `transactionSync` (its chats rows written before it ends); reads as they
 * come: the object runs one request's synchronous code at a time, and its output gate makes
 * a write durable before the response leaves.
 */
class DurableTransactions implements Transactions {
  readonly #storage: DurableObjectStorageLike;
  readonly #chats: ChatStates;
  readonly #place: SqlPlace;

  constructor(
    storage: DurableObjectStorageLike,
    db: SqlConnection,
    st: ReturnType<typeof sqlStatements>,
    place: SqlPlace,
  ) {
    this.#storage = storage;
    this.#chats = new ChatStates(db, st, place.where);
    this.#place = place;
  }

  write<T>(what: string, fn: () => T): T {
    try {
      return this.#storage.transactionSync(() => {
        this.#chats.begin();
        try {
          const result = fn();
          this.#chats.save();
          return result;
        } finally {
          this.#chats.end();
        }
      });
    } catch (error) {
      throw storeError(this.#place, what, error);
    }
  }

  read<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw storeError(this.#place, what, error);
    }
  }

  atomic<T>(fn: () => T): T {
    return this.#storage.transactionSync(fn);
  }

  state(userId: string, chatId: string): ChatState {
    return this.#chats.state(userId, chatId);
  }

  find(userId: string, chatId: string): ChatState | undefined {
    return this.#chats.find(userId, chatId);
  }

  touched(userId: string, chatId: string): boolean {
    return this.#chats.touched(userId, chatId);
  }

  forget(userId: string, chatId: string): void {
    this.#chats.forget(userId, chatId);
  }

  flush(): void {}

  close(): void {}
}
