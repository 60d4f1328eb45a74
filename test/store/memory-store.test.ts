// Issue 34, item 1: users' working memories kept through a migration: a SQLite file and a
// PostgreSQL database of the released version 3 migrated to version 4 answer the memory case of
// the store contract (src/store/contract-memory.ts; every store runs it in test/store/contract.test.ts).
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectedMemoryCases, memoryStoreCases } from "../../src/store/contract-memory.js";
import { clusterForFile } from "./pg-file.js";
import { V1, V2, V3 } from "./sqlite-released.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("memory-store");
const postgres = clusterForFile();

describe("schema version 4", () => {
  it("a SQLite file of version 3 (as released) is migrated: its chats read back, and memories are kept", async () => {
    const path = file("v3.db");
    const raw = new Database(path);
    raw.exec(V1 + V2 + V3);
    raw.exec(`INSERT INTO users VALUES ('m', 1); INSERT INTO chats (user, id, title, model, system, options, head, created, updated, message_count)
      VALUES ('m', 'old', 't', 'gpt-4o', NULL, '{}', 0, 1, 2, 1);
      INSERT INTO messages (chat, id, parent, role, priority, tokens, kind, created, content) VALUES (1, 0, NULL, 1, 1, 4, 0, 10, 'hi');`);
    raw.close();
    const store = sqliteStore(path);
    expect(store.database.prepare("SELECT version FROM ctxloom_schema ORDER BY version").pluck().all()).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect((await store.loadChat("m", "old"))!.messages.map((m) => m.content)).toEqual(["hi"]);
    expect(await memoryStoreCases(store)).toEqual(expectedMemoryCases());
    await store.close();
  });

  it.skipIf(postgres.skip)(
    "a PostgreSQL database of version 3 is migrated to 4: memories are kept, and its chats stay",
    async () => {
      const prefix = "mv3_";
      const old = postgresStore(postgres.url(), { tablePrefix: prefix });
      await old.createChat({
        id: "old",
        userId: "m",
        title: "t",
        model: "gpt-4o",
        system: null,
        createdAt: 1,
        updatedAt: 1,
        messageCount: 0,
        head: null,
        options: {},
      });
      await old.close();
      // Back to version 3 as released: no memory tables.
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: postgres.url() });
      await client.connect();
      await client.query(`DROP TABLE ${prefix}memory, ${prefix}memory_heads`);
      await client.query(`UPDATE ${prefix}schema SET version = 3`);
      const store = postgresStore(postgres.url(), { tablePrefix: prefix });
      expect(await store.hasChat("m", "old")).toBe(true);
      expect((await client.query(`SELECT version FROM ${prefix}schema`)).rows).toEqual([{ version: 4 }]);
      await client.end();
      expect(await memoryStoreCases(store)).toEqual(expectedMemoryCases());
      await store.close();
    },
  );
});
