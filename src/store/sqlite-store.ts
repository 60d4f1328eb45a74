// The SQLite store's operations: arguments checked, then each read or write run through the
// write transaction (sqlite-batch.ts), with the statements of sqlite-statements.ts.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import type { Message } from "../message.js";
import { loadedColumns, type AppendResult, type ChatRecord, type EmbedderInfo, type EmbeddingRow, type LoadedChat } from "./types.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { WriteBatch } from "./sqlite-batch.js";
import { corrupt } from "./sqlite-errors.js";
import { loadChunked, loadColumns } from "./sqlite-load.js";
import { chatRecord, chatValues, messagesOf, messageValues, type ChatRow, type Statements } from "./sqlite-statements.js";
import { checkChatRecord, checkEmbedder, checkEmbeddingRows, checkHead, checkMessage, checkText, checkTime } from "./sqlite-checks.js";
import type { Durability, SqliteStore } from "./sqlite.js";

export class SqliteStoreImpl implements SqliteStore {
  readonly name: string;
  readonly path: string;
  readonly durability: Durability;
  readonly database: SqliteDatabase;
  readonly #st: Statements;
  readonly #tx: WriteBatch;
  readonly #atomic: <T>(fn: () => T) => T;

  constructor(db: SqliteDatabase, path: string, file: string | undefined, settings: { durability: Durability; batchSize: number; batchDelayMs: number }, st: Statements) {
    this.database = db;
    this.path = path;
    this.name = `sqlite:${path}`;
    this.durability = settings.durability;
    this.#st = st;
    this.#tx = new WriteBatch(db, path, file, settings, st);
    // Inside the open write transaction, better-sqlite3's transaction() is a savepoint.
    const atomic = db.transaction((fn: () => unknown) => fn());
    this.#atomic = atomic as <T>(fn: () => T) => T;
  }

  async createChat(chat: ChatRecord): Promise<void> {
    const c = checkChatRecord(chat);
    this.#tx.write("creating a chat", () => this.#atomic(() => this.#addChat(c)));
  }

  /** Adds the chat's row (and its user's); its key. INVALID_ARGUMENT when the user has a chat of that id. */
  #addChat(c: ChatRecord): number {
    if (this.#tx.touched(c.userId, c.id) || this.#st.chatState.get(c.userId, c.id) !== undefined) {
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
    this.#tx.write("importing a chat", () => {
      // One savepoint: the chat and all its messages, or nothing.
      this.#atomic(() => {
        const chatKey = this.#addChat(c);
        for (const m of rows) this.#st.addMessage.run(chatKey, ...messageValues(m), null);
      });
    });
  }

  async listChats(userId: string): Promise<ChatRecord[]> {
    checkText(userId, "userId");
    return this.#tx.read("listing chats", () => (this.#st.chats.all(userId) as ChatRow[]).map((row) => chatRecord(row, this.path)));
  }

  async loadChat(userId: string, chatId: string, since = 0): Promise<LoadedChat | undefined> {
    checkText(userId, "userId");
    checkText(chatId, "chatId");
    checkInteger(since, "since", 0);
    return this.#tx.read("loading a chat", () =>
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

  async appendMessage(userId: string, chatId: string, message: Message, head: number, updatedAt: number, key?: string): Promise<AppendResult> {
    const m = checkMessage(message);
    checkTime(updatedAt, "updatedAt");
    if (key !== undefined) checkText(key, "key");
    return this.#tx.write("appending a message", () => {
      const c = this.#tx.state(userId, chatId);
      // The key is looked up only when the append cannot go in: the unique index finds it otherwise.
      if (m.id !== c.size) return this.#stored(c.key, key, chatId) ?? { ok: false, size: c.size };
      checkHead(head, c.size + 1, chatId);
      try {
        this.#st.addMessage.run(c.key, ...messageValues(m), key ?? null);
      } catch (error) {
        const existing = (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE" ? this.#stored(c.key, key, chatId) : undefined;
        if (existing) return existing;
        throw error;
      }
      c.size++;
      c.head = head;
      c.updated = updatedAt;
      c.dirty = true;
      return { ok: true };
    });
  }

  /** The answer for a key the chat already holds a message under, or undefined. */
  #stored(chat: number, key: string | undefined, chatId: string): AppendResult | undefined {
    if (key === undefined) return undefined;
    const rows = this.#st.messageByKey.all(chat, key);
    return rows.length === 0 ? undefined : { ok: false, existing: messagesOf(rows, this.path, chatId)[0]! };
  }

  async setHead(userId: string, chatId: string, head: number | null, updatedAt: number, expected?: number | null): Promise<boolean> {
    checkTime(updatedAt, "updatedAt");
    if (expected !== undefined && expected !== null) checkInteger(expected, "expected", 0);
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

  async deleteChat(userId: string, chatId: string): Promise<boolean> {
    checkText(userId, "userId");
    checkText(chatId, "chatId");
    return this.#tx.write("deleting a chat", () => {
      const found = this.#tx.find(userId, chatId);
      if (!found) return false;
      this.#atomic(() => {
        this.#st.deleteEmbeddings.run(found.key);
        this.#st.deleteMessages.run(found.key);
        this.#st.deleteChat.run(found.key);
      });
      this.#tx.forget(userId, chatId);
      return true;
    });
  }

  async putEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo, rows: EmbeddingRow[]): Promise<void> {
    const e = checkEmbedder(embedder);
    this.#tx.write("storing embeddings", () => {
      const c = this.#tx.state(userId, chatId);
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
    return this.#tx.read("loading embeddings", () => {
      const found = this.#tx.find(userId, chatId);
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
    this.#tx.write("clearing embeddings", () => {
      if (chatId === undefined) {
        this.#st.deleteUserEmbeddings.run(userId);
      } else {
        const found = this.#tx.find(userId, chatId);
        if (found) this.#st.deleteEmbeddings.run(found.key);
      }
    });
  }

  async flush(): Promise<void> {
    await this.#tx.flush();
  }

  async close(): Promise<void> {
    await this.#tx.close();
  }
}
