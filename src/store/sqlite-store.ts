// The SQLite store's operations: the kit's (sql-store.ts) on this file's connection and write
// transaction (sqlite-batch.ts), each answering with a promise.
import type { Message } from "../message.js";
import { SqlStore } from "./sql-store.js";
import { SqlMemory } from "./sql-memory.js";
import type { MemoryQuery, MemoryRecord, MemoryState, MemoryWriteResult, WriteMemoryRequest } from "../memory/types.js";
import { checkRequest } from "./call-checks.js";
import { sqlStatements } from "./sql-statements.js";
import { WriteBatch } from "./sqlite-batch.js";
import { sqliteConnection } from "./sqlite-connection.js";
import type { SqliteDatabase } from "./sqlite-driver.js";
import { filePlace } from "./sqlite-errors.js";
import type { Durability, SqliteStore } from "./sqlite-types.js";
import type {
  AppendMessageRequest,
  PutEmbeddingsRequest,
  SetHeadRequest,
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
} from "./types.js";
import { loadCleared, markCleared } from "./clear-marks.js";

export class SqliteStoreImpl implements SqliteStore {
  readonly name: string;
  readonly path: string;
  readonly durability: Durability;
  readonly database: SqliteDatabase;
  readonly #tx: WriteBatch;
  readonly #ops: SqlStore;
  readonly #memory: SqlMemory;
  /** Chats deleted whose old bytes could not be erased yet ("user\0chat"): deleting one again erases them. */
  readonly #unerased = new Set<string>();

  constructor(
    db: SqliteDatabase,
    path: string,
    file: string | undefined,
    settings: { prefix: string; durability: Durability; batchSize: number; batchDelayMs: number },
  ) {
    this.database = db;
    this.path = path;
    this.name = `sqlite:${path}`;
    this.durability = settings.durability;
    const connection = sqliteConnection(db);
    const statements = sqlStatements(settings.prefix); // (no prefix: a file of its own)
    this.#tx = new WriteBatch(db, connection, path, file, settings, statements);
    this.#ops = new SqlStore(connection, statements, this.#tx, { place: filePlace(path), prefix: settings.prefix });
    this.#memory = new SqlMemory(connection, statements, this.#tx, filePlace(path));
  }

  async hasChat(userId: string, chatId: string): Promise<boolean> {
    return this.#ops.hasChat(userId, chatId);
  }

  async createChat(chat: ChatRecord): Promise<void> {
    this.#ops.createChat(chat);
  }

  async importChat(chat: ChatRecord, messages: Message[]): Promise<void> {
    this.#ops.importChat(chat, messages);
  }

  async listChats(userId: string, page?: ChatPage): Promise<ChatRecord[]> {
    return this.#ops.listChats(userId, page);
  }

  async loadChat(userId: string, chatId: string, since?: number): Promise<LoadedChat | undefined> {
    return this.#ops.loadChat(userId, chatId, since);
  }

  async appendMessage(request: AppendMessageRequest): Promise<AppendResult> {
    const { userId, chatId, message, head, updatedAt, key } = checkRequest<AppendMessageRequest>(
      request,
      "appendMessage",
    );
    return this.#ops.appendMessage(userId, chatId, message, head, updatedAt, key);
  }

  async setHead(request: SetHeadRequest): Promise<boolean> {
    const { userId, chatId, head, updatedAt, expected } = checkRequest<SetHeadRequest>(request, "setHead");
    return this.#ops.setHead(userId, chatId, head, updatedAt, expected);
  }

  /**
   * Deletes (see Store.deleteChat), then erases the chat's old bytes from the file and its log,
   * as redactMessages does. When the erase cannot run, the chat is deleted but old bytes may
   * remain: STORE_FAILED says so, and deleting it again (in this store) erases them.
   */
  async deleteChat(userId: string, chatId: string): Promise<boolean> {
    const key = `${userId}\u0000${chatId}`;
    if (!this.#ops.deleteChat(userId, chatId) && !this.#unerased.delete(key)) return false;
    this.#unerased.add(key);
    this.#erase("erasing the deleted chat's old bytes (the chat is deleted; delete it again to erase them)");
    this.#unerased.delete(key);
    return true;
  }

  /**
   * Redacts (see Store.redactMessages), then erases the old bytes from the file (see #erase).
   * When the erase cannot run, the texts are replaced but old bytes may remain: STORE_FAILED
   * says so, and calling redact again erases them.
   */
  async redactMessages(userId: string, chatId: string, changes: MessageRedaction[]): Promise<boolean> {
    if (!this.#ops.redactMessages(userId, chatId, changes)) return false;
    this.#erase("erasing the redacted texts' old bytes (the texts are replaced; call redact again)");
    return true;
  }

  /**
   * Erases what rows deleted or rewritten left in the file: SQLite leaves a freed row's bytes
   * where they were, and copies of them in the unused part of pages it reorganized earlier
   * (secure_delete zeroes the row it deletes, not those), so the file is rebuilt (VACUUM: every
   * page written anew; it takes about 0.5 s per 50 MB) and its log emptied
   * (wal_checkpoint(TRUNCATE): the -wal file held the pages as they were). STORE_FAILED when
   * either cannot run (another connection reading the log).
   */
  #erase(what: string): void {
    this.#tx.outside(what, () => {
      this.database.exec("VACUUM");
      const [log] = this.database.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      if (log && log.busy !== 0)
        throw new Error("another connection is reading the database, so its log (-wal) could not be emptied");
    });
  }

  /**
   * Erases the user (see Store.eraseUser), then the old bytes from the file and its log, as
   * deleteChat does. When that cannot run, the rows are gone but old bytes may remain:
   * STORE_FAILED says so, and erasing the user again erases them.
   */
  async eraseUser(userId: string): Promise<ErasedUser> {
    const erased = this.#ops.eraseUser(userId);
    this.#erase("erasing the user's old bytes (the user's rows are deleted; erase the user again to erase them)");
    return erased;
  }

  /**
   * One batch of a prune (see Store.pruneChats): the rows go, the file is not rebuilt (a VACUUM
   * per batch would stop a server for the file's size); the bytes SQLite freed are reused by
   * later writes, and `ctxloom prune --vacuum` (or deleting a chat, or erasing a user) rebuilds it.
   */
  async pruneChats(query: PruneQuery): Promise<PruneBatch> {
    return this.#ops.pruneChats(query);
  }

  /** Rebuilds the file and empties its log (see #erase): what prune leaves, erased. */
  async vacuum(): Promise<void> {
    this.#erase("rebuilding the file");
  }

  async putEmbeddings(request: PutEmbeddingsRequest): Promise<void> {
    const { userId, chatId, embedder, rows } = checkRequest<PutEmbeddingsRequest>(request, "putEmbeddings");
    this.#ops.putEmbeddings(userId, chatId, embedder, rows);
  }

  async loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): Promise<EmbeddingRow[]> {
    return this.#ops.loadEmbeddings(userId, chatId, embedder);
  }

  async clearEmbeddings(userId: string, chatId?: string): Promise<void> {
    this.#ops.clearEmbeddings(userId, chatId);
  }

  async markEmbeddingsCleared(userId: string, chatId: string, upTo: number): Promise<void> {
    return markCleared(this, userId, chatId, upTo);
  }

  async loadEmbeddingsCleared(userId: string, chatId: string): Promise<number | null> {
    return loadCleared(this, userId, chatId);
  }

  async loadMemory(userId: string, chatId: string | null, known?: number): Promise<MemoryState> {
    return this.#memory.loadMemory(userId, chatId, known);
  }

  async loadMemoryHistory(userId: string, chatId: string | null, query?: MemoryQuery): Promise<MemoryRecord[]> {
    return this.#memory.loadMemoryHistory(userId, chatId, query);
  }

  async writeMemory(request: WriteMemoryRequest): Promise<MemoryWriteResult> {
    const { userId, chatId, expected, records } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
    return this.#memory.writeMemory(userId, chatId, expected, records);
  }

  /** Deletes (see Store.deleteMemory), then erases the old bytes from the file and its log, as deleteChat does. */
  async deleteMemory(userId: string, chatId?: string | null): Promise<boolean> {
    if (!this.#memory.deleteMemory(userId, chatId)) return false;
    this.#erase(
      "erasing the deleted memory's old bytes (the memory is deleted; its old bytes may remain until the next " +
        "delete or redaction)",
    );
    return true;
  }

  async flush(): Promise<void> {
    await this.#tx.flush();
  }

  async close(): Promise<void> {
    await this.#tx.close();
  }
}
