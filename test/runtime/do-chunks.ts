// What the Durable Object of do-worker.ts runs for the chunks of numbers (schema version 5) in
// workerd: a chat past two chunks written as it fills, opened paged through a Loom as it opens
// with its texts, read from its chunks, a redaction that writes a chunk again, a delete; and an
// object of version 4 (tables as that version made them), migrated, its chunks written by the
// first paged open.
import { Loom } from "../../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../../src/cloudflare.js";
import { kitV3Sql } from "../../src/store/sql-schema.js";
import { columnsOf } from "../../src/store/internal.js";
import { MESSAGE_COLUMNS, messageRow, nthMessage } from "../store/long-chat.js";

const CHUNK = 1024;

/** The messages of chat "long" (its key `key`) in tables `p`, appended through the store or written as rows. */
async function fill(storage: DurableObjectStorageLike, p: string, n: number, rows: boolean): Promise<void> {
  const store = durableObjectStore(storage, { tablePrefix: p, pagedFrom: 1000 });
  if (rows) {
    const values = MESSAGE_COLUMNS.split(", ")
      .map(() => "?")
      .join(", ");
    for (let id = 0; id < n; id++)
      storage.sql.exec(
        `INSERT INTO ${p}messages (chat, ${MESSAGE_COLUMNS}) VALUES (1, ${values})`,
        ...messageRow(nthMessage(id)),
      );
    return;
  }
  await store.createChat({
    id: "long",
    userId: "u",
    title: "t",
    model: "gpt-4o",
    system: null,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 0,
    head: null,
    options: {},
  });
  for (let id = 0; id < n; id++)
    await store.appendMessage({ userId: "u", chatId: "long", message: nthMessage(id), head: id, updatedAt: 100 + id });
}

/** The chat opened through a Loom on a store paging from `pagedFrom`: what a user sees of it. */
async function view(storage: DurableObjectStorageLike, p: string, pagedFrom: number) {
  const loom = await Loom.open({
    store: durableObjectStore(storage, { tablePrefix: p, pagedFrom }),
    counter: "heuristic",
  });
  const chat = await loom.user("u").open("long");
  const ctx = await chat.buildContext({ input: "next?", maxMessages: 60 });
  const out = { path: chat.path(), messages: ctx.messages, export: chat.export(), leaves: chat.leaves() };
  await loom.close();
  return out;
}

export async function chunks(storage: DurableObjectStorageLike): Promise<unknown> {
  const rows = (p: string) => [
    ...storage.sql.exec(`SELECT chat, chunk, length(data) FROM ${p}message_numbers ORDER BY chat, chunk`).raw(),
  ];
  const same = async (p: string) =>
    JSON.stringify(await view(storage, p, 1000)) === JSON.stringify(await view(storage, p, 1_000_000));
  const tokensOf = async (p: string, id: number, pagedFrom: number) =>
    columnsOf((await durableObjectStore(storage, { tablePrefix: p, pagedFrom }).loadChat("u", "long"))!)!.tokensOf(id);

  // Appended through the store: two chunks written, the last 300 messages in rows only.
  await fill(storage, "chunks_", 2 * CHUNK + 300, false);
  const written = rows("chunks_");
  const sameAppended = await same("chunks_");
  // Read from its chunk: a row changed behind the store's back shows in a whole load only.
  storage.sql.exec("UPDATE chunks_messages SET tokens = tokens + 1000 WHERE id = 5");
  const fromChunk = [await tokensOf("chunks_", 5, 1000), await tokensOf("chunks_", 5, 1_000_000)];
  storage.sql.exec("UPDATE chunks_messages SET tokens = tokens - 1000 WHERE id = 5");
  // A redaction through the paged chat writes its chunk again.
  const loom = await Loom.open({
    store: durableObjectStore(storage, { tablePrefix: "chunks_", pagedFrom: 1000 }),
    counter: "heuristic",
  });
  const chat = await loom.user("u").open("long");
  await chat.redact(13);
  await loom.close();
  const sameRedacted = await same("chunks_");
  const redacted = [await tokensOf("chunks_", 13, 1000), await tokensOf("chunks_", 13, 1_000_000)];
  await durableObjectStore(storage, { tablePrefix: "chunks_" }).deleteChat("u", "long");
  const deleted = rows("chunks_");

  // An object of version 4: its tables as that version made them, the chat in rows.
  const p = "v4n_";
  for (const sql of kitV3Sql({ prefix: p, versions: `${p}schema` })
    .split(";")
    .filter((s) => s.trim()))
    storage.sql.exec(sql);
  storage.sql.exec(`CREATE TABLE ${p}memory (user TEXT NOT NULL, scope TEXT NOT NULL, revision INTEGER NOT NULL, path TEXT NOT NULL, kind INTEGER NOT NULL,
    author INTEGER NOT NULL, chat TEXT, at REAL NOT NULL, json_schema TEXT, content TEXT NOT NULL, PRIMARY KEY (user, scope, revision, path)) WITHOUT ROWID`);
  storage.sql.exec(`CREATE INDEX ${p}memory_by_path ON ${p}memory (user, scope, path, revision)`);
  storage.sql.exec(`INSERT INTO ${p}schema VALUES (4, 1)`);
  const n = 2 * CHUNK + 50;
  storage.sql.exec(`INSERT INTO ${p}users VALUES ('u', 1)`);
  storage.sql.exec(`INSERT INTO ${p}chats VALUES (1, 'u', 'long', 't', 'gpt-4o', NULL, '{}', ?, 1, 2, ?)`, n - 1, n);
  await fill(storage, p, n, true);
  const sameMigrated = await same(p); // (the paged view first: it writes the chunks)
  const versions = [...storage.sql.exec(`SELECT version FROM ${p}schema ORDER BY version`).raw()].map((r) => r[0]);
  return {
    written,
    sameAppended,
    fromChunk,
    sameRedacted,
    redacted,
    deleted,
    migrated: { versions, chunks: rows(p), same: sameMigrated, again: await same(p) },
  };
}
