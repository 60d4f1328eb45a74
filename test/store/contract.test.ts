// The store contract (ctxloom/store/contract, src/store/contract.ts) on the built-in stores: the
// memory, SQLite (both durabilities) and PostgreSQL stores here; the Durable Object's and D1 in
// workerd (test/runtime/durable-object.test.ts, d1.test.ts), IndexedDB in Chromium
// (test/runtime/browser-store.test.ts). Each case on a store of its own.
import { describe, expect, it, test } from "vitest";
import { memoryStore } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { storeContract } from "../../src/store-contract.js";
import type { Store } from "../../src/store-entry.js";
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

for (const [name, skip, make] of STORES) {
  describe.skipIf(skip)(`the store contract: ${name}`, () => {
    for (const c of storeContract(make)) test(c.name, c.run);
  });
}

describe("the contract itself", () => {
  it("holds 31 cases or more, each of a name of its own", () => {
    const names = storeContract(memoryStore).map((c) => c.name);
    expect(names.length).toBeGreaterThanOrEqual(31);
    expect(new Set(names).size).toBe(names.length);
  });

  it("fails a store that answers otherwise, saying what it answered", async () => {
    // A memory store whose listChats forgets the order, and one that does not check a role.
    const unordered = (): Store => {
      const store = memoryStore();
      const list = store.listChats.bind(store);
      return Object.assign(store, {
        listChats: async (...args: Parameters<Store["listChats"]>) => [...(await list(...args))].reverse(),
      });
    };
    const listing = storeContract(unordered).find((c) => c.name.startsWith("listChats:"))!;
    await expect(listing.run()).rejects.toThrow(/all: expected \["d","c","b","a","e"\], got \["e","a","b","c","d"\]/);
    const lax = (): Store => {
      const store = memoryStore();
      const append = store.appendMessage.bind(store);
      return Object.assign(store, {
        appendMessage: (request: Parameters<Store["appendMessage"]>[0]) =>
          append({ ...request, message: { ...request.message, role: "user" } }),
      });
    };
    const appending = storeContract(lax).find((c) => c.name.startsWith("append:"))!;
    await expect(appending.run()).rejects.toThrow(/append: a role: expected "INVALID_ROLE", got "none"/);
  });

  it("leaves out the cases of the optional methods a store has not, and says which one a store lacks", async () => {
    const all = storeContract(memoryStore);
    const without = storeContract(memoryStore, { without: ["redactMessages", "loadMemory"] });
    expect(all.length - without.length).toBe(
      all.filter((c) => c.uses.includes("redactMessages") || c.uses.includes("loadMemory")).length,
    );
    expect(without.every((c) => !c.uses.includes("redactMessages") && !c.uses.includes("loadMemory"))).toBe(true);
    const bare = () => Object.assign(memoryStore(), { redactMessages: undefined });
    await expect(
      storeContract(bare)
        .find((c) => c.uses.includes("redactMessages"))!
        .run(),
    ).rejects.toThrow(/no redactMessages/);
    for (const c of storeContract(memoryStore, { without: ["redactMessages", "eraseUser", "pruneChats", ...MEMORY] }))
      await c.run();
  });

  it("refuses a bad call with INVALID_ARGUMENT", () => {
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => storeContract(null as never));
    bad(() => storeContract(memoryStore, { withot: [] } as never));
    bad(() => storeContract(memoryStore, { without: ["appendMessage"] as never }));
    bad(() => storeContract(memoryStore, null as never));
  });
});

const MEMORY = ["loadMemory", "loadMemoryHistory", "writeMemory", "deleteMemory"] as const;
