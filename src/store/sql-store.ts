// The operations of the SQLite-dialect stores (a file through better-sqlite3, a Durable
// Object's storage), on the kit's schema, statements and row codec: arguments checked (the
// policy of checks.ts), then each read or write run through the store's transactions. The
// conditional append lives here: the next id under the write lock, or a conflict, or the
// message a key already holds.
import { CtxloomError } from "../errors.js";
import type { Message } from "../message.js";
import {
  checkAppend,
  checkChatRecord,
  checkHead,
  checkIds,
  checkImported,
  checkSetHead,
  checkSince,
  chatExists,
} from "./checks.js";
import { checkPage, checkRedactedIds, checkPruneQuery, checkRedactions } from "./call-checks.js";
import { eraseUserRows, pruneRows, retentionStatements, type RetentionStatements } from "./sql-retention.js";
import type { SqlConnection, Transactions } from "./sql-connection.js";
import { corruptIn, isUniqueViolation, type SqlPlace } from "./sql-errors.js";
import { loadChunked, loadColumns } from "./sql-load.js";
import { NumberChunks } from "./sql-paged.js";
import { chatRecord, messagesOf, type ChatRow, type Corrupt } from "./sql-rows.js";
import type { Statements } from "./sql-statements.js";
import type {
  AppendResult,
  ChatPage,
  ChatRecord,
  EmbedderInfo,
  EmbeddingRow,
  ErasedUser,
  LoadedChat,
  MessageRedaction,
  PruneBatch,
  PruneQuery,
  Store,
} from "./types.js";
import { loadedColumns } from "./internal.js";
import { clearEmbeddingRows, loadEmbeddingRows, putEmbeddingRows, type SqlEmbeddingsOn } from "./sql-embeddings.js";
import { RowLimit } from "./sql-row-limit.js";

/** A Store whose methods answer at once (a promise nowhere). */
export type SyncStore = {
  [K in keyof Store]-?: Store[K] extends (...args: infer A) => infer R
    ? (...args: A) => Exclude<R, Promise<unknown>>
    : Store[K];
};

export interface SqlStoreSettings {
  /** Where the data is, for errors. */
  place: SqlPlace;
  /**
   * The most bytes a row may take, where SQLite is built with a limit (a Durable Object's); a message past it is
   * refused.
   */
  maxRowBytes?: number;
  /** What a user does about a row past maxRowBytes (a sentence). */
  rowAdvice?: string;
  /** The tables' prefix (sql-schema.ts): "" for a file of its own. */
  prefix?: string;
  /**
   * Chats of this many messages or more open without their texts, read when asked (sql-paged.ts);
   * default never. A store that pages writes each chat's chunks of numbers as they fill (sql-numbers.ts).
   */
  pageFrom?: number;
}

export class SqlStore {
  readonly #db: SqlConnection;
  readonly #st: Statements;
  readonly #tx: Transactions;
  readonly #place: SqlPlace;
  readonly #rows: RowLimit;
  readonly #on: SqlEmbeddingsOn;
  readonly #corrupt: Corrupt;
  readonly #rt: RetentionStatements;
  readonly #chunks: NumberChunks;
  readonly #pageFrom: number;

  constructor(db: SqlConnection, st: Statements, tx: Transactions, settings: SqlStoreSettings) {
    this.#pageFrom = settings.pageFrom ?? Infinity;
    this.#rt = retentionStatements(settings.prefix ?? "");
    this.#db = db;
    this.#st = st;
    this.#tx = tx;
    this.#place = settings.place;
    this.#rows = new RowLimit(settings.place, settings.maxRowBytes ?? Infinity, settings.rowAdvice ?? "");
    this.#corrupt = (what, cause) => corruptIn(this.#place, what, cause);
    this.#on = { db, st, tx, corrupt: this.#corrupt };
    this.#chunks = new NumberChunks(db, settings.prefix ?? "", this.#pageFrom !== Infinity, this.#corrupt);
  }

  hasChat(userId: string, chatId: string): boolean {
    checkIds(userId, chatId);
    return this.#tx.read("looking a chat up", () => this.#db.get(this.#st.chatState, userId, chatId) !== undefined);
  }

  createChat(chat: ChatRecord): void {
    const c = checkChatRecord(chat);
    const values = this.#rows.chat(c);
    this.#tx.write("creating a chat", () => this.#tx.atomic(() => this.#addChat(c, values)));
  }

  /**
   * Adds the chat's row (and its user's); its key. CHAT_EXISTS when the user has a chat of that
   * id: looked up under the write lock, and the unique index on (user, id) refuses it besides.
   */
  #addChat(c: ChatRecord, values: unknown[]): number {
    if (this.#tx.touched(c.userId, c.id) || this.#db.get(this.#st.chatState, c.userId, c.id) !== undefined)
      throw chatExists(this.#place.where, c);
    this.#db.run(this.#st.addUser, c.userId, c.createdAt);
    try {
      this.#db.run(this.#st.addChat, ...values);
    } catch (error) {
      if (isUniqueViolation(error)) throw chatExists(this.#place.where, c);
      throw error;
    }
    return this.#db.get(this.#st.chatState, c.userId, c.id)![0] as number;
  }

  importChat(chat: ChatRecord, messages: Message[]): void {
    const c = checkChatRecord(chat, true);
    const rows = checkImported(c, messages).map((m) => this.#rows.message(m, null));
    const values = this.#rows.chat(c);
    this.#tx.write("importing a chat", () => {
      // One savepoint: the chat and all its messages, or nothing.
      this.#tx.atomic(() => {
        const chatKey = this.#addChat(c, values);
        for (const row of rows) this.#db.run(this.#st.addMessage, chatKey, ...row);
        this.#chunks.imported(chatKey, rows.length);
      });
    });
  }

  listChats(userId: string, page?: ChatPage): ChatRecord[] {
    checkIds(userId, undefined, true);
    const p = checkPage(page);
    return this.#tx.read("listing chats", () => {
      const rows = !p
        ? this.#db.all(this.#st.chats, userId)
        : !p.after
          ? this.#db.all(this.#st.chatsFirst, userId, p.limit)
          : this.#db.all(this.#st.chatsAfter, userId, p.after.updatedAt, p.after.createdAt, p.after.id, p.limit);
      return rows.map((row) => chatRecord(row as ChatRow, this.#corrupt));
    });
  }

  loadChat(userId: string, chatId: string, since = 0): LoadedChat | undefined {
    checkIds(userId, chatId);
    checkSince(since);
    return this.#tx.read("loading a chat", () =>
      this.#tx.atomic(() => {
        const row = this.#db.get(this.#st.chat, userId, chatId) as ChatRow | undefined;
        if (row === undefined) return undefined;
        const chat = chatRecord(row, this.#corrupt);
        const columns = since === 0 ? this.#columns(row[0], chat.messageCount, userId, chatId) : undefined;
        if (columns) return loadedColumns(chat, columns);
        const messages =
          loadChunked(this.#db, this.#st, row[0], since, chat.messageCount, this.#corrupt, chatId) ??
          messagesOf(this.#db.all(this.#st.messages, row[0], since), this.#corrupt, chatId);
        const expected = Math.max(0, chat.messageCount - since);
        if (messages.length !== expected || (messages.length > 0 && messages[0]!.id !== since)) {
          throw this.#corrupt(
            `chat ${chatId} records ${chat.messageCount} messages but its ids from ${since} are not dense`,
          );
        }
        return { chat, messages };
      }),
    );
  }

  /**
   * A whole chat's columns: without its texts past pageFrom messages (sql-paged.ts), else with them; undefined: read it
   * row by row.
   */
  #columns(key: number, count: number, userId: string, chatId: string) {
    const paged =
      count < this.#pageFrom
        ? undefined
        : this.#chunks.load(key, count, chatId, {
            read: (sql, ...params) => this.#tx.read("reading a message's text", () => this.#db.get(sql, ...params)),
            gone: () =>
              new CtxloomError(
                "UNKNOWN_CHAT",
                `Chat ${chatId} of user ${userId} is no longer in ${this.#place.where}; it was deleted elsewhere.`,
              ),
          });
    return paged ?? loadColumns(this.#db, this.#st, key, count, this.#corrupt, chatId);
  }

  appendMessage(
    userId: string,
    chatId: string,
    message: Message,
    head: number,
    updatedAt: number,
    key?: string,
  ): AppendResult {
    const m = checkAppend(userId, chatId, message, head, updatedAt, key);
    const row = this.#rows.message(m, key ?? null);
    return this.#tx.write("appending a message", () => {
      const c = this.#tx.state(userId, chatId);
      // The key is looked up only when the append cannot go in: the unique index finds it otherwise.
      if (m.id !== c.size) return this.#stored(c.key, key, chatId) ?? { ok: false, size: c.size };
      try {
        this.#db.run(this.#st.addMessage, c.key, ...row);
      } catch (error) {
        const existing = isUniqueViolation(error) ? this.#stored(c.key, key, chatId) : undefined;
        if (existing) return existing;
        throw error;
      }
      c.size++;
      this.#chunks.appended(c.key, c.size);
      c.head = head;
      c.updated = updatedAt;
      c.dirty = true;
      return { ok: true };
    });
  }

  /** The answer for a key the chat already holds a message under, or undefined. */
  #stored(chat: number, key: string | undefined, chatId: string): AppendResult | undefined {
    if (key === undefined) return undefined;
    const rows = this.#db.all(this.#st.messageByKey, chat, key);
    return rows.length === 0 ? undefined : { ok: false, existing: messagesOf(rows, this.#corrupt, chatId)[0]! };
  }

  setHead(userId: string, chatId: string, head: number | null, updatedAt: number, expected?: number | null): boolean {
    checkSetHead(userId, chatId, head, updatedAt, expected);
    return this.#tx.write("moving the head", () => {
      const c = this.#tx.state(userId, chatId);
      const next = checkHead(head, c.size, chatId);
      if (expected !== undefined && c.head !== expected) return false;
      c.head = next;
      c.updated = updatedAt;
      c.dirty = true;
      return true;
    });
  }

  deleteChat(userId: string, chatId: string): boolean {
    checkIds(userId, chatId);
    return this.#tx.write("deleting a chat", () => {
      const found = this.#tx.find(userId, chatId);
      if (!found) return false;
      this.#tx.atomic(() => {
        this.#db.run(this.#st.deleteEmbeddings, found.key);
        this.#db.run(this.#st.deleteMessages, found.key);
        this.#db.run(this.#st.deleteNumbers, found.key);
        this.#db.run(this.#st.deleteChat, found.key);
        this.#db.run(this.#st.deleteMemory, userId, chatId); // its own memory goes with it
      });
      this.#tx.forget(userId, chatId);
      return true;
    });
  }

  /**
   * chat.redact: the messages' new contents and tool calls, their parts and embeddings gone, in
   * one savepoint. What is left of the old bytes in the file is the store's to erase (see sqlite-store.ts).
   */
  redactMessages(userId: string, chatId: string, changes: MessageRedaction[]): boolean {
    const checked = checkRedactions(userId, chatId, changes);
    const rows = checked.map(
      (c) => [c.content, c.toolCalls ? JSON.stringify(c.toolCalls) : null, c.tokens, c.id] as const,
    );
    return this.#tx.write("redacting messages", () => {
      const found = this.#tx.find(userId, chatId);
      if (!found) return false;
      checkRedactedIds(checked, found.size, chatId);
      this.#tx.atomic(() => {
        for (const [content, calls, tokens, id] of rows) {
          this.#db.run(this.#st.redact, content, calls, tokens, found.key, id);
          this.#db.run(this.#st.deleteMessageEmbeddings, found.key, id);
        }
        this.#chunks.redacted(
          found.key,
          rows.map(([, , , id]) => id),
          found.size,
        );
      });
      return true;
    });
  }

  /** Every chat of the user and the user's row, in one transaction (sql-retention.ts). */
  eraseUser(userId: string): ErasedUser {
    checkIds(userId, undefined, true);
    return eraseUserRows(this.#db, this.#rt, this.#tx, userId);
  }

  /** One batch of a prune, in one transaction (sql-retention.ts). */
  pruneChats(query: PruneQuery): PruneBatch {
    return pruneRows(this.#db, this.#st, this.#rt, this.#tx, checkPruneQuery(query));
  }

  putEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo, rows: EmbeddingRow[]): void {
    putEmbeddingRows(this.#on, userId, chatId, embedder, rows);
  }

  loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): EmbeddingRow[] {
    return loadEmbeddingRows(this.#on, userId, chatId, embedder);
  }

  clearEmbeddings(userId: string, chatId?: string): void {
    clearEmbeddingRows(this.#on, userId, chatId);
  }
}
