// The PostgreSQL store against a real server: a throwaway cluster started for this file.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CtxloomError, Loom, type Message } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { migrations } from "../../src/store/postgres-schema.js";
import type { ChatRecord } from "../../src/store/types.js";
import { ENGINES } from "../helpers.js";
import { noPostgresNotice, startCluster, type Cluster } from "./pg-cluster.js";

const skip = noPostgresNotice();
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
let cluster: Cluster;
let prefixes = 0;
/** A fresh set of tables for each test: the same database, another prefix. */
const fresh = (options: Parameters<typeof postgresStore>[1] = {}) =>
  postgresStore(cluster.url, { tablePrefix: `t${++prefixes}_`, ...options });

const record = (id: string, userId = "u", at = 1): ChatRecord => ({
  id,
  userId,
  title: `chat ${id}`,
  model: "gpt-4o",
  system: null,
  createdAt: at,
  updatedAt: at,
  messageCount: 0,
  head: null,
  options: {},
});
const message = (id: number, parentId: number | null, content = `m${id}`): Message => ({
  id,
  parentId,
  role: id % 2 ? "assistant" : "user",
  content,
  priority: "normal",
  tokens: 5,
  createdAt: 100 + id,
  kind: "message",
});
const code = async (p: unknown): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return e instanceof CtxloomError ? e.code : `not a CtxloomError: ${String(e)}`;
  }
  return "resolved";
};

describe("postgresStore options", () => {
  it("refuses bad targets and options with INVALID_ARGUMENT", () => {
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => postgresStore(42 as never));
    bad(() => postgresStore("postgres://x", { durabilty: "full" } as never));
    expect(() => postgresStore("postgres://x", { durabilty: "full" } as never)).toThrow(/did you mean "durability"/);
    bad(() => postgresStore("postgres://x", { durability: "fast" as never }));
    bad(() => postgresStore("postgres://x", { tablePrefix: "x; drop table" }));
    bad(() => postgresStore("postgres://x", { max: 0 }));
    bad(() => postgresStore(new pg.Pool(), { durability: "batched" }));
  });
});

describe.skipIf(skip)("postgresStore on a real server", () => {
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.stop());

  it("keeps chats and messages; appends are conditional on the next id; heads can be compare-and-set", async () => {
    const s = fresh();
    await s.createChat(record("a", "u", 1));
    await s.createChat(record("b", "u", 2));
    await s.createChat(record("c", "v", 3));
    expect((await s.listChats("u")).map((c) => c.id)).toEqual(["b", "a"]);
    expect(
      await s.appendMessage({ userId: "u", chatId: "a", message: message(0, null), head: 0, updatedAt: 10 }),
    ).toEqual({ ok: true });
    expect(await s.appendMessage({ userId: "u", chatId: "a", message: message(1, 0), head: 1, updatedAt: 11 })).toEqual(
      { ok: true },
    );
    // Another writer that thought the chat had one message loses, and nothing is written.
    expect(
      await s.appendMessage({ userId: "u", chatId: "a", message: message(1, 0, "late"), head: 1, updatedAt: 12 }),
    ).toEqual({ ok: false, size: 2 });
    expect(await s.appendMessage({ userId: "u", chatId: "a", message: message(5, 0), head: 5, updatedAt: 12 })).toEqual(
      { ok: false, size: 2 },
    );
    const withCalls: Message = {
      ...message(2, 1),
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
    };
    expect(await s.appendMessage({ userId: "u", chatId: "a", message: withCalls, head: 2, updatedAt: 13 })).toEqual({
      ok: true,
    });
    expect(
      await s.appendMessage({
        userId: "u",
        chatId: "a",
        message: {
          ...message(3, 2),
          role: "tool",
          toolCallId: "c1",
          name: "f",
          covers: { first: 0, last: 1 },
          kind: "summary",
        },
        head: 3,
        updatedAt: 14,
      }),
    ).toEqual({ ok: true });
    const loaded = (await s.loadChat("u", "a"))!;
    expect(loaded.chat).toMatchObject({ id: "a", head: 3, messageCount: 4, updatedAt: 14 });
    expect(loaded.messages.map((m) => m.content)).toEqual(["m0", "m1", "", "m3"]);
    expect(loaded.messages[2]!.toolCalls).toEqual(withCalls.toolCalls);
    expect(loaded.messages[3]).toMatchObject({
      toolCallId: "c1",
      name: "f",
      covers: { first: 0, last: 1 },
      kind: "summary",
    });
    expect((await s.loadChat("u", "a", 2))!.messages.map((m) => m.id)).toEqual([2, 3]);
    expect(await s.loadChat("v", "a")).toBeUndefined(); // another user's chat is not visible
    expect(await s.setHead({ userId: "u", chatId: "a", head: 1, updatedAt: 20, expected: 0 })).toBe(false);
    expect(await s.setHead({ userId: "u", chatId: "a", head: 1, updatedAt: 20, expected: 3 })).toBe(true);
    expect(await s.setHead({ userId: "u", chatId: "a", head: null, updatedAt: 21 })).toBe(true);
    expect((await s.loadChat("u", "a"))!.chat.head).toBeNull();
    expect(
      await code(s.appendMessage({ userId: "u", chatId: "nope", message: message(0, null), head: 0, updatedAt: 1 })),
    ).toBe("UNKNOWN_CHAT"); // as every store says it (checks.ts)
    expect(await s.deleteChat("u", "a")).toBe(true);
    expect(await s.deleteChat("u", "a")).toBe(false);
    expect(await s.loadChat("u", "a")).toBeUndefined();
    await s.close();
  });

  it("keeps embeddings per embedder, exactly, and clears them without touching messages", async () => {
    const s = fresh();
    await s.createChat(record("a"));
    await s.createChat(record("b"));
    await s.appendMessage({ userId: "u", chatId: "a", message: message(0, null), head: 0, updatedAt: 1 });
    await s.appendMessage({ userId: "u", chatId: "b", message: message(0, null), head: 0, updatedAt: 1 });
    const v = new Float32Array([0.1, -2.5, 3.4028234663852886e38, 1e-45]);
    await s.putEmbeddings({
      userId: "u",
      chatId: "a",
      embedder: { name: "hash", dimension: 4 },
      rows: [{ messageId: 0, vector: v }],
    });
    await s.putEmbeddings({
      userId: "u",
      chatId: "b",
      embedder: { name: "hash", dimension: 4 },
      rows: [{ messageId: 0, vector: v }],
    });
    await s.putEmbeddings({
      userId: "u",
      chatId: "a",
      embedder: { name: "other", dimension: 4 },
      rows: [{ messageId: 0, vector: new Float32Array(4) }],
    });
    expect(await s.loadEmbeddings("u", "a", { name: "hash", dimension: 4 })).toEqual([{ messageId: 0, vector: v }]);
    expect(await s.loadEmbeddings("u", "a", { name: "hash", dimension: 8 })).toEqual([]);
    await s.putEmbeddings({
      userId: "u",
      chatId: "a",
      embedder: { name: "hash", dimension: 4 },
      rows: [{ messageId: 0, vector: new Float32Array([1, 1, 1, 1]) }],
    });
    expect((await s.loadEmbeddings("u", "a", { name: "hash", dimension: 4 }))[0]!.vector).toEqual(
      new Float32Array([1, 1, 1, 1]),
    );
    await s.clearEmbeddings("u", "a");
    expect(await s.loadEmbeddings("u", "a", { name: "hash", dimension: 4 })).toEqual([]);
    expect(await s.loadEmbeddings("u", "b", { name: "hash", dimension: 4 })).toHaveLength(1);
    await s.clearEmbeddings("u");
    expect(await s.loadEmbeddings("u", "b", { name: "hash", dimension: 4 })).toEqual([]);
    expect((await s.loadChat("u", "a"))!.messages).toHaveLength(1);
    await s.close();
  });

  it("migrates a version-1 database: what it held reads back exactly (U+0001 in texts and ids, JSON); U+0000 round-trips and keys work after", async () => {
    const prefix = `t${++prefixes}_`;
    const soh = "\u0001";
    const client = new pg.Client(cluster.url);
    await client.connect();
    // The schema of version 1 as released, and rows written by that release.
    await client.query(`CREATE TABLE ${prefix}schema (version integer NOT NULL)`);
    for (const statement of migrations(prefix)[0]!) await client.query(statement);
    await client.query(`INSERT INTO ${prefix}schema (version) VALUES (1)`);
    const [user, chatId] = [`u${soh}1`, `c${soh}0`];
    await client.query(
      `INSERT INTO ${prefix}chats (user_id, id, title, model, system, options, head, message_count, created_at, updated_at) VALUES ($1, $2, $3, 'gpt-4o', $4, $5, 1, 2, 1, 2)`,
      [user, chatId, `t${soh}0`, `s${soh}`, JSON.stringify({ historyLimits: true, budget: { system: 0.2 } })],
    );
    await client.query(
      `INSERT INTO ${prefix}messages (user_id, chat_id, id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, created_at)
       VALUES ($1, $2, 0, NULL, 'user', $3, 'normal', 4, $4, NULL, NULL, 'message', 10),
              ($1, $2, 1, 0, 'assistant', '', 'normal', 9, NULL, $5, NULL, 'message', 11)`,
      [
        user,
        chatId,
        `a${soh}0${soh}1${soh}`,
        `n${soh}1`,
        JSON.stringify([{ id: "k", type: "function", function: { name: "f", arguments: `{"x":"${soh}0"}` } }]),
      ],
    );
    await client.query(
      `INSERT INTO ${prefix}embeddings (user_id, chat_id, message_id, embedder, dimension, vector) VALUES ($1, $2, 0, $3, 1, $4)`,
      [user, chatId, `e${soh}0`, Buffer.from(new Float32Array([7]).buffer)],
    );
    await client.end();

    const s = postgresStore(cluster.url, { tablePrefix: prefix });
    const loaded = (await s.loadChat(user, chatId))!;
    expect(loaded.chat).toEqual({
      id: chatId,
      userId: user,
      title: `t${soh}0`,
      model: "gpt-4o",
      system: `s${soh}`,
      options: { historyLimits: true, budget: { system: 0.2 } },
      head: 1,
      messageCount: 2,
      createdAt: 1,
      updatedAt: 2,
    });
    expect(loaded.messages).toEqual([
      {
        id: 0,
        parentId: null,
        role: "user",
        content: `a${soh}0${soh}1${soh}`,
        priority: "normal",
        tokens: 4,
        createdAt: 10,
        kind: "message",
        name: `n${soh}1`,
      },
      {
        id: 1,
        parentId: 0,
        role: "assistant",
        content: "",
        priority: "normal",
        tokens: 9,
        createdAt: 11,
        kind: "message",
        toolCalls: [{ id: "k", type: "function", function: { name: "f", arguments: `{"x":"${soh}0"}` } }],
      },
    ]);
    expect(await s.loadEmbeddings(user, chatId, { name: `e${soh}0`, dimension: 1 })).toEqual([
      { messageId: 0, vector: new Float32Array([7]) },
    ]);
    expect((await s.listChats(user)).map((c) => c.id)).toEqual([chatId]);
    // What version 1 could not hold at all.
    const nul: Message = {
      ...message(2, 1, "\u0000a\u0000"),
      name: "\u0000",
      parts: [
        { type: "reasoning", text: "\u0000" },
        { type: "text", text: "\u0000a\u0000" },
      ],
    };
    expect(await s.appendMessage({ userId: user, chatId, message: nul, head: 2, updatedAt: 12 })).toEqual({ ok: true });
    expect((await s.loadChat(user, chatId, 2))!.messages).toEqual([nul]);
    // What version 2 did not have: an append's key, unique per chat.
    expect(
      await s.appendMessage({ userId: user, chatId, message: message(3, 2), head: 3, updatedAt: 13, key: "key" }),
    ).toEqual({ ok: true });
    expect(
      await s.appendMessage({ userId: user, chatId, message: message(4, 3), head: 4, updatedAt: 14, key: "key" }),
    ).toEqual({ ok: false, existing: message(3, 2) });
    await s.createChat(record("\u0000", "\u0000"));
    expect((await s.listChats("\u0000")).map((c) => c.id)).toEqual(["\u0000"]);
    await s.close();
  });

  it("creates its schema once, concurrently, and refuses a newer schema with STORE_CORRUPT", async () => {
    const prefix = `t${++prefixes}_`;
    const stores = Array.from({ length: 4 }, () => postgresStore(cluster.url, { tablePrefix: prefix }));
    await Promise.all(stores.map((s, i) => s.createChat(record(`c${i}`))));
    expect(await stores[0]!.listChats("u")).toHaveLength(4);
    await Promise.all(stores.map((s) => s.close()));
    const client = new pg.Client(cluster.url);
    await client.connect();
    await client.query(`UPDATE ${prefix}schema SET version = 99`);
    await client.end();
    const newer = postgresStore(cluster.url, { tablePrefix: prefix });
    await expect(newer.listChats("u")).rejects.toThrow(/schema version 99, newer than this release's/);
    await newer.close();
  });

  it("tells every instance of a new message (LISTEN/NOTIFY)", async () => {
    const prefix = `t${++prefixes}_`;
    const a = postgresStore(cluster.url, { tablePrefix: prefix });
    const b = postgresStore(cluster.url, { tablePrefix: prefix });
    await a.createChat(record("shared"));
    const seen: unknown[] = [];
    // A gate, not a poll: resolved when the second notification arrives (the test's timeout bounds the wait).
    let heardBoth!: () => void;
    const both = new Promise<void>((resolve) => (heardBoth = resolve));
    const stop = await b.watch((change) => {
      seen.push(change);
      if (seen.length === 2) heardBoth();
    });
    await a.appendMessage({ userId: "u", chatId: "shared", message: message(0, null), head: 0, updatedAt: 1 });
    await a.appendMessage({ userId: "u", chatId: "shared", message: message(1, 0), head: 1, updatedAt: 2 });
    await both;
    expect(seen).toEqual([
      { userId: "u", chatId: "shared", size: 1 },
      { userId: "u", chatId: "shared", size: 2 },
    ]);
    await stop();
    await a.close();
    await b.close();
  });

  for (const engine of ENGINES) {
    it(`${engine}: a chat comes back exactly in a new Loom (messages, branches, head, paths, windows, contexts)`, async () => {
      const prefix = `t${++prefixes}_`;
      const loom = await Loom.open({ engine, store: postgresStore(cluster.url, { tablePrefix: prefix }) });
      const chat = await loom.user("alice").create({ title: "Trip", model: "gpt-4o", system: "Be brief." });
      const u = await chat.append({ role: "user", content: "Where should I go in May?" });
      const a = await chat.append({ role: "assistant", content: "Lisbon.", priority: "low" });
      await chat.regenerate(a.id);
      await chat.append({ role: "assistant", content: "Porto, or Lisbon." });
      await chat.edit(u.id, "Where should I go in June?");
      await chat.append({
        role: "assistant",
        content: "Crete.",
        toolCalls: [{ id: "w", type: "function", function: { name: "weather", arguments: '{"in":"Crete"}' } }],
      });
      await chat.append({ role: "tool", content: "28°C, sunny", toolCallId: "w" });
      await chat.checkout(3);
      const before = {
        path: chat.path(),
        leaves: chat.leaves(),
        head: chat.head,
        ctx: await chat.buildContext(),
        window: chat.window({ maxMessages: 3 }),
      };
      const paths = Array.from({ length: chat.messageCount }, (_, id) => chat.path(id));
      const list = await loom.user("alice").list();
      await loom.close();

      const again = await Loom.open({ engine, store: postgresStore(cluster.url, { tablePrefix: prefix }) });
      expect(await again.user("alice").list()).toEqual(list);
      const back = await again.user("alice").open(chat.id);
      expect({
        path: back.path(),
        leaves: back.leaves(),
        head: back.head,
        ctx: await back.buildContext(),
        window: back.window({ maxMessages: 3 }),
      }).toEqual(before);
      expect(Array.from({ length: back.messageCount }, (_, id) => back.path(id))).toEqual(paths);
      await again.close();
    });
  }

  it("a database that cannot be reached gives STORE_FAILED and changes nothing", async () => {
    const loom = await Loom.open({
      store: postgresStore("postgres://ctxloom@127.0.0.1:1/ctxloom", { queryTimeoutMs: 2000 }),
    });
    expect(await code(loom.user("alice").create())).toBe("STORE_FAILED");
    expect(await code(loom.user("alice").list())).toBe("STORE_FAILED");
    await loom.close();
  });

  it("an open chat on another instance hears of new messages and refresh() applies them", async () => {
    const prefix = `t${++prefixes}_`;
    const storeB = postgresStore(cluster.url, { tablePrefix: prefix });
    const a = await Loom.open({ store: postgresStore(cluster.url, { tablePrefix: prefix }) });
    const b = await Loom.open({ store: storeB, engine: "js" });
    const chatA = await a.user("alice").create();
    await chatA.append({ role: "user", content: "first" });
    const chatB = await b.user("alice").open(chatA.id);
    // The documented pattern: watch the store, refresh the chat that changed.
    const refreshed: number[] = [];
    // A gate, not a poll: resolved once the watcher has refreshed the chat with the new message.
    let caughtUp!: () => void;
    const refreshedB = new Promise<void>((resolve) => (caughtUp = resolve));
    const stop = await storeB.watch(async ({ userId, chatId }) => {
      const chat = await b.user(userId).open(chatId);
      refreshed.push(await chat.refresh());
      if (chatB.messageCount >= 2) caughtUp();
    });
    await chatA.append({ role: "assistant", content: "second" });
    await refreshedB;
    expect(chatB.path().map((m) => m.content)).toEqual(["first", "second"]);
    expect(refreshed).toContain(1);
    await stop();
    await a.close();
    await b.close();
  });

  it("chats.import makes a whole chat in one transaction; chat ids are per user", async () => {
    const prefix = `t${++prefixes}_`;
    const loom = await Loom.open({ store: postgresStore(cluster.url, { tablePrefix: prefix }) });
    const chat = await loom.user("alice").create({ title: "Trip" });
    await chat.append({ role: "user", content: "Lisbon or Porto?" });
    await chat.append({ role: "assistant", content: "Porto." });
    await chat.regenerate(1);
    await chat.append({ role: "assistant", content: "Lisbon." });
    const exported = chat.export();
    const copy = await loom.user("bob").import(exported);
    expect(copy.id).toBe(chat.id); // bob has no chat of that id: the exported id is kept
    await loom.close();
    const again = await Loom.open({ store: postgresStore(cluster.url, { tablePrefix: prefix }) });
    const back = await again.user("bob").open(chat.id);
    expect(back.export()).toEqual({ ...exported, chat: { ...exported.chat, updatedAt: back.export().chat.updatedAt } });
    expect((await again.user("alice").open(chat.id)).path().map((m) => m.content)).toEqual([
      "Lisbon or Porto?",
      "Lisbon.",
    ]);
    await again.close();
  });

  it("content parts (images, files, reasoning) survive an append, an import and a reload, on both engines", async () => {
    for (const engine of ENGINES) {
      const prefix = `t${++prefixes}_`;
      const loom = await Loom.open({ engine, store: postgresStore(cluster.url, { tablePrefix: prefix }) });
      const chat = await loom.user("alice").create({ model: "claude-sonnet-4-5" });
      await chat.append({
        role: "user",
        content: [
          { type: "text", text: "Read this." },
          { type: "image", image: "https://example.com/a.png", width: 800, height: 600 },
          { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: "a.pdf" },
        ],
      });
      await chat.append({
        role: "assistant",
        content: [
          { type: "reasoning", text: "Reading.", signature: "sig" },
          { type: "redacted-reasoning", data: "R" },
          { type: "text", text: "Done." },
        ],
      });
      const copy = await loom.user("bob").import(chat.export());
      const path = chat.path();
      expect(path[1]!.parts).toHaveLength(3);
      await loom.close();
      const again = await Loom.open({ engine, store: postgresStore(cluster.url, { tablePrefix: prefix }) });
      expect((await again.user("alice").open(chat.id)).path()).toEqual(path);
      expect((await again.user("bob").open(copy.id)).path()).toEqual(path);
      await again.close();
    }
  });

  it("a restarted (crashed) server loses no acknowledged append", async () => {
    const prefix = `t${++prefixes}_`;
    const s = postgresStore(cluster.url, { tablePrefix: prefix });
    await s.createChat(record("a"));
    for (let i = 0; i < 200; i++)
      expect(
        await s.appendMessage({
          userId: "u",
          chatId: "a",
          message: message(i, i ? i - 1 : null),
          head: i,
          updatedAt: i,
        }),
      ).toEqual({ ok: true });
    await s.close();
    cluster.restart("immediate");
    const after = postgresStore(cluster.url, { tablePrefix: prefix });
    const loaded = (await after.loadChat("u", "a"))!;
    expect(loaded.messages.map((m) => m.id)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(loaded.chat).toMatchObject({ head: 199, messageCount: 200 });
    await after.close();
  });

  it("8 processes x 1,000 appends to 10 shared chats: every acknowledged message exactly once, every tree consistent", async () => {
    const prefix = `fleet${++prefixes}_`;
    const s = postgresStore(cluster.url, { tablePrefix: prefix });
    const chats = Array.from({ length: 10 }, (_, i) => `chat${i}`);
    for (const id of chats) await s.createChat(record(id, "fleet"));
    await s.close();
    const run = (writer: number) =>
      new Promise<{ chat: string; id: number; parent: number | null; content: string }[]>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            "--import",
            "tsx",
            join(root, "test/store/pg-writer.ts"),
            cluster.url,
            String(writer),
            chats.join(","),
            "1000",
            prefix,
          ],
          { cwd: root },
        );
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (err += d));
        child.on("exit", (status) =>
          status === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer ${writer} exited ${status}: ${err}`)),
        );
      });
    const acked = (await Promise.all(Array.from({ length: 8 }, (_, w) => run(w)))).flat();
    expect(acked).toHaveLength(8000);
    // Read back by a WASM Loom and a JS Loom: the same trees, every acknowledged message once.
    const readers = await Promise.all(
      ENGINES.map((engine) =>
        Loom.open({ engine, store: postgresStore(cluster.url, { tablePrefix: prefix }), counter: "heuristic" }),
      ),
    );
    for (const id of chats) {
      const [wasm, js] = await Promise.all(readers.map((l) => l.user("fleet").open(id)));
      const all = Array.from({ length: wasm!.messageCount }, (_, i) => wasm!.get(i));
      expect(Array.from({ length: js!.messageCount }, (_, i) => js!.get(i))).toEqual(all);
      expect(js!.leaves()).toEqual(wasm!.leaves());
      for (const m of all) expect(m.parentId === null || (m.parentId >= 0 && m.parentId < m.id)).toBe(true);
      const mine = acked.filter((a) => a.chat === id);
      expect(all).toHaveLength(mine.length); // nothing lost, nothing written twice
      const byId = new Map(all.map((m) => [m.id, m]));
      for (const a of mine) expect(byId.get(a.id)).toMatchObject({ content: a.content, parentId: a.parent });
      expect(new Set(all.map((m) => m.content)).size).toBe(all.length);
    }
    // Writers did race: some chats branched where a loser appended as a sibling.
    let branched = 0;
    for (const id of chats) if ((await readers[0]!.user("fleet").open(id)).leaves().length > 1) branched++;
    expect(branched).toBeGreaterThan(0);
    await Promise.all(readers.map((l) => l.close()));
  }, 180_000);
});
