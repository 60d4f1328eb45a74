// What a chat product needs of every store, through the Loom: a chat under the client's id with
// metadata, kept across a reopen; the list paged by activity; and a redaction, with what "gone"
// means on each: the bytes of the SQLite file and its log, the rows PostgreSQL reads back (the
// old row versions are VACUUM's, the operator's), after a delete too (SQLite's in
// sqlite-delete.test.ts). The memory store and Durable Objects are tested in
// test/chat/chat-products.test.ts and test/runtime/durable-object-products.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Loom, countTokens, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectRejectCode } from "../helpers.js";
import { noPostgresNotice, startCluster, type Cluster } from "./pg-cluster.js";

const SECRET = "SECRET-IBAN-DE89370400440532013000";
const LONG = `${SECRET} ${"and more private words ".repeat(600)}`; // about 13 KB: on SQLite's overflow pages

/** A chat under a client's id, with metadata, a secret among many messages (one of them long), recall's vectors stored. */
async function scenario(store: () => Store, redacted: () => void = () => {}) {
  const loom = await Loom.open({ store: store(), recall: true });
  const chats = loom.user("alice");
  const chat = await chats.create({ id: "client-chat-1", title: "Bank", metadata: { pinned: true, tags: ["money"] } });
  for (let i = 0; i < 120; i++) {
    const content =
      i === 40 ? `My IBAN is ${SECRET}, keep it.` : i === 41 ? LONG : `message ${i} ${"x".repeat((i * 37) % 400)}`;
    await chat.append({ role: i % 2 ? "assistant" : "user", content });
  }
  for (let i = 0; i < 7; i++) await chats.create({ id: `other-${i}` });
  await loom.flush(); // the vectors of the messages are in the store
  await loom.close();

  const again = await Loom.open({ store: store(), recall: true });
  const mine = again.user("alice");
  const reopened = await mine.open("client-chat-1");
  expect(reopened.metadata).toEqual({ pinned: true, tags: ["money"] });
  await expectRejectCode(() => mine.create({ id: "client-chat-1" }), "CHAT_EXISTS");
  const all = await mine.list();
  const paged = [];
  for (let cursor: string | null | undefined; cursor !== null; ) {
    const page = await mine.page({ limit: 3, ...(cursor ? { after: cursor } : {}) });
    paged.push(...page.chats);
    cursor = page.cursor;
  }
  expect(paged).toEqual(all);
  expect(all.find((c) => c.id === "client-chat-1")!.metadata).toEqual({ pinned: true, tags: ["money"] });

  await reopened.redact(40);
  await reopened.redact(41);
  expect([reopened.get(40).content, reopened.get(41).content]).toEqual(["[redacted]", "[redacted]"]);
  const counts = [reopened.get(40).tokens, reopened.get(41).tokens];
  redacted(); // the store still open
  await again.close();
  const third = await Loom.open({ store: store() });
  const back = await third.user("alice").open("client-chat-1");
  expect(JSON.stringify(back.export())).not.toContain("SECRET-IBAN");
  expect(back.messageCount).toBe(120);
  // The redacted messages' counts were kept with them: what a context counts after the reopen is
  // what it sends (the long one cost about 3,000 tokens before).
  expect([back.get(40).tokens, back.get(41).tokens]).toEqual(counts);
  expect(back.get(41).tokens).toBeLessThan(10);
  const ctx = await back.buildContext();
  expect(ctx.usage.total).toBe(countTokens(ctx.messages as never, { model: "gpt-4o" }));
  await third.close();
}

describe("SQLite: the redacted text is gone from the file and its log", () => {
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-products-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bytesOf = (file: string) => [file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((f) => readFileSync(f));

  for (const durability of ["full", "batched"] as const) {
    it(`durability "${durability}": no byte of it in the database or its -wal`, async () => {
      const file = join(dir, `${durability}.db`);
      let before = false;
      let open: Buffer[] = [];
      await scenario(
        () => {
          if (existsSync(file)) before ||= bytesOf(file).some((b) => b.includes(SECRET));
          return sqliteStore(file, { durability });
        },
        () => (open = bytesOf(file)),
      );
      expect(before).toBe(true); // it was on disk
      expect(open.length).toBeGreaterThanOrEqual(2); // the database and its log, the connection open
      expect(open.filter((b) => b.includes(SECRET) || b.includes("private words")).length).toBe(0);
      expect(bytesOf(file).filter((b) => b.includes(SECRET)).length).toBe(0);
      expect(bytesOf(file).filter((b) => b.includes("private words")).length).toBe(0);
    }, 60_000);
  }
});

const skip = noPostgresNotice();
describe.skipIf(skip)("PostgreSQL: the redacted text is gone from every row the database reads back", () => {
  let cluster: Cluster;
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startCluster();
    pool = new pg.Pool({ connectionString: cluster.url });
  });
  afterAll(async () => {
    await pool?.end();
    cluster?.stop();
  });

  it("messages and embeddings hold no trace of it; the old row versions are VACUUM's", async () => {
    await scenario(() => postgresStore(pool, { tablePrefix: "products_" }));
    const texts = await pool.query(
      "SELECT count(*)::int AS n FROM products_messages WHERE content LIKE '%SECRET-IBAN%' OR content LIKE '%private words%'",
    );
    expect(texts.rows[0].n).toBe(0);
    const vectors = await pool.query(
      "SELECT count(*)::int AS n FROM products_embeddings WHERE chat_id = 'client-chat-1' AND message_id IN (40, 41)",
    );
    expect(vectors.rows[0].n).toBe(0);
    const others = await pool.query(
      "SELECT count(*)::int AS n FROM products_embeddings WHERE chat_id = 'client-chat-1'",
    );
    expect(others.rows[0].n).toBeGreaterThan(50); // the other messages keep theirs
    // What "gone" means here: dead row versions wait for VACUUM, which the operator runs (autovacuum, or by hand).
    await pool.query("VACUUM products_messages");
  }, 120_000);

  // Issue 30, item 6: what a delete leaves (docs/chats.md, Chats in a product).
  it("a deleted chat: no row the database reads back holds its texts, title or vectors", async () => {
    const loom = await Loom.open({ store: postgresStore(pool, { tablePrefix: "deleted_" }), recall: true });
    const chats = loom.user("alice");
    const chat = await chats.create({ id: "gone", title: "TITLE-PRIVATE-8812" });
    for (let i = 0; i < 20; i++)
      await chat.append({ role: i % 2 ? "assistant" : "user", content: i === 7 ? LONG : `message ${i}` });
    await (await chats.create({ id: "stays" })).append({ role: "user", content: "still here" });
    await loom.flush();
    const count = async (sql: string) => (await pool.query(sql)).rows[0].n as number;
    const texts = "SELECT count(*)::int AS n FROM deleted_messages WHERE content LIKE '%SECRET-IBAN%'";
    expect(await count(texts)).toBe(1);
    await chats.delete("gone");
    expect(await count(texts)).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM deleted_chats WHERE title LIKE '%TITLE-PRIVATE%'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM deleted_embeddings WHERE chat_id = 'gone'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM deleted_messages WHERE chat_id = 'stays'")).toBe(1);
    await loom.close();
  }, 120_000);
});
