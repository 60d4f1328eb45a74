import type { Pool, PoolConfig, QueryResult } from "pg";
import { CtxloomError } from "../errors.js";
import type {
  AppendMessageRequest,
  AppendResult,
  ChatRecord,
  LoadedChat,
  PutEmbeddingsRequest,
  SetHeadRequest,
  Store,
} from "./types.js";
import {
  checkAppend,
  checkChatRecord,
  checkIds,
  checkImported,
  checkSetHead,
  checkSince,
  chatExists,
  unknownChat,
} from "./checks.js";
import { checkEmbedder, checkEmbeddingIds, checkEmbeddingRows, checkPage, checkRequest } from "./call-checks.js";
import { loadPg, redact } from "./postgres-pool.js";
import { redactRows } from "./postgres-redact.js";
import { eraseUserRows, pruneRows, retentionStatements } from "./postgres-retention.js";
import { appendRow, checkin, checkout } from "./postgres-append.js";
import { migrate } from "./postgres-schema.js";
import { postgresMemory } from "./postgres-memory.js";
import { checkPostgresOptions, type PostgresStoreOptions } from "./postgres-options.js";
import { PG_TEXT, toText } from "./postgres-rows.js";
import { postgresStatements, type Statement, type Statements } from "./postgres-sql.js";
import { postgresWatch, type StoreChange } from "./postgres-watch.js";
import { chatRecord, chatValues, messagesOf, messageValues, type ChatRow } from "./sql-rows.js";
import { vectorFromBytes, vectorToBytes } from "./vectors.js";
import { withClearMarks } from "./clear-marks.js";

export type { PostgresStoreOptions } from "./postgres-options.js";
export type { StoreChange } from "./postgres-watch.js";

/** The PostgreSQL store: a Store, plus `watch()` to learn of other instances' appends. */
export interface PostgresStore extends Store {
  /**
   * Calls `listener` after every append committed by any instance on this database
   * (LISTEN/NOTIFY; this instance's own appends included). Returns a function that stops
   * listening. Open chats call `chat.refresh()` to apply what they missed.
   */
  watch(listener: (change: StoreChange) => void): Promise<() => Promise<void>>;
}

/** The greatest message id the messages table holds (a PostgreSQL integer). */
const MAX_ID = 2 ** 31 - 1;

/**
 * A store on PostgreSQL for fleets of servers sharing users and chats: `pg` (an optional
 * peer dependency: `npm install pg`) over a connection string or your own `Pool`. The
 * schema is created and migrated on first use. Appends are conditional (the id must be the
 * chat's next: a writer that loses the race gets a conflict and retries as a sibling) and
 * atomic; head moves can be compare-and-set. A deleted chat, a redacted message: no row the
 * database reads back holds the old text, but the old row versions stay in the tables' files
 * until VACUUM reclaims them (autovacuum, or the operator), and in the WAL, archives, replicas and
 * backups: erasing those is the operator's.
 * @throws INVALID_ARGUMENT for bad options; STORE_FAILED when `pg` is not installed
 */
export function postgresStore(target: string | Pool, options?: PostgresStoreOptions): PostgresStore {
  const o = checkPostgresOptions(target, options);
  const prefix = o.prefix;
  const sql: Statements = postgresStatements(prefix);
  const rt = retentionStatements(prefix);
  const owned = typeof target === "string";
  let pool: Pool | undefined = owned ? undefined : target;
  let ready: Promise<Pool> | undefined;
  let closed = false;
  const name = owned ? `postgres:${redact(target)}` : "postgres";

  const open = (): Promise<Pool> => {
    if (closed)
      return Promise.reject(
        new CtxloomError("STORE_FAILED", `The PostgreSQL store ${name} is closed; open a new one.`),
      );
    ready ??= (async () => {
      if (!pool) {
        const pg = await loadPg();
        const config: PoolConfig = {
          connectionString: target as string,
          max: o.max ?? 10,
          query_timeout: o.queryTimeoutMs ?? 30_000,
          connectionTimeoutMillis: o.queryTimeoutMs ?? 30_000,
        };
        if (o.durability === "batched") config.options = "-c synchronous_commit=off";
        pool = new pg.Pool(config);
        // An idle connection that breaks must not crash the process: the next query reconnects.
        pool.on("error", () => undefined);
      }
      await migrate(pool, prefix);
      return pool;
    })().catch((error: unknown) => {
      ready = undefined; // a later call tries again (the server may be back)
      throw error;
    });
    return ready;
  };
  const query = async (statement: Statement, values: unknown[]): Promise<QueryResult> =>
    (await open()).query({ ...statement, values });
  const corrupt = (what: string, cause?: unknown) =>
    new CtxloomError(
      "STORE_CORRUPT",
      `The PostgreSQL store ${name} cannot be used: ${what}; its tables were changed outside ctxloom.`,
      cause === undefined ? undefined : { cause },
    );
  /** The chat's message count, or UNKNOWN_CHAT. */
  const sizeOf = async (userId: string, chatId: string): Promise<number> => {
    const row = (await query(sql.size, [toText(chatId), toText(userId)])).rows[0] as
      | { message_count: number }
      | undefined;
    if (row === undefined) throw unknownChat(name, userId, chatId);
    return row.message_count;
  };
  /** A chat the user has already: the primary key refused it. */
  const created = async (chat: ChatRecord, write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (error) {
      if (
        (error as { code?: unknown }).code === "23505" &&
        (error as { constraint?: unknown }).constraint === `${prefix}chats_pkey`
      )
        throw chatExists(name, chat);
      throw error;
    }
  };

  const memory = postgresMemory(open, prefix, name, corrupt);
  const watcher = postgresWatch(open, sql.channel);
  const store: PostgresStore = withClearMarks({
    name,
    async hasChat(userId, chatId) {
      checkIds(userId, chatId);
      return (await query(sql.size, [toText(chatId), toText(userId)])).rowCount === 1;
    },
    async createChat(chat) {
      const c = checkChatRecord(chat);
      await created(c, () => query(sql.createChat, chatValues(c, PG_TEXT)));
    },
    async importChat(chat, messages) {
      const c = checkChatRecord(chat, true);
      const rows = checkImported(c, messages).map((m) => messageValues(m, PG_TEXT));
      // One transaction: the chat and all its messages, or nothing.
      const client = await checkout(await open());
      try {
        await client.query("BEGIN");
        await created(c, () => client.query({ ...sql.createChat, values: chatValues(c, PG_TEXT) }));
        if (rows.length > 0) {
          // One array per column (unnest makes the rows back).
          const columns = rows[0]!.map((_, i) => rows.map((row) => row[i]));
          await client.query({ ...sql.importMessages, values: [toText(c.userId), toText(c.id), ...columns] });
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        checkin(client);
      }
    },
    async listChats(userId, page) {
      checkIds(userId, undefined, true);
      const p = checkPage(page);
      const user = toText(userId);
      const r = !p
        ? await query(sql.listChats, [user])
        : !p.after
          ? await query(sql.listChatsFirst, [user, p.limit])
          : await query(sql.listChatsAfter, [user, p.after.updatedAt, p.after.createdAt, toText(p.after.id), p.limit]);
      return r.rows.map((row) => chatRecord(row as ChatRow, corrupt, PG_TEXT));
    },
    async loadChat(userId, chatId, since = 0): Promise<LoadedChat | undefined> {
      checkIds(userId, chatId);
      checkSince(since);
      const [user, id] = [toText(userId), toText(chatId)];
      // One snapshot: the record's head and count agree with the messages read.
      const client = await checkout(await open());
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const chat = (await client.query({ ...sql.loadChat, values: [id, user] })).rows[0] as ChatRow | undefined;
        // Ids are PostgreSQL integers: past the greatest, there is no message to read (and the server would refuse the
        // number).
        const rows =
          chat && since <= MAX_ID ? (await client.query({ ...sql.loadMessages, values: [id, since, user] })).rows : [];
        await client.query("COMMIT");
        return chat
          ? { chat: chatRecord(chat, corrupt, PG_TEXT), messages: messagesOf(rows, corrupt, chatId, PG_TEXT) }
          : undefined;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        checkin(client);
      }
    },
    async appendMessage(request): Promise<AppendResult> {
      const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
        request,
        "appendMessage",
      );
      const m = checkAppend(userId, chatId, message, head, updatedAt, key);
      return appendRow(
        await open(),
        sql,
        `${prefix}messages_key`,
        name,
        userId,
        chatId,
        m,
        head,
        updatedAt,
        key,
        corrupt,
      );
    },
    async setHead(request) {
      const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
      checkSetHead(userId, chatId, head, updatedAt, expected);
      const r = await query(sql.setHead, [
        toText(chatId),
        toText(userId),
        head,
        updatedAt,
        expected !== undefined,
        expected ?? null,
      ]);
      if (r.rowCount === 1) return true;
      const size = await sizeOf(userId, chatId);
      if (head !== null && head >= size)
        throw new CtxloomError(
          "UNKNOWN_MESSAGE",
          `head ${head} is not a message of chat ${chatId}, which holds ${size} messages.`,
        );
      return false;
    },
    /**
     * The chat's rows go (its messages and embeddings by the foreign keys); see postgresStore on the old row versions.
     */
    async deleteChat(userId, chatId) {
      checkIds(userId, chatId);
      return (await query(sql.deleteChat, [toText(chatId), toText(userId)])).rowCount === 1;
    },
    redactMessages: (userId, chatId, changes) =>
      redactRows((values) => query(sql.redact, values), userId, chatId, changes),
    /**
     * The user's chats go, their messages and embeddings by the foreign keys; see postgresStore on the old row
     * versions.
     */
    eraseUser: (userId) => eraseUserRows(query, rt, userId),
    pruneChats: (q) => pruneRows(query, rt, q),
    async putEmbeddings(request) {
      const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
      checkIds(userId, chatId);
      const e = checkEmbedder(embedder);
      checkEmbeddingRows(rows, e.dimension);
      if (rows.length === 0) {
        await sizeOf(userId, chatId);
        return;
      }
      const last = Math.max(...rows.map((row) => row.messageId));
      const r = await query(sql.putEmbeddings, [
        toText(chatId),
        toText(userId),
        toText(e.name),
        e.dimension,
        rows.map((row) => row.messageId),
        rows.map((row) => vectorToBytes(row.vector)),
        last,
      ]);
      // nothing was written: say why
      if (r.rowCount === 0) checkEmbeddingIds(rows, await sizeOf(userId, chatId), chatId);
    },
    async loadEmbeddings(userId, chatId, embedder) {
      checkIds(userId, chatId);
      const e = checkEmbedder(embedder);
      const r = await query(sql.loadEmbeddings, [toText(chatId), toText(userId), toText(e.name), e.dimension]);
      return r.rows.map(([messageId, bytes]: [number, Uint8Array]) => {
        if (bytes.byteLength !== e.dimension * 4)
          throw corrupt(
            `chat ${chatId}'s embedding of message ${messageId} holds ${bytes.byteLength} bytes, not ${e.dimension} ` +
              `floats`,
          );
        return { messageId, vector: vectorFromBytes(bytes) };
      });
    },
    async clearEmbeddings(userId, chatId) {
      checkIds(userId, chatId, true);
      await query(sql.clearEmbeddings, [toText(userId), chatId === undefined ? null : toText(chatId)]);
    },
    loadMemory: memory.loadMemory,
    loadMemoryHistory: memory.loadMemoryHistory,
    writeMemory: memory.writeMemory,
    deleteMemory: memory.deleteMemory,
    flush() {},
    watch: (listener) => watcher.watch(listener),
    async close() {
      if (closed) return;
      closed = true;
      watcher.close();
      if (owned && pool) await pool.end();
    },
  });
  return store;
}

export type { ChatRecord };
