// The SQLite store and its file: a migration from a real version-1 database; foreign, damaged
// and newer files (STORE_CORRUPT naming the path, the file untouched); a missing folder, a
// read-only file and a full disk (coded errors, nothing visible changed).
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CtxloomError, Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Durability } from "../../src/store-entry.js";
import { SCHEMA_VERSION } from "../../src/store/sqlite-schema.js";
import { expectRejectCode, snapshot } from "../helpers.js";
import { chain, message, record, tempFolder } from "./sqlite-helpers.js";
import { V1, V2 } from "./sqlite-released.js";

const file = tempFolder("sqlite-files");
const child = join(dirname(fileURLToPath(import.meta.url)), "fixtures/sqlite-child.ts");

function expectCorrupt(call: () => unknown, path: string): void {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CtxloomError);
  expect((error as CtxloomError).code, (error as Error).message).toBe("STORE_CORRUPT");
  expect((error as CtxloomError).message).toContain(path);
}

describe("schema versions", () => {
  it("migrates a version-1 database: its chats and messages read back, and the new columns and tables work", async () => {
    const path = file("v1.db");
    const raw = new Database(path);
    raw.pragma("journal_mode = WAL");
    raw.exec(V1);
    raw.exec(`INSERT INTO users VALUES ('u', 1);
      INSERT INTO chats VALUES (1, 'u', 'c1', 'old', 'gpt-4o', 'sys', '{"historyLimits":true}', 1, 1, 2, 2);
      INSERT INTO messages VALUES (1, 0, NULL, 1, 1, 4, 0, 10, NULL, NULL, NULL, 'hi');
      INSERT INTO messages VALUES (1, 1, 0, 2, 0, 9, 0, 11, 'bot', NULL, '[{"id":"k","type":"function","function":{"name":"f","arguments":"{}"}}]', '');`);
    raw.close();
    const store = sqliteStore(path);
    const loaded = (await store.loadChat("u", "c1"))!;
    expect(loaded.chat).toEqual({
      id: "c1",
      userId: "u",
      title: "old",
      model: "gpt-4o",
      system: "sys",
      createdAt: 1,
      updatedAt: 2,
      messageCount: 2,
      head: 1,
      options: { historyLimits: true },
    });
    expect(loaded.messages).toEqual([
      message({ content: "hi", tokens: 4, createdAt: 10 }),
      message({
        id: 1,
        parentId: 0,
        role: "assistant",
        content: "",
        priority: "low",
        tokens: 9,
        name: "bot",
        createdAt: 11,
        toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: "{}" } }],
      }),
    ]);
    await store.appendMessage({
      userId: "u",
      chatId: "c1",
      message: message({ id: 2, parentId: 1, role: "system", kind: "summary", covers: { first: 0, last: 1 } }),
      head: 2,
      updatedAt: 3,
    });
    await store.putEmbeddings({
      userId: "u",
      chatId: "c1",
      embedder: { name: "e", dimension: 1 },
      rows: [{ messageId: 2, vector: new Float32Array([7]) }],
    });
    expect(store.database.prepare("SELECT version FROM ctxloom_schema ORDER BY version").pluck().all()).toEqual([
      1, 2, 3, 4, 5,
    ]);
    await store.close();
    const again = sqliteStore(path);
    expect((await again.loadChat("u", "c1"))!.messages[2]!.covers).toEqual({ first: 0, last: 1 });
    expect(await again.loadEmbeddings("u", "c1", { name: "e", dimension: 1 })).toEqual([
      { messageId: 2, vector: new Float32Array([7]) },
    ]);
    await again.close();
  });

  it("migrates a version-2 database (before append keys): its messages read back, and keyed appends work on them", async () => {
    const path = file("v2.db");
    const raw = new Database(path);
    raw.pragma("journal_mode = WAL");
    raw.exec(V1 + V2);
    raw.exec(`INSERT INTO users VALUES ('u', 1);
      INSERT INTO chats VALUES (1, 'u', 'c1', 'old', 'gpt-4o', NULL, '{}', 0, 1, 2, 1);
      INSERT INTO messages (chat, id, parent, role, priority, tokens, kind, created, content) VALUES (1, 0, NULL, 1, 1, 4, 0, 10, 'hi');`);
    raw.close();
    const store = sqliteStore(path);
    expect((await store.loadChat("u", "c1"))!.messages).toEqual([message({ content: "hi", tokens: 4, createdAt: 10 })]);
    expect(store.database.prepare("SELECT version FROM ctxloom_schema ORDER BY version").pluck().all()).toEqual([
      1, 2, 3, 4, 5,
    ]);
    const m1 = message({ id: 1, parentId: 0, role: "assistant", content: "hello" });
    expect(
      await store.appendMessage({ userId: "u", chatId: "c1", message: m1, head: 1, updatedAt: 3, key: "k" }),
    ).toEqual({ ok: true });
    expect(
      await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: { ...m1, id: 2 },
        head: 2,
        updatedAt: 3,
        key: "k",
      }),
    ).toEqual({ ok: false, existing: m1 });
    await store.close();
    // A Loom on the migrated file: a retried append under its key is stored once.
    const loom = await Loom.open({ store: sqliteStore(path), counter: "heuristic" });
    const chat = await loom.user("u").open("c1");
    const m = await chat.append({ role: "user", content: "again?" }, { key: "req" });
    expect(await chat.append({ role: "user", content: "again?" }, { key: "req" })).toEqual(m);
    await loom.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT id, key FROM messages ORDER BY id").raw().all()).toEqual([
      [0, null],
      [1, "k"],
      [2, "req"],
    ]);
    check.close();
  });

  it("refuses a database a newer release wrote, and leaves it as it was", async () => {
    const path = file("newer.db");
    (await sqliteStore(path)).close();
    const raw = new Database(path);
    raw.exec(`INSERT INTO ctxloom_schema VALUES (${SCHEMA_VERSION + 1}, 1)`);
    raw.close();
    const before = readFileSync(path);
    expectCorrupt(() => sqliteStore(path), path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe("files ctxloom cannot read: STORE_CORRUPT naming the path, the file untouched", () => {
  it("a file that is not SQLite", () => {
    const path = file("notes.txt");
    writeFileSync(path, "these are my notes, not a database\n".repeat(200));
    const before = readFileSync(path);
    expectCorrupt(() => sqliteStore(path), path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("another program's SQLite database with a table of the same name", () => {
    const path = file("other-app.db");
    const raw = new Database(path);
    raw.exec(
      "CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO messages (body) VALUES ('theirs')",
    );
    raw.close();
    const before = readFileSync(path);
    expectCorrupt(() => sqliteStore(path), path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it.each([
    ["a table", "CREATE TABLE invoices (id INTEGER PRIMARY KEY); INSERT INTO invoices VALUES (1)"],
    ["an empty table", "CREATE TABLE invoices (id INTEGER PRIMARY KEY)"],
    ["a view", "CREATE VIEW answer AS SELECT 42"],
  ])("another program's database with %s: ctxloom adds nothing to it", (_, sql) => {
    const path = file("other-program.db");
    const raw = new Database(path);
    raw.exec(sql);
    raw.close();
    const before = readFileSync(path);
    expectCorrupt(() => sqliteStore(path), path);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path)))).toEqual([basename(path)]);
  });

  it("an empty SQLite file (no table) becomes a ctxloom database", async () => {
    const path = file("empty.db");
    new Database(path).pragma("user_version = 0");
    const store = sqliteStore(path);
    await store.createChat(record());
    expect(await store.listChats("u")).toHaveLength(1);
    await store.close();
  });

  // Opening writes to these files (a switch to WAL, a migration): a damaged one is refused
  // before any byte changes and before SQLite makes a -wal or -shm file beside it.
  it.each(["rollback-journal", "version-1"] as const)(
    "a damaged %s file: STORE_CORRUPT, not one byte written",
    async (kind) => {
      const path = file(`damaged-${kind}.db`);
      if (kind === "version-1") {
        const raw = new Database(path);
        raw.exec(V1);
        raw.exec(
          "INSERT INTO users VALUES ('u', 1); INSERT INTO chats VALUES (1, 'u', 'c1', 'old', 'gpt-4o', NULL, '{}', NULL, 1, 2, 0)",
        );
        const add = raw.prepare("INSERT INTO messages VALUES (1, ?, NULL, 1, 1, 4, 0, 10, NULL, NULL, NULL, ?)");
        raw.transaction(() => {
          for (let id = 0; id < 300; id++) add.run(id, `message ${id} `.repeat(20));
        })();
        raw.close();
      } else {
        const store = sqliteStore(path, { durability: "batched" });
        await store.createChat(record());
        await chain(store, 300);
        await store.close();
        const db = new Database(path);
        db.pragma("journal_mode = DELETE");
        db.close();
      }
      const bytes = readFileSync(path);
      bytes.fill(0xa5, bytes.readUInt16BE(16) * 2); // every page after the schema's and the first table's
      writeFileSync(path, bytes);
      expectCorrupt(() => sqliteStore(path), path);
      expect(readFileSync(path).equals(bytes)).toBe(true);
      expect(readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path)))).toEqual([basename(path)]);
    },
  );

  it("a damaged database: loading fails with STORE_CORRUPT, never a crash or an empty chat", async () => {
    const path = file("damaged.db");
    const store = sqliteStore(path, { durability: "batched" });
    await store.createChat(record());
    await chain(store, 300);
    await store.flush();
    store.database.pragma("wal_checkpoint(TRUNCATE)");
    await store.close();
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize * 2); // every page after the schema's and the first table's
    writeFileSync(path, bytes);
    let damaged: ReturnType<typeof sqliteStore>;
    try {
      damaged = sqliteStore(path);
    } catch (e) {
      expect((e as CtxloomError).code).toBe("STORE_CORRUPT");
      expect((e as CtxloomError).message).toContain(path);
      return;
    }
    for (const call of [() => damaged.loadChat("u", "c1"), () => damaged.listChats("u")]) {
      const outcome = await call().then(
        () => "read",
        (e: CtxloomError) => e.code + (e.message.includes(path) ? " naming the path" : ""),
      );
      expect(outcome).toBe("STORE_CORRUPT naming the path");
    }
    await damaged.close();
  });

  // A chat of 2 messages loads row by row; one of 2,500 in chunks of ids (the bad row in the second chunk).
  it.each(
    [2, 2500].flatMap((length) => {
      const at = length === 2 ? 1 : 1500;
      return [
        ["an unknown role code", `UPDATE messages SET role = 9 WHERE id = ${at}`],
        ["a priority stored as text", `UPDATE messages SET priority = 'high' WHERE id = ${at}`],
        ["an unknown kind code", `UPDATE messages SET kind = 2 WHERE id = ${at}`],
        ["tool calls that are not JSON", `UPDATE messages SET tool_calls = '[{broken' WHERE id = ${at}`],
        ["options that are not JSON", "UPDATE chats SET options = 'nope'"],
        ["a gap in the ids", `DELETE FROM messages WHERE id = ${at - 1}`],
        [
          "a row beyond the count",
          `INSERT INTO messages (chat, id, parent, role, priority, tokens, kind, created, content) SELECT chat, ${length}, parent, role, priority, tokens, kind, created, content FROM messages WHERE id = 0`,
        ],
        ["a count beyond the rows", "UPDATE chats SET message_count = message_count + 1"],
      ].map(([what, sql]) => [`${what} (${length} messages)`, sql!, length] as const);
    }),
  )("a row ctxloom cannot read back: %s", async (_, sql, length) => {
    const path = file("codes.db");
    const store = sqliteStore(path, { durability: "batched" });
    await store.createChat(record());
    await chain(store, length);
    await store.listChats("u"); // writes the batch's chat row
    store.database.exec(sql);
    const error = await store.loadChat("u", "c1").catch((e: CtxloomError) => e);
    expect(error).toBeInstanceOf(CtxloomError);
    expect((error as CtxloomError).code).toBe("STORE_CORRUPT");
    expect((error as CtxloomError).message).toContain(path);
    await store.close();
  });
});

// What the store hands back as is but a restore refuses: a Loom opening the chat (its texts
// read as UTF-8 in chunks, or row by row when a value is not what an append writes) says
// STORE_CORRUPT, on both engines, for short chats and long ones (the bad row in a later chunk).
describe("a Loom opening a damaged chat", () => {
  it.each(
    [2, 2500].flatMap((length) => {
      const at = length === 2 ? 1 : 1500;
      return [
        ["a content stored as a BLOB", `UPDATE messages SET content = X'4142' WHERE id = ${at}`],
        ["an empty user message", `UPDATE messages SET content = '' WHERE id = ${at}`],
        ["negative tokens", `UPDATE messages SET tokens = -5 WHERE id = ${at}`],
        ["tokens past 2^30", `UPDATE messages SET tokens = ${2 ** 31} WHERE id = ${at}`],
        ["a fractional parent", `UPDATE messages SET parent = 0.5 WHERE id = ${at}`],
        ["a parent after the message", `UPDATE messages SET parent = ${at} WHERE id = ${at}`],
        ["a creation time as text", `UPDATE messages SET created = 'noon' WHERE id = ${at}`],
        ["tool calls that are not a list", `UPDATE messages SET tool_calls = '5' WHERE id = ${at}`],
        ["content parts that are not a list", `UPDATE messages SET parts = '{"a":1}' WHERE id = ${at}`],
        [
          "content parts that disagree with the text",
          `UPDATE messages SET parts = '[{"type":"text","text":"other"}]' WHERE id = ${at}`,
        ],
      ].map(([what, sql]) => [`${what} (${length} messages)`, sql!, length] as const);
    }),
  )("%s", async (_, sql, length) => {
    const path = file("damaged.db");
    const store = sqliteStore(path, { durability: "batched" });
    await store.createChat(record());
    await chain(store, length);
    await store.close();
    const db = new Database(path);
    db.exec(sql);
    db.close();
    for (const engine of ["wasm", "js"] as const) {
      const loom = await Loom.open({ engine, store: sqliteStore(path) });
      await expectRejectCode(() => loom.user("u").open("c1"), "STORE_CORRUPT");
      await loom.close();
    }
  });

  it("an intact long chat opens with the same messages as a row-by-row read", async () => {
    const path = file("intact.db");
    const store = sqliteStore(path, { durability: "batched" });
    await store.createChat(record());
    await chain(store, 2500);
    await store.close();
    const rows = await sqliteStore(path).loadChat("u", "c1", 1); // from id 1: never the columnar read
    for (const engine of ["wasm", "js"] as const) {
      const loom = await Loom.open({ engine, store: sqliteStore(path) });
      const chat = await loom.user("u").open("c1");
      expect(Array.from({ length: 2499 }, (_, i) => chat.get(i + 1))).toEqual(rows!.messages);
      await loom.close();
    }
  });
});

describe("places and limits", () => {
  it("a missing folder, or a folder for a file: INVALID_ARGUMENT saying what to do, nothing created", () => {
    const dir = file("absent");
    for (const path of [join(dir, "ctxloom.db"), dirname(dir)]) {
      let error: unknown;
      try {
        sqliteStore(path);
      } catch (e) {
        error = e;
      }
      expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
      expect((error as CtxloomError).message).toMatch(/create it first|path of a file/);
    }
  });

  it("a read-only file: it opens and reads; writes fail with STORE_FAILED and change nothing", async () => {
    const dir = file("ro");
    mkdirSync(dir);
    const path = join(dir, "ro.db");
    const store = sqliteStore(path);
    await store.createChat(record());
    await chain(store, 3);
    await store.close();
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    chmodSync(dirname(dir), 0o755);
    // root writes anything: the child runs as nobody then.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child, "readonly", path], {
      ...asNobody,
      env: { ...process.env, NODE_OPTIONS: "" },
      cwd: dirname(child),
    });
    const out = JSON.parse(stdout.trim());
    chmodSync(dir, 0o755);
    if (out.open !== "ok") {
      expect(out.open).toBe("STORE_FAILED");
    } else {
      expect(out.messages).toBe(3);
      expect(out.append.code).toBe("STORE_FAILED");
      expect(out.append.message).toMatch(/read-only/);
      expect(out.head).toBe("STORE_FAILED");
    }
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(3);
    expect(check.prepare("SELECT head FROM chats").pluck().get()).toBe(2);
    check.close();
  });

  it.each(["full", "batched"] as Durability[])(
    "a full disk (%s): STORE_FAILED saying so; what was committed stays",
    async (durability) => {
      const path = file(`full-${durability}.db`);
      const store = sqliteStore(path, { durability });
      await store.createChat(record());
      await chain(store, 2);
      await store.flush();
      const pages = store.database.pragma("page_count", { simple: true }) as number;
      store.database.pragma(`max_page_count = ${pages + 2}`);
      const big = "x".repeat(40_000);
      const error = await store
        .appendMessage({
          userId: "u",
          chatId: "c1",
          message: message({ id: 2, parentId: 1, content: big }),
          head: 2,
          updatedAt: 999,
        })
        .catch((e: CtxloomError) => e);
      expect(error).toBeInstanceOf(CtxloomError);
      expect((error as CtxloomError).code).toBe("STORE_FAILED");
      expect((error as CtxloomError).message).toMatch(/full/);
      // Nothing visible changed, and the store goes on.
      expect((await store.loadChat("u", "c1"))!.chat).toMatchObject({ messageCount: 2, head: 1, updatedAt: 101 });
      await chain(store, 1, 2);
      if (durability === "batched") {
        // m2 is acknowledged but not committed; a failure now loses the batch, and the store
        // says so on every call until it is opened again.
        await store
          .appendMessage({
            userId: "u",
            chatId: "c1",
            message: message({ id: 3, parentId: 2, content: big }),
            head: 3,
            updatedAt: 999,
          })
          .catch(() => undefined);
        for (const call of [
          () => store.loadChat("u", "c1"),
          () => store.flush(),
          () => store.setHead({ userId: "u", chatId: "c1", head: 0, updatedAt: 1 }),
        ]) {
          const e = await call().catch((x: CtxloomError) => x);
          expect((e as CtxloomError).code).toBe("STORE_FAILED");
          expect((e as CtxloomError).message).toMatch(/1 acknowledged write.*lost.*open it again/);
        }
      }
      await store.close().catch(() => undefined);
      const again = sqliteStore(path);
      expect((await again.loadChat("u", "c1"))!.messages.map((m) => m.content)).toEqual(
        durability === "full" ? ["m0", "m1", "m2"] : ["m0", "m1"],
      );
      await again.close();
    },
  );

  it("a full disk under a Loom: append rejects with STORE_FAILED and the chat is as it was", async () => {
    const store = sqliteStore(file("loom-full.db"));
    const loom = await Loom.open({ store, engine: "js", counter: "heuristic" });
    const chats = loom.user("u");
    const chat = await chats.create({ title: "t" });
    await chat.append({ role: "user", content: "hello" });
    const before = await snapshot(chat, chats);
    store.database.pragma(`max_page_count = ${store.database.pragma("page_count", { simple: true }) as number}`);
    await expectRejectCode(() => chat.append({ role: "assistant", content: "y".repeat(50_000) }), "STORE_FAILED");
    expect(await snapshot(chat, chats)).toEqual(before);
    await loom.close();
  });
});
