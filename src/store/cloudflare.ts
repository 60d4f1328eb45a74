import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message } from "../message.js";
import type { AppendResult, ChatRecord, EmbeddingRow, LoadedChat, Store } from "./types.js";

/** The part of a Durable Object's `ctx.storage` this store uses (SQLite-backed objects). */
export interface DurableObjectStorageLike {
  sql: {
    exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[]; readonly rowsWritten: number };
  };
  transactionSync<T>(body: () => T): T;
}

/** Options of `durableObjectStore()`. */
export interface DurableObjectStoreOptions {
  /** Prefix of the table names; default "ctxloom_". */
  tablePrefix?: string;
}

/** Every schema version's statements, oldest first (tables named with prefix `p`); a released one never changes. */
const migrations = (p: string): string[][] => [
  [
    // Chat ids are scoped to their user (an import keeps the exported id).
    `CREATE TABLE ${p}chats (user_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, model TEXT NOT NULL, system TEXT,
      options TEXT NOT NULL, head INTEGER, message_count INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
      PRIMARY KEY (user_id, id)) WITHOUT ROWID`,
    `CREATE INDEX ${p}chats_user ON ${p}chats (user_id, updated_at DESC)`,
    `CREATE TABLE ${p}messages (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, id INTEGER NOT NULL, parent INTEGER, role TEXT NOT NULL, content TEXT NOT NULL,
      priority TEXT NOT NULL, tokens INTEGER NOT NULL, name TEXT, tool_calls TEXT, tool_call_id TEXT, kind TEXT NOT NULL,
      covers_first INTEGER, covers_last INTEGER, parts TEXT, created_at REAL NOT NULL, PRIMARY KEY (user_id, chat_id, id)) WITHOUT ROWID`,
    `CREATE TABLE ${p}embeddings (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, message_id INTEGER NOT NULL, embedder TEXT NOT NULL,
      dimension INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (user_id, chat_id, embedder, dimension, message_id)) WITHOUT ROWID`,
  ],
  [
    // The key an append was made with, unique per chat: a retry finds its message instead of adding it twice.
    `ALTER TABLE ${p}messages ADD COLUMN key TEXT`,
    `CREATE UNIQUE INDEX ${p}messages_key ON ${p}messages (user_id, chat_id, key) WHERE key IS NOT NULL`,
  ],
];
const SCHEMA_VERSION = migrations("").length;

/**
 * A store in a Durable Object's SQLite storage (`ctx.storage`), for Cloudflare Workers.
 * Use one object per user (`idFromName(userId)`) so that a user's chats list and open in
 * one place; every request for that user goes to the object, which runs them one at a time.
 * Writes are durable when the object's response leaves (Workers' output gate), so an
 * acknowledged append survives an eviction or a crash.
 * @throws INVALID_ARGUMENT when `storage` is not a SQLite-backed Durable Object's storage
 */
export function durableObjectStore(storage: DurableObjectStorageLike, options?: DurableObjectStoreOptions): Store {
  const o = checkOptions<DurableObjectStoreOptions>(options, "durableObjectStore(options)", ["tablePrefix"]);
  if (typeof storage !== "object" || storage === null || typeof storage.sql?.exec !== "function" || typeof storage.transactionSync !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `durableObjectStore takes a Durable Object's ctx.storage with SQLite (new_sqlite_classes in your wrangler migrations); got ${describe(storage)}.`,
    );
  }
  const p = o.tablePrefix ?? "ctxloom_";
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(p)) {
    throw new CtxloomError("INVALID_ARGUMENT", `tablePrefix must be letters, digits and underscores; got ${describe(p)}.`);
  }
  const sql = storage.sql;
  const exec = (query: string, ...bindings: unknown[]) => sql.exec(query, ...bindings);
  const INSERT_MESSAGE = `INSERT INTO ${p}messages (user_id, chat_id, id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id,
    kind, covers_first, covers_last, parts, created_at, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  const insertMessage = (userId: string, chatId: string, m: Message, key: string | null): void => {
    exec(INSERT_MESSAGE, userId, chatId, m.id, m.parentId, m.role, m.content, m.priority, m.tokens, m.name ?? null,
      m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.kind, m.covers?.first ?? null, m.covers?.last ?? null,
      m.parts ? JSON.stringify(m.parts) : null, m.createdAt, key);
  };
  const insertChat = (c: ChatRecord): void => {
    exec(
      `INSERT INTO ${p}chats (id, user_id, title, model, system, options, head, message_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.id, c.userId, c.title, c.model, c.system, JSON.stringify(c.options ?? {}), c.head, c.messageCount, c.createdAt, c.updatedAt,
    );
  };
  let migrated = false;
  const ready = (): void => {
    if (migrated) return;
    storage.transactionSync(() => {
      exec(`CREATE TABLE IF NOT EXISTS ${p}schema (version INTEGER NOT NULL)`);
      const version = (exec(`SELECT version FROM ${p}schema`).toArray()[0]?.version as number | undefined) ?? 0;
      if (version > SCHEMA_VERSION) {
        throw new CtxloomError("STORE_CORRUPT", `This Durable Object's ctxloom tables are at schema version ${version}, newer than this release's ${SCHEMA_VERSION}; upgrade ctxloom.`);
      }
      if (version === SCHEMA_VERSION) return;
      for (const statement of migrations(p).slice(version).flat()) exec(statement);
      exec(version === 0 ? `INSERT INTO ${p}schema (version) VALUES (?)` : `UPDATE ${p}schema SET version = ?`, SCHEMA_VERSION);
    });
    migrated = true;
  };
  const owns = (userId: string, chatId: string): boolean =>
    exec(`SELECT 1 FROM ${p}chats WHERE user_id = ? AND id = ?`, userId, chatId).toArray().length > 0;
  const must = (userId: string, chatId: string): void => {
    if (!owns(userId, chatId)) throw new Error(`no chat ${chatId} of user ${userId}`);
  };

  return {
    name: `durable-object:${p}`,
    createChat(c) {
      ready();
      insertChat(c);
    },
    importChat(c, messages) {
      ready();
      storage.transactionSync(() => {
        insertChat(c);
        for (const m of messages) insertMessage(c.userId, c.id, m, null);
      });
    },
    listChats(userId) {
      ready();
      return exec(`SELECT * FROM ${p}chats WHERE user_id = ? ORDER BY updated_at DESC, created_at DESC`, userId).toArray().map(chatOf);
    },
    loadChat(userId, chatId, since = 0): LoadedChat | undefined {
      ready();
      const row = exec(`SELECT * FROM ${p}chats WHERE id = ? AND user_id = ?`, chatId, userId).toArray()[0];
      if (!row) return undefined;
      const messages = exec(`SELECT * FROM ${p}messages WHERE user_id = ? AND chat_id = ? AND id >= ? ORDER BY id`, userId, chatId, since).toArray().map(messageOf);
      return { chat: chatOf(row), messages };
    },
    appendMessage(userId, chatId, m: Message, head, updatedAt, key): AppendResult {
      ready();
      return storage.transactionSync((): AppendResult => {
        const row = exec(`SELECT message_count FROM ${p}chats WHERE id = ? AND user_id = ?`, chatId, userId).toArray()[0];
        if (!row) throw new Error(`no chat ${chatId} of user ${userId}`);
        if (key !== undefined) {
          const stored = exec(`SELECT * FROM ${p}messages WHERE user_id = ? AND chat_id = ? AND key = ?`, userId, chatId, key).toArray()[0];
          if (stored) return { ok: false, existing: messageOf(stored) };
        }
        const size = row.message_count as number;
        if (m.id !== size) return { ok: false, size };
        insertMessage(userId, chatId, m, key ?? null);
        exec(`UPDATE ${p}chats SET message_count = ?, head = ?, updated_at = ? WHERE user_id = ? AND id = ?`, size + 1, head, updatedAt, userId, chatId);
        return { ok: true };
      });
    },
    setHead(userId, chatId, head, updatedAt, expected) {
      ready();
      return storage.transactionSync(() => {
        const row = exec(`SELECT head FROM ${p}chats WHERE id = ? AND user_id = ?`, chatId, userId).toArray()[0];
        if (!row) throw new Error(`no chat ${chatId} of user ${userId}`);
        if (expected !== undefined && row.head !== expected) return false;
        exec(`UPDATE ${p}chats SET head = ?, updated_at = ? WHERE user_id = ? AND id = ?`, head, updatedAt, userId, chatId);
        return true;
      });
    },
    deleteChat(userId, chatId) {
      ready();
      return storage.transactionSync(() => {
        if (!owns(userId, chatId)) return false;
        exec(`DELETE FROM ${p}messages WHERE user_id = ? AND chat_id = ?`, userId, chatId);
        exec(`DELETE FROM ${p}embeddings WHERE user_id = ? AND chat_id = ?`, userId, chatId);
        exec(`DELETE FROM ${p}chats WHERE user_id = ? AND id = ?`, userId, chatId);
        return true;
      });
    },
    putEmbeddings(userId, chatId, embedder, rows: EmbeddingRow[]) {
      ready();
      storage.transactionSync(() => {
        must(userId, chatId);
        for (const row of rows) {
          exec(
            `INSERT OR REPLACE INTO ${p}embeddings (user_id, chat_id, message_id, embedder, dimension, vector) VALUES (?, ?, ?, ?, ?, ?)`,
            userId, chatId, row.messageId, embedder.name, embedder.dimension, row.vector.slice().buffer,
          );
        }
      });
    },
    loadEmbeddings(userId, chatId, embedder) {
      ready();
      if (!owns(userId, chatId)) return [];
      return exec(
        `SELECT message_id, vector FROM ${p}embeddings WHERE user_id = ? AND chat_id = ? AND embedder = ? AND dimension = ? ORDER BY message_id`,
        userId, chatId, embedder.name, embedder.dimension,
      ).toArray().map((r) => ({ messageId: r.message_id as number, vector: new Float32Array((r.vector as ArrayBuffer).slice(0)) }));
    },
    clearEmbeddings(userId, chatId) {
      ready();
      exec(
        `DELETE FROM ${p}embeddings WHERE user_id = ? AND (? IS NULL OR chat_id = ?)`,
        userId, chatId ?? null, chatId ?? null,
      );
    },
    flush() {},
    close() {},
  };
}

function chatOf(r: Record<string, unknown>): ChatRecord {
  return {
    id: r.id as string, userId: r.user_id as string, title: r.title as string, model: r.model as string, system: r.system as string | null,
    options: parseJson(r.options, `chat ${String(r.id)}'s options`) as ChatRecord["options"], head: r.head as number | null, messageCount: r.message_count as number,
    createdAt: r.created_at as number, updatedAt: r.updated_at as number,
  };
}

function messageOf(r: Record<string, unknown>): Message {
  const m: Message = {
    id: r.id as number, parentId: r.parent as number | null, role: r.role as Message["role"], content: r.content as string,
    priority: r.priority as Message["priority"], tokens: r.tokens as number, createdAt: r.created_at as number, kind: r.kind as Message["kind"],
  };
  if (r.name !== null) m.name = r.name as string;
  if (r.tool_calls !== null) m.toolCalls = parseJson(r.tool_calls, `message ${String(r.id)}'s tool calls`) as Message["toolCalls"];
  if (r.tool_call_id !== null) m.toolCallId = r.tool_call_id as string;
  if (r.covers_first !== null && r.covers_last !== null) m.covers = { first: r.covers_first as number, last: r.covers_last as number };
  if (r.parts !== null && r.parts !== undefined) m.parts = parseJson(r.parts, `message ${String(r.id)}'s content parts`) as Message["parts"];
  return m;
}

function parseJson(text: unknown, what: string): unknown {
  try {
    return JSON.parse(text as string);
  } catch {
    throw new CtxloomError("STORE_CORRUPT", `The Durable Object's ctxloom tables hold ${what} that is not JSON; they were changed outside ctxloom.`);
  }
}
