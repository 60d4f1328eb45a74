// What the Durable Object of do-worker.ts runs for the store's tests in workerd: a database of
// schema version 2 (as released) migrated to the kit's schema, the shared bad calls
// (ctxloom/store/contract), the limits of a row, and ctxloom/sqlite's answer here.
import { Loom, type Message } from "../../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../../src/cloudflare.js";
import { sqliteStore } from "../../src/sqlite-elsewhere.js";
import type { LoadedChat } from "../../src/store-entry.js";
import { columnsOf } from "../../src/store/internal.js";
import { runContract } from "../store/contract-run.js";
import { existsThroughLooms } from "../store/exists-cases.js";
import { erasureCases, memoryErasureCases, openFor, pruneCases } from "../store/retention-cases.js";

const error = (e: unknown) => ({
  code: (e as { code?: string }).code ?? `not coded: ${String(e)}`,
  message: String((e as Error).message),
});
async function codeOf(call: () => unknown): Promise<{ code: string; message: string } | "ok"> {
  try {
    await call();
    return "ok";
  } catch (e) {
    return error(e);
  }
}

/** Schema version 2 as released (version 1's tables and its key), frozen here, tables named "<p>". */
const V2 = (p: string) => [
  `CREATE TABLE ${p}schema (version INTEGER NOT NULL)`,
  `INSERT INTO ${p}schema (version) VALUES (2)`,
  `CREATE TABLE ${p}chats (user_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, model TEXT NOT NULL, system TEXT,
    options TEXT NOT NULL, head INTEGER, message_count INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
    PRIMARY KEY (user_id, id)) WITHOUT ROWID`,
  `CREATE INDEX ${p}chats_user ON ${p}chats (user_id, updated_at DESC)`,
  `CREATE TABLE ${p}messages (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, id INTEGER NOT NULL, parent INTEGER, role TEXT NOT NULL, content TEXT NOT NULL,
    priority TEXT NOT NULL, tokens INTEGER NOT NULL, name TEXT, tool_calls TEXT, tool_call_id TEXT, kind TEXT NOT NULL,
    covers_first INTEGER, covers_last INTEGER, parts TEXT, created_at REAL NOT NULL, PRIMARY KEY (user_id, chat_id, id)) WITHOUT ROWID`,
  `CREATE TABLE ${p}embeddings (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, message_id INTEGER NOT NULL, embedder TEXT NOT NULL,
    dimension INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (user_id, chat_id, embedder, dimension, message_id)) WITHOUT ROWID`,
  `ALTER TABLE ${p}messages ADD COLUMN key TEXT`,
  `CREATE UNIQUE INDEX ${p}messages_key ON ${p}messages (user_id, chat_id, key) WHERE key IS NOT NULL`,
];

const call = { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Porto"}' } };
const parts = [
  { type: "text", text: "look" },
  { type: "image", image: "https://example.com/a.png" },
];

/** Rows of a version-2 database: two users with a chat "c1" each, every kind of field, keys and embeddings. */
function fillV2(sql: DurableObjectStorageLike["sql"], p: string): void {
  for (const statement of V2(p)) sql.exec(statement);
  sql.exec(
    `INSERT INTO ${p}chats VALUES ('erin', 'c1', 'old', 'gpt-4o', 'be brief', '{"historyLimits":true}', 3, 5, 1.5, 20)`,
  );
  sql.exec(`INSERT INTO ${p}chats VALUES ('zoe', 'c1', 'hers', 'gpt-4o', NULL, '{}', 0, 1, 3, 4)`);
  const m = `INSERT INTO ${p}messages (user_id, chat_id, id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind,
    covers_first, covers_last, parts, created_at, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  sql.exec(
    m,
    "erin",
    "c1",
    0,
    null,
    "user",
    "look",
    "high",
    9,
    "ann",
    null,
    null,
    "message",
    null,
    null,
    JSON.stringify(parts),
    10,
    "k0",
  );
  sql.exec(
    m,
    "erin",
    "c1",
    1,
    0,
    "assistant",
    "",
    "normal",
    7,
    null,
    JSON.stringify([call]),
    null,
    "message",
    null,
    null,
    null,
    11,
    null,
  );
  sql.exec(
    m,
    "erin",
    "c1",
    2,
    1,
    "tool",
    "sunny",
    "normal",
    4,
    null,
    null,
    "call_1",
    "message",
    null,
    null,
    null,
    12.25,
    null,
  );
  sql.exec(
    m,
    "erin",
    "c1",
    3,
    2,
    "assistant",
    "It is sunny.",
    "low",
    5,
    null,
    null,
    null,
    "message",
    null,
    null,
    null,
    13,
    "k3",
  );
  sql.exec(
    m,
    "erin",
    "c1",
    4,
    null,
    "system",
    "Asked the weather.",
    "critical",
    6,
    null,
    null,
    null,
    "summary",
    0,
    3,
    null,
    14,
    null,
  );
  sql.exec(
    m,
    "zoe",
    "c1",
    0,
    null,
    "user",
    "hers",
    "normal",
    3,
    null,
    null,
    null,
    "message",
    null,
    null,
    null,
    5,
    "k0",
  );
  const e = `INSERT INTO ${p}embeddings VALUES (?, ?, ?, 'e', 2, ?)`;
  sql.exec(e, "erin", "c1", 0, new Float32Array([1, -2]).buffer);
  sql.exec(e, "erin", "c1", 3, new Float32Array([0.5, 3]).buffer);
  sql.exec(e, "zoe", "c1", 0, new Float32Array([7, 8]).buffer);
}

/** The tables' layout (columns, indexes) with the prefix taken out, to compare two prefixes. */
function layout(sql: DurableObjectStorageLike["sql"], p: string): unknown {
  const out: Record<string, unknown> = {};
  for (const t of ["users", "chats", "messages", "embeddings", "memory", "message_numbers"]) {
    out[t] = [...sql.exec(`PRAGMA table_info(${p}${t})`).raw()];
    out[`${t} indexes`] = [...sql.exec(`PRAGMA index_list(${p}${t})`).raw()].map((r) => [
      String(r[1]).replace(p, ""),
      ...r.slice(2),
    ]);
  }
  out.versions = [...sql.exec(`PRAGMA table_info(${p}schema)`).raw()];
  return out;
}

/** A version-2 database (tables "v2_") migrated by a store on it: what each user's chat reads back, and the tables after. */
export async function migrateV2(storage: DurableObjectStorageLike): Promise<unknown> {
  fillV2(storage.sql, "v2_");
  const store = durableObjectStore(storage, { tablePrefix: "v2_" });
  const plain = (loaded: LoadedChat | undefined) => loaded && { chat: loaded.chat, messages: loaded.messages };
  const erin = plain(await store.loadChat("erin", "c1"));
  const zoe = plain(await store.loadChat("zoe", "c1"));
  const embeddings = {
    erin: (await store.loadEmbeddings("erin", "c1", { name: "e", dimension: 2 })).map((r) => [
      r.messageId,
      [...r.vector],
    ]),
    zoe: (await store.loadEmbeddings("zoe", "c1", { name: "e", dimension: 2 })).map((r) => [
      r.messageId,
      [...r.vector],
    ]),
  };
  const retry = await store.appendMessage({
    userId: "erin",
    chatId: "c1",
    message: { ...erin!.messages[3]!, id: 5, parentId: 4 },
    head: 5,
    updatedAt: 30,
    key: "k3",
  });
  // A Loom on the migrated tables: the chat restores (tool unit, summary), and appends under a key once.
  const loom = await Loom.open({ store, counter: "heuristic" });
  const chat = await loom.user("erin").open("c1");
  const added = await chat.append({ role: "user", content: "and tomorrow?" }, { key: "k5" });
  const again = await chat.append({ role: "user", content: "and tomorrow?" }, { key: "k5" });
  const path = chat.path().map((m: Message) => m.id);
  await loom.close();
  durableObjectStore(storage, { tablePrefix: "fresh_" }).listChats("anyone"); // a new database, for its layout
  const names = [
    ...storage.sql.exec("SELECT name FROM sqlite_schema WHERE name LIKE 'v2\\_%' ESCAPE '\\' ORDER BY name").raw(),
  ].map((r) => r[0]);
  return {
    erin,
    zoe,
    embeddings,
    retry,
    added: added.id,
    again: again.id,
    path,
    versions: [...storage.sql.exec("SELECT version FROM v2_schema").raw()],
    names,
    sameLayout: JSON.stringify(layout(storage.sql, "v2_")) === JSON.stringify(layout(storage.sql, "fresh_")),
  };
}

/**
 * The store contract (ctxloom/store/contract) on this object's storage, each case in tables of its
 * own ("contract<n>_"); the existence check through Looms sharing the storage (tables "looms_").
 */
export async function contract(storage: DurableObjectStorageLike): Promise<unknown> {
  let n = 0;
  const cases = await runContract(() => durableObjectStore(storage, { tablePrefix: `contract${++n}_` }));
  const looms = await existsThroughLooms(
    (s) => Loom.open({ store: s, counter: "heuristic" }),
    () => durableObjectStore(storage, { tablePrefix: "looms_" }),
  );
  return { cases, looms };
}

/** Messages around a row's limit (2,000,000 bytes), through a Loom and the store (tables "big_"). */
export async function rowLimits(storage: DurableObjectStorageLike): Promise<unknown> {
  const store = durableObjectStore(storage, { tablePrefix: "big_" });
  const loom = await Loom.open({ store, counter: "heuristic" });
  // A model whose window takes 2 MB of text (a million tokens): the Loom accepts it, the row may not.
  const chat = await loom.user("u").create({ title: "big", model: "gemini-2.5-pro" });
  const fits = await codeOf(() => chat.append({ role: "user", content: "word ".repeat(399_000) })); // 1,995,000 bytes
  const over = await codeOf(() => chat.append({ role: "user", content: "é".repeat(1_000_001) })); // 2,000,002 bytes
  const farOver = await codeOf(() => chat.append({ role: "user", content: "a".repeat(2_500_000) })); // past workerd's own 2,200,000
  const count = chat.messageCount;
  const reloaded = (await store.loadChat("u", chat.id))!.chat.messageCount;
  const msg = (content: string, extra: object = {}): Message => ({
    id: 0,
    parentId: null,
    role: "user",
    content,
    priority: "normal",
    tokens: 1,
    createdAt: 1,
    kind: "message",
    ...extra,
  });
  const record = {
    id: "imp",
    userId: "u",
    title: "t",
    model: "gpt-4o",
    system: null,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    head: 0,
    options: {},
  };
  const imported = await codeOf(() =>
    store.importChat(record, [
      msg("x", { parts: [{ type: "file", data: "A".repeat(2_000_000), mediaType: "application/pdf" }] }),
    ]),
  );
  const afterImport = await store.loadChat("u", "imp");
  const system = await codeOf(() =>
    store.createChat({ ...record, id: "sys", messageCount: 0, head: null, system: "s".repeat(2_100_000) }),
  );
  await loom.close();
  return { fits, over, farOver, count, reloaded, imported, afterImport: afterImport ?? null, system };
}

/** ctxloom/sqlite's entry for this runtime (the `workerd` condition's): what sqliteStore() throws here. */
export function sqliteHere(): unknown {
  try {
    sqliteStore("./chats.db");
    return "no error";
  } catch (e) {
    return error(e);
  }
}

/** durableObjectStore() on an object whose class has key-value storage, not SQLite. */
export function withoutSqlite(storage: DurableObjectStorageLike): unknown {
  try {
    durableObjectStore(storage);
    return "accepted";
  } catch (e) {
    return error(e);
  }
}

/**
 * A user's erasure (tables "erase_") and what rows of theirs are left; a prune (tables "prune_");
 * working memories through an erasure and a prune (tables "memerase_"), and the memory rows left.
 */
export async function retention(storage: DurableObjectStorageLike): Promise<unknown> {
  const open = openFor(Loom);
  const erase = await erasureCases(open, durableObjectStore(storage, { tablePrefix: "erase_" }));
  const count = (sql: string) => [...storage.sql.exec(sql).raw()][0]![0];
  const rows = {
    chats: count("SELECT count(*) FROM erase_chats WHERE user = 'alice'"),
    users: count("SELECT count(*) FROM erase_users WHERE id = 'alice'"),
    texts: count("SELECT count(*) FROM erase_messages WHERE content LIKE '%SECRET-ERASE%'"),
    orphanVectors: count("SELECT count(*) FROM erase_embeddings WHERE chat NOT IN (SELECT key FROM erase_chats)"),
  };
  const prune = await pruneCases(open, durableObjectStore(storage, { tablePrefix: "prune_" }));
  const memory = await memoryErasureCases(open, durableObjectStore(storage, { tablePrefix: "memerase_" }));
  const memoryLeft = [
    ...storage.sql.exec("SELECT user, scope, revision, path FROM memerase_memory ORDER BY 1, 2, 3, 4").raw(),
  ];
  return { erase, rows, prune, memory, memoryLeft };
}

/**
 * A chat opened paged (its texts left in storage: pagedFrom 40) against the same chat opened with
 * its texts (another store on the same tables): the same path, context, export and stats; then an
 * append, a redaction and a reopen; and a text read after another Loom deleted the chat.
 */
export async function paged(storage: DurableObjectStorageLike): Promise<unknown> {
  const store = (pagedFrom: number) => durableObjectStore(storage, { tablePrefix: "paged_", pagedFrom });
  const looms = async () => [
    await Loom.open({ store: store(40), counter: "heuristic" }),
    await Loom.open({ store: store(1_000_000), counter: "heuristic" }),
  ];
  const [writer] = await looms();
  const chat = await writer!.user("u").create({ id: "long", system: "be brief" });
  const call = (i: number) => ({
    id: `call_${i}`,
    type: "function" as const,
    function: { name: "look", arguments: `{"i":${i}}` },
  });
  for (let i = 0; i < 60; i++) {
    if (i % 10 === 3) {
      await chat.append({ role: "assistant", content: "", toolCalls: [call(i)] });
      await chat.append({ role: "tool", toolCallId: `call_${i}`, content: `result ${i} ${"r".repeat(i * 7)}` });
    } else
      await chat.append({
        role: i % 2 ? "assistant" : "user",
        content: `message ${i} ${"x".repeat((i * 37) % 300)}`,
        priority: i === 5 ? "high" : "normal",
      });
  }
  await chat.regenerate(chat.head!);
  await chat.append({ role: "assistant", content: "a sibling" });
  await writer!.close();
  const [pagedLoom, whole] = await looms();
  const view = async (loom: Loom) => {
    const c = await loom.user("u").open("long");
    const ctx = await c.buildContext({ input: "next?", maxMessages: 30 });
    return {
      path: c.path(),
      messages: ctx.messages,
      export: c.export(),
      leaves: c.leaves(),
      stats: c.stats().messages,
    };
  };
  const [a, b] = [await view(pagedLoom!), await view(whole!)];
  const loaded = await store(40).loadChat("u", "long");
  const held = {
    paged: columnsOf(loaded!)!.columnBytes,
    texts: columnsOf((await store(1_000_000).loadChat("u", "long"))!)!.columnBytes,
  };
  const p = await pagedLoom!.user("u").open("long");
  await p.append({ role: "user", content: "appended paged" });
  await p.redact(0);
  const after = { last: p.get(p.head!).content, redacted: p.get(0).content };
  const reopened = await (await Loom.open({ store: store(40), counter: "heuristic" })).user("u").open("long");
  const back = {
    last: reopened.get(reopened.head!).content,
    redacted: reopened.get(0).content,
    count: reopened.messageCount,
  };
  await (await Loom.open({ store: store(40), counter: "heuristic" })).user("u").delete("long");
  const gone = await codeOf(() => reopened.get(30));
  return {
    same: JSON.stringify(a) === JSON.stringify(b),
    count: a.path.length,
    held,
    after,
    back,
    gone: (gone as { code?: string }).code ?? gone,
  };
}
