// Issue 22, item 5: one validation policy for every store. The same bad calls on the memory,
// SQLite (both durabilities) and PostgreSQL stores (the Durable Object's run in workerd:
// test/runtime/durable-object.test.ts) fail with the same codes and change nothing.
// Issue 30, item 2: every store answers the existence check, and refuses a second chat of an
// id itself with CHAT_EXISTS (10 creates at once: one made).
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Store } from "../../src/store-entry.js";
import { contractChat, contractState, existenceCases, expectedCodes, expectedExistence, runBadCalls } from "./contract-cases.js";
import { clusterForFile } from "./pg-file.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("contract");
const postgres = clusterForFile();
let n = 0;

const STORES: [string, boolean, () => Store][] = [
  ["memory", false, () => memoryStore()],
  ["sqlite, full durability", false, () => sqliteStore(file(`full-${++n}.db`))],
  ["sqlite, batched durability", false, () => sqliteStore(file(`batched-${++n}.db`), { durability: "batched" })],
  ["postgres", postgres.skip, () => postgresStore(postgres.url(), { tablePrefix: `contract${++n}_` })],
];

describe("every store refuses the same bad calls with the same codes, and changes nothing", () => {
  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(name, async () => {
      const store = make();
      await contractChat(store);
      const before = await contractState(store);
      expect(await runBadCalls(store)).toEqual(expectedCodes());
      expect(await contractState(store)).toEqual(before);
      await store.close();
    });
  }
});

describe("every store answers the existence check and refuses a second chat of an id with CHAT_EXISTS", () => {
  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(name, async () => {
      const store = make();
      await contractChat(store);
      expect(await existenceCases(store)).toEqual(expectedExistence());
      await store.close();
    });
  }
});
