// Issue 35, items 4 and 5: `user(id).erase()` and `loom.prune()` on the memory, SQLite (both
// durabilities) and PostgreSQL stores (the Durable Object's and D1's run in workerd, the
// browser's in Chromium), through the shared cases (retention-cases.ts); and what each store
// leaves: no byte of the user's texts in a SQLite file or its log, no row PostgreSQL reads back.
import { existsSync, readFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Loom, memoryStore } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Store } from "../../src/store-entry.js";
import { clusterForFile } from "./pg-file.js";
import {
  SECRET,
  erasureCases,
  expectedErasure,
  expectedMemoryErasure,
  expectedPrune,
  memoryErasureCases,
  openFor,
  pruneCases,
} from "./retention-cases.js";
import { message, record, tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("retention");
const postgres = clusterForFile();
const open = openFor(Loom);
let n = 0;

const bytesOf = (path: string) => [path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((f) => readFileSync(f));
const holds = (path: string, text: string) => bytesOf(path).some((b) => b.includes(text));

const STORES: [string, boolean, () => Store][] = [
  ["memory", false, () => memoryStore()],
  ["sqlite, full durability", false, () => sqliteStore(file(`full-${++n}.db`))],
  ["sqlite, batched durability", false, () => sqliteStore(file(`batched-${++n}.db`), { durability: "batched" })],
  ["postgres", postgres.skip, () => postgresStore(postgres.url(), { tablePrefix: `retention${++n}_` })],
];

describe("user(id).erase() removes every chat, message, vector and key of the user, and nothing of another", () => {
  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(
      name,
      async () => {
        expect(await erasureCases(open, make())).toEqual(expectedErasure());
      },
      60_000,
    );
  }

  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(
      `${name}: the user's working memories too (their own and each chat's), and a pruned chat's`,
      async () => {
        expect(await memoryErasureCases(open, make())).toEqual(expectedMemoryErasure());
      },
      60_000,
    );
  }

  for (const durability of ["full", "batched"] as const) {
    it(`SQLite (${durability}): no byte of the user's texts in the file or its -wal, while open and after close`, async () => {
      const path = file(`bytes-${durability}.db`);
      const loom = await Loom.open({ store: sqliteStore(path, { durability }), recall: true });
      const chat = await loom.user("alice").create({ title: `title ${SECRET}` });
      for (let i = 0; i < 30; i++)
        await chat.append({
          role: i % 2 ? "assistant" : "user",
          content: i === 7 ? `${SECRET} ${"private words ".repeat(900)}` : `message ${i}`,
        });
      await (await loom.user("bob").create()).append({ role: "user", content: "bob's words" });
      await loom.flush();
      expect([holds(path, SECRET), holds(path, "private words")]).toEqual([true, true]);
      expect(await loom.user("alice").erase()).toEqual({ chats: 1, messages: 30 });
      expect([holds(path, SECRET), holds(path, "private words"), holds(path, "bob's words")]).toEqual([
        false,
        false,
        true,
      ]);
      await loom.close();
      expect([holds(path, SECRET), holds(path, "private words")]).toEqual([false, false]);
    }, 60_000);
  }

  it.skipIf(postgres.skip)(
    "PostgreSQL: no row of the user reads back in any table (the old row versions wait for VACUUM)",
    async () => {
      const pool = new pg.Pool({ connectionString: postgres.url() });
      try {
        await erasureCases(open, postgresStore(pool, { tablePrefix: "erased_" }));
        const count = async (table: string) =>
          (await pool.query(`SELECT count(*)::int AS n FROM erased_${table} WHERE user_id = 'alice'`)).rows[0]
            .n as number;
        // (erasureCases made alice a new chat after the erasure: one chat, one message.)
        expect([await count("chats"), await count("messages"), await count("embeddings")]).toEqual([1, 1, 0]);
        const texts = await pool.query(
          `SELECT count(*)::int AS n FROM erased_messages WHERE content LIKE '%${SECRET}%'`,
        );
        expect(texts.rows[0].n).toBe(0);
        expect(
          (await pool.query(`SELECT count(*)::int AS n FROM erased_chats WHERE title LIKE '%${SECRET}%'`)).rows[0].n,
        ).toBe(0);
      } finally {
        await pool.end();
      }
    },
    60_000,
  );
});

describe("loom.prune() removes idle chats and those past a count per user, in batches, and reports them", () => {
  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(
      name,
      async () => {
        expect(await pruneCases(open, make())).toEqual(expectedPrune());
      },
      60_000,
    );
  }

  it("SQLite, batched: a chat written in the open batch (its row not yet updated) is not pruned for the time its row still says", async () => {
    const store = sqliteStore(file("open-batch.db"), { durability: "batched", batchDelayMs: 60_000 });
    const old = Date.now() - 100 * 86_400_000;
    await store.importChat(record({ id: "old", updatedAt: old, createdAt: old, messageCount: 1, head: 0 }), [
      message({ createdAt: old }),
    ]);
    await store.importChat(record({ id: "gone", updatedAt: old, createdAt: old, messageCount: 1, head: 0 }), [
      message({ createdAt: old }),
    ]);
    await store.flush();
    // The append is acknowledged in the open batch: the chats row is written at commit.
    expect(
      await store.appendMessage({
        userId: "u",
        chatId: "old",
        message: message({ id: 1, parentId: 0, createdAt: Date.now() }),
        head: 1,
        updatedAt: Date.now(),
      }),
    ).toEqual({ ok: true });
    const batch = await store.pruneChats({ idleBefore: Date.now() - 86_400_000, limit: 10 });
    expect(batch.removed.map((c) => c.chatId)).toEqual(["gone"]);
    await store.flush();
    expect((await store.loadChat("u", "old"))!.messages.length).toBe(2);
    await store.close();
  });
});
