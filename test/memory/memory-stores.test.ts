// Issue 34, items 1, 2 and 4 through the public API on every store (the Durable Object's in
// workerd: test/runtime/durable-object.test.ts) and both engines: test/memory/memory-cases.ts
// and test/memory/context-cases.ts answer the same everywhere.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { ENGINES } from "../helpers.js";
import { clusterForFile } from "../store/pg-file.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { expectedMemoryContext, memoryContextCases } from "./context-cases.js";
import { expectedMemoryApi, expectedMemoryBad, memoryApiCases, memoryBadCases } from "./memory-cases.js";

const file = tempFolder("memory-api");
const postgres = clusterForFile();
let n = 0;

const STORES: [string, boolean, () => Store][] = [
  ["memory", false, () => memoryStore()],
  ["sqlite", false, () => sqliteStore(file(`api-${++n}.db`))],
  ["postgres", postgres.skip, () => postgresStore(postgres.url(), { tablePrefix: `api${++n}_` })],
];

describe.each(ENGINES)("a user's working memory (%s engine)", (engine) => {
  for (const [name, skip, make] of STORES) {
    describe(name, () => {
      it.skipIf(skip)("revisions, merges, conflicts, a chat's own memory, exports and imports", async () => {
        const loom = await Loom.open({ engine, store: make(), counter: "heuristic" });
        expect(await memoryApiCases(loom, "alice")).toEqual(expectedMemoryApi("alice"));
        await loom.close();
      });

      it.skipIf(skip)(
        "bad calls refused with their codes, nothing changed",
        async () => {
          const loom = await Loom.open({ engine, store: make(), counter: "heuristic" });
          expect(await memoryBadCases(loom, "bob")).toEqual(expectedMemoryBad());
          await loom.close();
        },
        60_000,
      );

      it.skipIf(skip)(
        "every context carries it, counted and cut as buildContext({ memory }), its revision said",
        async () => {
          const loom = await Loom.open({ engine, store: make() });
          expect(await memoryContextCases(loom, "carol")).toEqual(expectedMemoryContext());
          await loom.close();
        },
        60_000,
      );
    });
  }
});
