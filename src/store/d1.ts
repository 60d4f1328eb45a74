// The store on Cloudflare D1 (ctxloom/cloudflare): the kit's schema, statements, row codec and
// checks (sql-*.ts), the SQLite file's and the Durable Object's, over D1's asynchronous, batched
// API (d1-ops.ts). The schema is made and migrated by the kit's own steps, replayed over D1
// (sql-replay.ts) in one batch.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { d1Memory, d1MemoryStatements } from "./d1-memory.js";
import { D1Ops } from "./d1-ops.js";
import { eraseUserD1, pruneD1 } from "./d1-retention.js";
import { d1Statements } from "./d1-statements.js";
import { d1Batch, type D1DatabaseLike } from "./d1-types.js";
import { corruptIn, storeError, type SqlPlace } from "./sql-errors.js";
import { replay } from "./sql-replay.js";
import { retentionStatements } from "./sql-retention.js";
import { migrate, type SchemaNames } from "./sql-schema.js";
import { sqlStatements } from "./sql-statements.js";
import { checkRequest } from "./call-checks.js";
import type { AppendMessageRequest, PutEmbeddingsRequest, SetHeadRequest, Store } from "./types.js";
import { withClearMarks } from "./clear-marks.js";

export type { D1DatabaseLike, D1PreparedStatementLike, D1ResultLike } from "./d1-types.js";

/** What `d1Store()` returns: a Store on Cloudflare D1. */
export interface D1Store extends Store {}

/** Options of `d1Store()`. */
export interface D1StoreOptions {
  /** Prefix of the table names; default "ctxloom_". Letters, digits and underscores. */
  tablePrefix?: string;
}

/** The most bytes a row may take: Cloudflare documents 2,000,000 for a D1 row, string or BLOB. */
const D1_ROW_BYTES = 2_000_000;

/**
 * A store on Cloudflare D1 (`env.DB`), for Workers that share chats across objects and regions.
 * Its tables are the SQLite store's and a Durable Object's (one schema), named with `tablePrefix`,
 * made and migrated on first use. D1 has no interactive transaction, so every write is one batch
 * (one transaction) that says its condition in SQL: an append inserts its row only where the
 * chat holds exactly the message's id messages and no message holds its key, moves the count only
 * where that row went in, and reads back in the same batch the count and the message its key
 * names; two Workers appending to one chat make sibling branches, never a lost or repeated
 * message. Users' working memories (`loom.user(id).memory`, a chat's own) are kept in the same
 * database, each write compared-and-set in one batch as well: of two writes made on one revision,
 * one lands and the other learns the new revision. A message whose row would pass 2 MB is refused
 * with MESSAGE_TOO_LARGE before anything is written. A delete, a redaction or an erasure changes
 * the rows (a deleted chat's memory, an erased user's memories go too); D1 keeps its own copies
 * (Time Travel, 30 days) and a Worker cannot VACUUM.
 * @throws INVALID_ARGUMENT when `db` is not a D1 binding, or for bad options
 */
export function d1Store(db: D1DatabaseLike, options?: D1StoreOptions): D1Store {
  const o = checkOptions<D1StoreOptions>(options, "d1Store(options)", ["tablePrefix"]);
  if (typeof db !== "object" || db === null || typeof db.prepare !== "function" || typeof db.batch !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `d1Store takes a D1 database binding (env.DB, declared in d1_databases of your wrangler config); got ` +
        `${describe(db)}.`,
    );
  }
  const p = o.tablePrefix ?? "ctxloom_";
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(p)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `tablePrefix must be letters, digits and underscores; got ${describe(p)}.`,
    );
  }
  const names: SchemaNames = { prefix: p, versions: `${p}schema` };
  const place = d1Place(p);
  const batch = d1Batch(db);
  const [st, d1, rt] = [sqlStatements(p), d1Statements(p), retentionStatements(p)];
  const corrupt = (what: string, cause?: unknown) => corruptIn(place, what, cause);
  const ops = new D1Ops(batch, st, d1, { where: place.where, corrupt, maxRowBytes: D1_ROW_BYTES });
  const memory = d1Memory(batch, st, d1MemoryStatements(p), place.where, corrupt);
  let migrated: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (migrated ??= replay(
      { read: (sql, params) => batch.rows(sql, params), write: (calls) => batch.batch(calls).then(() => undefined) },
      (conn) =>
        migrate(
          conn,
          names,
          (fn) => fn(),
          (from) => {
            throw corruptIn(place, `its tables are at schema version ${from}, which no D1 store of ctxloom made`);
          },
          (what) => corruptIn(place, what),
        ),
    ).then(
      () => undefined,
      (error: unknown) => {
        migrated = undefined; // the next call tries again
        throw storeError(place, "making or migrating the tables", error);
      },
    ));
  /** Runs `call` once the tables are ready; its failure as a CtxloomError naming `what`. */
  const run = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    await ready();
    try {
      return await call();
    } catch (error) {
      throw storeError(place, what, error);
    }
  };
  return withClearMarks({
    name: `d1:${p}`,
    hasChat: (userId, chatId) => run("looking a chat up", () => ops.hasChat(userId, chatId)),
    createChat: (chat) => run("creating a chat", () => ops.createChat(chat)),
    importChat: (chat, messages) => run("importing a chat", () => ops.importChat(chat, messages)),
    listChats: (userId, page) => run("listing chats", () => ops.listChats(userId, page)),
    loadChat: (userId, chatId, since) => run("loading a chat", () => ops.loadChat(userId, chatId, since)),
    appendMessage(request) {
      const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
        request,
        "appendMessage",
      );
      return run("appending a message", () => ops.appendMessage(userId, chatId, message, head, updatedAt, key));
    },
    setHead(request) {
      const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
      return run("moving the head", () => ops.setHead(userId, chatId, head, updatedAt, expected));
    },
    deleteChat: (userId, chatId) => run("deleting a chat", () => ops.deleteChat(userId, chatId)),
    redactMessages: (userId, chatId, changes) =>
      run("redacting messages", () => ops.redactMessages(userId, chatId, changes)),
    eraseUser: (userId) => run("erasing a user", () => eraseUserD1(batch, d1, rt, userId)),
    pruneChats: (query) => run("pruning chats", () => pruneD1(batch, d1, query)),
    putEmbeddings(request) {
      const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
      return run("storing embeddings", () => ops.putEmbeddings(userId, chatId, embedder, rows));
    },
    loadEmbeddings: (userId, chatId, embedder) =>
      run("loading embeddings", () => ops.loadEmbeddings(userId, chatId, embedder)),
    clearEmbeddings: (userId, chatId) => run("clearing embeddings", () => ops.clearEmbeddings(userId, chatId)),
    loadMemory: (userId, chatId, known) => run("loading a memory", () => memory.loadMemory(userId, chatId, known)),
    loadMemoryHistory: (userId, chatId, query) =>
      run("reading a memory's history", () => memory.loadMemoryHistory(userId, chatId, query)),
    writeMemory: (request) => run("writing a memory", () => memory.writeMemory(request)),
    deleteMemory: (userId, chatId) => run("deleting a memory", () => memory.deleteMemory(userId, chatId)),
    flush() {},
    close() {},
  });
}

function d1Place(p: string): SqlPlace {
  return {
    label: `The D1 store (tables ${p}*)`,
    where: `this D1 database (tables ${p}*)`,
    restore: "restore the database to an earlier time (D1 Time Travel), or give d1Store() another tablePrefix",
    advice(code) {
      if (code === "SQLITE_FULL")
        return (
          "the D1 database is full (Cloudflare allows 10 GB a database). Delete or prune chats, or spread " +
          "users over more databases"
        );
      if (code === "SQLITE_TOOBIG") return "a value is larger than a D1 row holds (2 MB); retrying cannot help";
      return undefined;
    },
  };
}
