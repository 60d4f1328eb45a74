// The SQLite store's operations. Every write runs in a transaction that holds SQLite's write
// lock (BEGIN IMMEDIATE): the conditional append checks the chat's size under the lock, so
// writers in several processes serialize. "full" commits each write before it resolves;
// "batched" keeps the transaction open for a batch (group commit), during which this
// connection's view of each chat it touched is authoritative: nobody else can write.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import type { Message } from "../message.js";
import { loadedColumns, type AppendResult, type ChatRecord, type EmbedderInfo, type EmbeddingRow, type LoadedChat } from "./types.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { corrupt, storeError } from "./sqlite-errors.js";
import { loadChunked, loadColumns } from "./sqlite-load.js";
import { chatRecord, chatValues, messagesOf, messageValues, type ChatRow, type Statements } from "./sqlite-statements.js";
import { checkChatRecord, checkEmbedder, checkEmbeddingRows, checkHead, checkMessage, checkText, checkTime } from "./sqlite-checks.js";
import type { Durability, SqliteStore } from "./sqlite.js";

/** A chat as the open write transaction sees it: authoritative while this connection holds the write lock. */
interface ChatState {
  key: number;
  size: number;
  head: number | null;
  updated: number;
  /** Its chats row is written at commit (or before a read). */
  dirty: boolean;
}

/**
 * This process's stores by database file. A store about to take the write lock first commits
 * the open batches of the others on the same file: they could not commit while it waits.
 */
const openFiles = new Map<string, Set<SqliteStoreImpl>>();

export class SqliteStoreImpl implements SqliteStore {
  readonly name: string;
  readonly path: string;
  readonly durability: Durability;
  readonly database: SqliteDatabase;
  readonly #file: string | undefined;
  readonly #batchSize: number;
  readonly #batchDelayMs: number;
  readonly #st: Statements;
  /** Chats the open write transaction touched; null when no write transaction is open. */
  #chats: Map<string, ChatState> | null = null;
  /** Writes in the open transaction. */
  #writes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when a failed commit lost acknowledged "batched" writes: every later call reports it. */
  #lost: CtxloomError | undefined;
  #closed = false;
  readonly #atomic: <T>(fn: () => T) => T;

  constructor(db: SqliteDatabase, path: string, file: string | undefined, settings: { durability: Durability; batchSize: number; batchDelayMs: number }, st: Statements) {
    this.database = db;
    this.path = path;
    this.name = `sqlite:${path}`;
    this.durability = settings.durability;
    this.#batchSize = settings.durability === "full" ? 1 : settings.batchSize;
    this.#batchDelayMs = settings.batchDelayMs;
    this.#file = file;
    this.#st = st;
    // Inside the open write transaction, better-sqlite3's transaction() is a savepoint.
    const atomic = db.transaction((fn: () => unknown) => fn());
    this.#atomic = atomic as <T>(fn: () => T) => T;
    if (file !== undefined) openFiles.set(file, (openFiles.get(file) ?? new Set()).add(this));
  }

  async createChat(chat: ChatRecord): Promise<void> {
    const c = checkChatRecord(chat);
    this.#write("creating a chat", () => this.#atomic(() => this.#addChat(c)));
  }

  /** Adds the chat's row (and its user's); its key. INVALID_ARGUMENT when the user has a chat of that id. */
  #addChat(c: ChatRecord): number {
    if (this.#chats!.has(`${c.userId}\u0000${c.id}`) || this.#st.chatState.get(c.userId, c.id) !== undefined) {
      throw new CtxloomError("INVALID_ARGUMENT", `User ${c.userId} already has a chat ${c.id} in ${this.path}; give the new chat another id.`);
    }
    this.#st.addUser.run(c.userId, c.createdAt);
    this.#st.addChat.run(...chatValues(c));
    return (this.#st.chatState.get(c.userId, c.id) as [number])[0];
  }

  async importChat(chat: ChatRecord, messages: Message[]): Promise<void> {
    const c = checkChatRecord(chat, true);
    const rows = messages.map((m, i) => {
      const checked = checkMessage(m);
      if (checked.id !== i) throw new CtxloomError("INVALID_ARGUMENT", `importChat: message ${i} has id ${checked.id}; ids must run 0, 1, 2, ... in order.`);
      return checked;
    });
    if (c.messageCount !== rows.length) {
      throw new CtxloomError("INVALID_ARGUMENT", `importChat: the record says ${c.messageCount} messages but ${rows.length} were given.`);
    }
    if (c.head !== null) checkHead(c.head, rows.length, c.id);
    this.#write("importing a chat", () => {
      // One savepoint: the chat and all its messages, or nothing.
      this.#atomic(() => {
        const chatKey = this.#addChat(c);
        for (const m of rows) this.#st.addMessage.run(chatKey, ...messageValues(m));
      });
    });
  }

  async listChats(userId: string): Promise<ChatRecord[]> {
    checkText(userId, "userId");
    return this.#read("listing chats", () => (this.#st.chats.all(userId) as ChatRow[]).map((row) => chatRecord(row, this.path)));
  }

  async loadChat(userId: string, chatId: string, since = 0): Promise<LoadedChat | undefined> {
    checkText(userId, "userId");
    checkText(chatId, "chatId");
    checkInteger(since, "since", 0);
    return this.#read("loading a chat", () =>
      this.#atomic(() => {
        const row = this.#st.chat.get(userId, chatId) as ChatRow | undefined;
        if (row === undefined) return undefined;
        const chat = chatRecord(row, this.path);
        const columns = since === 0 ? loadColumns(this.#st, row[0], chat.messageCount, this.path, chatId) : undefined;
        if (columns) return loadedColumns(chat, columns);
        const messages =
          loadChunked(this.#st, row[0], since, chat.messageCount, this.path, chatId) ??
          messagesOf(this.#st.messages.all(row[0], since), this.path, chatId);
        const expected = Math.max(0, chat.messageCount - since);
        if (messages.length !== expected || (messages.length > 0 && messages[0]!.id !== since)) {
          throw corrupt(this.path, `chat ${chatId} records ${chat.messageCount} messages but its ids from ${since} are not dense`);
        }
        return { chat, messages };
      }),
    );
  }

  async appendMessage(userId: string, chatId: string, message: Message, head: number, updatedAt: number): Promise<AppendResult> {
    const m = checkMessage(message);
    checkTime(updatedAt, "updatedAt");
    return this.#write("appending a message", () => {
      const c = this.#state(userId, chatId);
      if (m.id !== c.size) return { ok: false, size: c.size };
      checkHead(head, c.size + 1, chatId);
      this.#st.addMessage.run(c.key, ...messageValues(m));
      c.size++;
      c.head = head;
      c.updated = updatedAt;
      c.dirty = true;
      return { ok: true };
    });
  }

  async setHead(userId: string, chatId: string, head: number | null, updatedAt: number, expected?: number | null): Promise<boolean> {
    checkTime(updatedAt, "updatedAt");
    if (expected !== undefined && expected !== null) checkInteger(expected, "expected", 0);
    return this.#write("moving the head", () => {
      const c = this.#state(userId, chatId);
      const next = checkHead(head, c.size, chatId);
      if (expected !== undefined && c.head !== expected) return false;
      c.head = next;
      c.updated = updatedAt;
      c.dirty = true;
      return true;
    });
  }

  async deleteChat(userId: string, chatId: string): Promise<boolean> {
    checkText(userId, "userId");
    checkText(chatId, "chatId");
    return this.#write("deleting a chat", () => {
      const found = this.#find(userId, chatId);
      if (!found) return false;
      this.#atomic(() => {
        this.#st.deleteEmbeddings.run(found.key);
        this.#st.deleteMessages.run(found.key);
        this.#st.deleteChat.run(found.key);
      });
      this.#chats!.delete(`${userId}\u0000${chatId}`);
      return true;
    });
  }

  async putEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo, rows: EmbeddingRow[]): Promise<void> {
    const e = checkEmbedder(embedder);
    this.#write("storing embeddings", () => {
      const c = this.#state(userId, chatId);
      checkEmbeddingRows(rows, e.dimension, c.size, chatId);
      this.#atomic(() => {
        for (const row of rows) {
          const v = row.vector;
          this.#st.putEmbedding.run(c.key, row.messageId, e.name, e.dimension, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        }
      });
    });
  }

  async loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): Promise<EmbeddingRow[]> {
    const e = checkEmbedder(embedder);
    return this.#read("loading embeddings", () => {
      const found = this.#find(userId, chatId);
      if (!found) return [];
      return (this.#st.embeddings.all(found.key, e.name, e.dimension) as [number, Uint8Array][]).map(([messageId, bytes]) => {
        if (bytes.byteLength !== e.dimension * 4) {
          throw corrupt(this.path, `chat ${chatId}'s embedding of message ${messageId} holds ${bytes.byteLength} bytes, not ${e.dimension} floats`);
        }
        const vector = new Float32Array(e.dimension);
        new Uint8Array(vector.buffer).set(bytes);
        return { messageId, vector };
      });
    });
  }

  async clearEmbeddings(userId: string, chatId?: string): Promise<void> {
    checkText(userId, "userId");
    if (chatId !== undefined) checkText(chatId, "chatId");
    this.#write("clearing embeddings", () => {
      if (chatId === undefined) {
        this.#st.deleteUserEmbeddings.run(userId);
      } else {
        const found = this.#find(userId, chatId);
        if (found) this.#st.deleteEmbeddings.run(found.key);
      }
    });
  }

  async flush(): Promise<void> {
    this.#usable();
    if (this.#chats) this.#commit("flushing");
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#chats && !this.#lost) this.#commit("closing");
    } finally {
      this.#closed = true;
      clearTimeout(this.#timer);
      if (this.#chats && this.database.inTransaction) this.#st.rollback.run();
      const peers = this.#file === undefined ? undefined : openFiles.get(this.#file);
      peers?.delete(this);
      if (peers?.size === 0) openFiles.delete(this.#file!);
      this.database.close();
    }
  }

  #usable(): void {
    if (this.#closed) throw new CtxloomError("STORE_FAILED", `The SQLite store ${this.path} was closed; open it again with sqliteStore().`);
    if (this.#lost) throw this.#lost;
  }

  /** The chat's state in the open write transaction; UNKNOWN_CHAT when the user has no such chat. */
  #state(userId: string, chatId: string): ChatState {
    const found = this.#find(userId, chatId);
    if (found) return found;
    throw new CtxloomError("UNKNOWN_CHAT", `User ${describe(userId)} has no chat ${describe(chatId)} in ${this.path}.`);
  }

  #find(userId: string, chatId: string): ChatState | undefined {
    const key = `${userId}\u0000${chatId}`;
    let c = this.#chats?.get(key);
    if (c) return c;
    const row = this.#st.chatState.get(userId, chatId) as [number, number, number | null, number] | undefined;
    if (!row) return undefined;
    c = { key: row[0], size: row[1], head: row[2], updated: row[3], dirty: false };
    this.#chats?.set(key, c);
    return c;
  }

  /** Runs a write in the open transaction (opening one), then commits when the batch is due. */
  #write<T>(what: string, fn: () => T): T {
    this.#usable();
    if (!this.#chats) this.#begin(what);
    let result: T;
    try {
      result = fn();
    } catch (error) {
      if (!this.database.inTransaction) {
        // SQLite rolled the whole transaction back (a full disk does that).
        this.#failed(what, error);
      } else if (this.durability === "full" || this.#writes === 0) {
        this.#rollback();
      }
      throw this.#lost ?? storeError(this.path, what, error);
    }
    this.#writes++;
    if (this.#writes >= this.#batchSize) this.#commit(what);
    else this.#timer ??= setTimeout(() => this.#commitLater(), this.#batchDelayMs);
    return result;
  }

  /** Runs a read; in an open write transaction, after writing the chats rows it changed. */
  #read<T>(what: string, fn: () => T): T {
    this.#usable();
    try {
      if (this.#chats) this.#saveChats();
      return fn();
    } catch (error) {
      if (this.#chats && !this.database.inTransaction) this.#failed(what, error);
      throw this.#lost ?? storeError(this.path, what, error);
    }
  }

  #begin(what: string): void {
    for (const peer of this.#file === undefined ? [] : openFiles.get(this.#file) ?? []) {
      if (peer !== this && peer.#chats) peer.#commitLater();
    }
    try {
      this.#st.begin.run();
    } catch (error) {
      throw storeError(this.path, what, error);
    }
    this.#chats = new Map();
    this.#writes = 0;
  }

  #saveChats(): void {
    for (const c of this.#chats!.values()) {
      if (!c.dirty) continue;
      this.#st.saveChatState.run(c.size, c.head, c.updated, c.key);
      c.dirty = false;
    }
  }

  #commit(what: string): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#saveChats();
      this.#st.commit.run();
    } catch (error) {
      if (this.database.inTransaction) this.#st.rollback.run();
      this.#failed(what, error);
      throw this.#lost ?? storeError(this.path, what, error);
    }
    this.#chats = null;
    this.#writes = 0;
  }

  /** A timed commit: a failure has no caller, so the next call (or flush, or close) reports it. */
  #commitLater(): void {
    if (!this.#chats || this.#closed) return;
    try {
      this.#commit("committing a batch");
    } catch {}
  }

  #rollback(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.database.inTransaction) this.#st.rollback.run();
    this.#chats = null;
    this.#writes = 0;
  }

  /** The open transaction is gone: with acknowledged writes in it ("batched"), the store stops. */
  #failed(what: string, error: unknown): void {
    const lost = this.durability === "batched" ? this.#writes : 0;
    this.#rollback();
    if (lost > 0) {
      const cause = storeError(this.path, what, error);
      this.#lost = new CtxloomError(
        "STORE_FAILED",
        `The SQLite store ${this.path} could not commit ${lost} acknowledged write(s) of a batch, which are lost ` +
          `(${cause.message}). Close the Loom and open it again: it reloads what the file holds.`,
        { cause: error },
      );
    }
  }
}
