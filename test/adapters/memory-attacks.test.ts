// Issue 34, item 3 (goal): Anthropic's memory tool refuses every path-traversal and size attack
// of test/adapters/memory-attack-cases.ts (68) with its code, writing nothing: on the memory,
// SQLite (its memory table read too) and PostgreSQL stores; the Durable Object's in workerd
// (test/runtime/durable-object.test.ts).
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore, type SqliteStore } from "../../src/sqlite.js";
import { clusterForFile } from "../store/pg-file.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { ATTACKS, attackCases, expectedAttacks } from "./memory-attack-cases.js";

const file = tempFolder("memory-attacks");
const postgres = clusterForFile();
let n = 0;

const STORES: [string, boolean, () => Store][] = [
  ["memory", false, () => memoryStore()],
  ["sqlite", false, () => sqliteStore(file(`attacks-${++n}.db`))],
  ["postgres", postgres.skip, () => postgresStore(postgres.url(), { tablePrefix: `attacks${++n}_` })],
];

describe("Anthropic's memory tool refuses every path-traversal and size attack, writing nothing", () => {
  it("the list holds at least 50 attacks", () => expect(ATTACKS.length).toBeGreaterThanOrEqual(50));

  for (const [name, skip, make] of STORES) {
    it.skipIf(skip)(
      name,
      async () => {
        const store = make();
        const loom = await Loom.open({ store, counter: "heuristic" });
        const db = (store as SqliteStore).database;
        const rows = () =>
          db ? db.prepare("SELECT user, scope, revision, path, content FROM memory ORDER BY 1, 2, 3, 4").all() : null;
        expect(await attackCases(loom, rows)).toEqual(expectedAttacks());
        await loom.close();
      },
      60_000,
    );
  }
});
