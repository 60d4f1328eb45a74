// The D1 store's operations: the kit's tables, row codec and checks (sql-*.ts, checks.ts), with
// D1's asynchronous, batched API. D1 has no interactive transaction: a batch is one transaction,
// run by the database alone, so each write says its condition in SQL (the chat's size, its key)
// and the same batch reads back what happened. Nothing is read and then written in two steps.
import { CtxloomError } from "../errors.js";
import type { Message } from "../message.js";
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
import { checkPage, checkRedactedIds, checkRedactions } from "./call-checks.js";
import type { D1Statements } from "./d1-statements.js";
import type { D1Batch } from "./d1-types.js";
import { isUniqueViolation, sqliteCode } from "./sql-errors.js";
import { CHUNK } from "./sql-numbers.js";
import { chatRecord, messageOf, messagesOf, type ChatRow, type MessageRow } from "./sql-rows.js";
import type { Statements } from "./sql-statements.js";
import type {
  AppendResult,
  ChatPage,
  ChatRecord,
  EmbedderInfo,
  EmbeddingRow,
  LoadedChat,
  MessageRedaction,
} from "./types.js";
import { clearD1Embeddings, loadD1Embeddings, putD1Embeddings, type D1EmbeddingsOn } from "./d1-embeddings.js";
import { d1ChatRow, d1MessageRow, jsonChunks, type D1Settings } from "./d1-rows.js";

/** Messages read per statement of a load (a batch of a few reads a long chat in one round trip). */
const LOAD_CHUNK = 2000;
/** Statements per batch of a load. */
const LOAD_BATCH = 8;

export class D1Ops {
  readonly #db: D1Batch;
  readonly #st: Statements;
  readonly #d1: D1Statements;
  readonly #s: D1Settings;
  readonly #on: D1EmbeddingsOn;

  constructor(db: D1Batch, st: Statements, d1: D1Statements, settings: D1Settings) {
    this.#db = db;
    this.#st = st;
    this.#d1 = d1;
    this.#s = settings;
    this.#on = { db, st, d1, settings };
  }

  async hasChat(userId: string, chatId: string): Promise<boolean> {
    checkIds(userId, chatId);
    return (await this.#db.rows(this.#st.chatState, [userId, chatId])).length > 0;
  }

  async createChat(chat: ChatRecord): Promise<void> {
    const c = checkChatRecord(chat);
    await this.#create(c, d1ChatRow(c, this.#s), []);
  }

  async importChat(chat: ChatRecord, messages: Message[]): Promise<void> {
    const c = checkChatRecord(chat, true);
    const rows = checkImported(c, messages).map((m) => d1MessageRow(m, this.#s));
    const imports = jsonChunks(rows).map((json) => ({ sql: this.#d1.importMessages, params: [c.userId, c.id, json] }));
    await this.#create(c, d1ChatRow(c, this.#s), imports);
  }

  /** The chat's row and its user's, then `more`, in one batch; CHAT_EXISTS when the unique index refuses the chat. */
  async #create(c: ChatRecord, values: unknown[], more: { sql: string; params: unknown[] }[]): Promise<void> {
    try {
      await this.#db.batch([
        { sql: this.#st.addUser, params: [c.userId, c.createdAt] },
        { sql: this.#st.addChat, params: values },
        ...more,
      ]);
    } catch (error) {
      if (isUniqueViolation(error) && (await this.hasChat(c.userId, c.id))) throw chatExists(this.#s.where, c);
      throw error;
    }
  }

  async listChats(userId: string, page?: ChatPage): Promise<ChatRecord[]> {
    checkIds(userId, undefined, true);
    const p = checkPage(page);
    const rows = !p
      ? await this.#db.rows(this.#st.chats, [userId])
      : !p.after
        ? await this.#db.rows(this.#st.chatsFirst, [userId, p.limit])
        : await this.#db.rows(this.#st.chatsAfter, [userId, p.after.updatedAt, p.after.createdAt, p.after.id, p.limit]);
    return rows.map((row) => chatRecord(row as ChatRow, this.#s.corrupt));
  }

  /**
   * The record and the first messages in one batch (one snapshot); a longer chat's next messages
   * in batches of reads by id. Messages below the count read first never change but by a
   * redaction; a chat deleted meanwhile reads as gone.
   */
  async loadChat(userId: string, chatId: string, since = 0): Promise<LoadedChat | undefined> {
    checkIds(userId, chatId);
    checkSince(since);
    const reads = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        sql: this.#d1.messagesOf,
        params: [userId, chatId, from + i * LOAD_CHUNK, from + (i + 1) * LOAD_CHUNK],
      }));
    const [first, ...pages] = await this.#db.batch([
      { sql: this.#d1.chatOf, params: [userId, chatId] },
      ...reads(since, 1),
    ]);
    if (first!.length === 0) return undefined;
    const chat = chatRecord(first![0] as ChatRow, this.#s.corrupt);
    const rows = pages[0]!;
    for (let at = since + LOAD_CHUNK; at < chat.messageCount; at += LOAD_CHUNK * LOAD_BATCH) {
      const n = Math.min(LOAD_BATCH, Math.ceil((chat.messageCount - at) / LOAD_CHUNK));
      for (const page of await this.#db.batch(reads(at, n))) rows.push(...page);
    }
    const messages = messagesOf(rows, this.#s.corrupt, chatId);
    const expected = Math.max(0, chat.messageCount - since);
    if (
      messages.length !== expected ||
      (messages.length > 0 && messages[0]!.id !== since) ||
      messages.some((m, i) => m.id !== since + i)
    ) {
      if (!(await this.hasChat(userId, chatId))) return undefined; // deleted between the reads
      throw this.#s.corrupt(
        `chat ${chatId} records ${chat.messageCount} messages but its ids from ${since} are not dense`,
      );
    }
    return { chat, messages };
  }

  /** The conditional append in one batch (d1-statements.ts): landed, a conflict, or the message its key names. */
  async appendMessage(
    userId: string,
    chatId: string,
    message: Message,
    head: number,
    updatedAt: number,
    key?: string,
  ): Promise<AppendResult> {
    const m = checkAppend(userId, chatId, message, head, updatedAt, key);
    const values = d1MessageRow(m, this.#s);
    let answers: { rows: unknown[][]; changes: number }[];
    try {
      answers = await this.#db.batchWith([
        { sql: this.#d1.append, params: [...values, key ?? null, userId, chatId, m.id] },
        { sql: this.#d1.appended, params: [head, updatedAt, userId, chatId, m.id, m.id] },
        { sql: this.#d1.outcome, params: [key ?? null, userId, chatId] },
      ]);
    } catch (error) {
      // SQLite's own refusal (a code in the message): the batch ran and rolled back. Anything else
      // (the connection to D1 lost, a time limit) may have come after it committed.
      if (sqliteCode(error)) throw error;
      throw new CtxloomError(
        "STORE_OUTCOME_UNKNOWN",
        `${this.#s.where} did not answer an append of message ${m.id} (${String(error)}); it may or may not have ` +
          `been stored. Retry it under the same key.`,
        { cause: error },
      );
    }
    const [inserted, bumped, outcome] = answers;
    const row = outcome!.rows[0];
    if (row === undefined) throw unknownChat(this.#s.where, userId, chatId);
    if (inserted!.changes === 1) {
      if (bumped!.changes !== 1)
        throw this.#s.corrupt(`chat ${chatId}'s message ${m.id} went in but its count did not move`);
      return { ok: true };
    }
    const stored = row.slice(1) as MessageRow;
    if (stored[0] !== null) return { ok: false, existing: messageOf(stored, this.#s.corrupt, chatId) };
    return { ok: false, size: row[0] as number };
  }

  async setHead(
    userId: string,
    chatId: string,
    head: number | null,
    updatedAt: number,
    expected?: number | null,
  ): Promise<boolean> {
    checkSetHead(userId, chatId, head, updatedAt, expected);
    const [moved, size] = await this.#db.batchWith([
      {
        sql: this.#d1.setHead,
        params: [head, updatedAt, userId, chatId, expected === undefined ? 0 : 1, expected ?? null],
      },
      { sql: this.#d1.size, params: [userId, chatId] },
    ]);
    if (moved!.changes === 1) return true;
    const row = size!.rows[0];
    if (row === undefined) throw unknownChat(this.#s.where, userId, chatId);
    const count = row[0] as number;
    if (head !== null && head >= count)
      throw new CtxloomError(
        "UNKNOWN_MESSAGE",
        `head ${head} is not a message of chat ${chatId}, which holds ${count} messages.`,
      );
    return false;
  }

  async deleteChat(userId: string, chatId: string): Promise<boolean> {
    checkIds(userId, chatId);
    const ids = [userId, chatId];
    const done = await this.#db.batchWith([
      { sql: this.#d1.deleteEmbeddings, params: ids },
      { sql: this.#d1.deleteMessages, params: ids },
      { sql: this.#d1.deleteNumbers, params: ids },
      { sql: this.#d1.deleteChat, params: ids },
      { sql: this.#d1.deleteChatMemory, params: ids }, // its own memory goes with it
    ]);
    return done[3]!.changes === 1;
  }

  async redactMessages(userId: string, chatId: string, changes: MessageRedaction[]): Promise<boolean> {
    const checked = checkRedactions(userId, chatId, changes);
    const last = Math.max(...checked.map((c) => c.id));
    const writes = checked.flatMap((c) => [
      {
        sql: this.#d1.redact,
        params: [c.content, c.toolCalls ? JSON.stringify(c.toolCalls) : null, c.tokens, userId, chatId, last, c.id],
      },
      { sql: this.#d1.redactVectors, params: [userId, chatId, last, c.id] },
      { sql: this.#d1.redactNumbers, params: [userId, chatId, last, Math.floor(c.id / CHUNK)] },
    ]);
    const done = await this.#db.batchWith([...writes, { sql: this.#d1.size, params: [userId, chatId] }]);
    const row = done[done.length - 1]!.rows[0];
    if (row === undefined) return false;
    checkRedactedIds(checked, row[0] as number, chatId); // an id past the chat's messages: nothing was written
    return true;
  }

  putEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo, rows: EmbeddingRow[]): Promise<void> {
    return putD1Embeddings(this.#on, userId, chatId, embedder, rows);
  }

  loadEmbeddings(userId: string, chatId: string, embedder: EmbedderInfo): Promise<EmbeddingRow[]> {
    return loadD1Embeddings(this.#on, userId, chatId, embedder);
  }

  clearEmbeddings(userId: string, chatId?: string): Promise<void> {
    return clearD1Embeddings(this.#on, userId, chatId);
  }
}
