// What a SQLite-dialect store (better-sqlite3's file, a Durable Object's storage) gives the
// kit: a connection that runs statements by their text, and its transactions. The kit's
// operations (sql-store.ts) run on these alone.
import { unknownChat } from "./checks.js";
import type { Statements } from "./sql-statements.js";

/** One SQLite connection: statements by their text (prepared once), rows as arrays of values. */
export interface SqlConnection {
  /** Every row of a statement that reads. */
  all(sql: string, ...params: unknown[]): unknown[][];
  /** The first row, or undefined. */
  get(sql: string, ...params: unknown[]): unknown[] | undefined;
  /** The first value of every row. */
  column(sql: string, ...params: unknown[]): unknown[];
  /** Runs a statement that writes. */
  run(sql: string, ...params: unknown[]): void;
  /** Runs statements separated by semicolons, without parameters (schema changes). */
  exec(sql: string): void;
}

/** A chat as the open write transaction sees it: authoritative while the transaction holds the write lock. */
export interface ChatState {
  key: number;
  size: number;
  head: number | null;
  updated: number;
  /** Its chats row is written at commit (or before a read). */
  dirty: boolean;
}

/** How a store runs its reads and writes. Every method throws CtxloomErrors only. */
export interface Transactions {
  /** Runs a write inside a write transaction (committed by the store's policy). */
  write<T>(what: string, fn: () => T): T;
  /** Runs a read (after the open transaction's chat rows are written). */
  read<T>(what: string, fn: () => T): T;
  /** Runs `fn` all or nothing, inside the open transaction (a savepoint) or in one of its own. */
  atomic<T>(fn: () => T): T;
  /** The chat's state in the open write transaction; UNKNOWN_CHAT when the user has no such chat. */
  state(userId: string, chatId: string): ChatState;
  find(userId: string, chatId: string): ChatState | undefined;
  /** True when the open write transaction created or touched this chat. */
  touched(userId: string, chatId: string): boolean;
  /** Forgets a chat the open transaction deleted. */
  forget(userId: string, chatId: string): void;
  flush(): void | Promise<void>;
  close(): void | Promise<void>;
}

/**
 * The chats a write transaction touched, read once and written back once (at commit, or
 * before a read): a batch of appends to a chat writes its chats row once.
 */
export class ChatStates {
  readonly #db: SqlConnection;
  readonly #st: Statements;
  readonly #store: string;
  #chats: Map<string, ChatState> | null = null;

  /** `store` names the store in errors. */
  constructor(db: SqlConnection, st: Statements, store: string) {
    this.#db = db;
    this.#st = st;
    this.#store = store;
  }

  /** True while a write transaction is open. */
  get open(): boolean {
    return this.#chats !== null;
  }

  begin(): void {
    this.#chats = new Map();
  }

  end(): void {
    this.#chats = null;
  }

  touched(userId: string, chatId: string): boolean {
    return this.#chats?.has(`${userId}\u0000${chatId}`) ?? false;
  }

  forget(userId: string, chatId: string): void {
    this.#chats?.delete(`${userId}\u0000${chatId}`);
  }

  state(userId: string, chatId: string): ChatState {
    const found = this.find(userId, chatId);
    if (found) return found;
    throw unknownChat(this.#store, userId, chatId);
  }

  find(userId: string, chatId: string): ChatState | undefined {
    const key = `${userId}\u0000${chatId}`;
    let c = this.#chats?.get(key);
    if (c) return c;
    const row = this.#db.get(this.#st.chatState, userId, chatId) as [number, number, number | null, number] | undefined;
    if (!row) return undefined;
    c = { key: row[0], size: row[1], head: row[2], updated: row[3], dirty: false };
    this.#chats?.set(key, c);
    return c;
  }

  /** Writes the chats rows the open transaction changed. */
  save(): void {
    for (const c of this.#chats?.values() ?? []) {
      if (!c.dirty) continue;
      this.#db.run(this.#st.saveChatState, c.size, c.head, c.updated, c.key);
      c.dirty = false;
    }
  }
}
