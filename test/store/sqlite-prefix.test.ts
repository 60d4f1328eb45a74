// Issue 33: sqliteStore's tablePrefix, as PostgreSQL's and D1's: several stores in one file,
// each with chats of its own, every table and index named with its prefix; a bad prefix refused
// as theirs are, nothing created.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { storeContract } from "../../src/store-contract.js";
import { record, message, tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("sqlite-prefix");

describe("sqliteStore({ tablePrefix })", () => {
  it("two prefixes and none in one file keep separate chats, each table and index named with its prefix", async () => {
    const path = file("shared.db");
    const plain = sqliteStore(path);
    const a = sqliteStore(path, { tablePrefix: "a_" });
    const b = sqliteStore(path, { tablePrefix: "b_", durability: "batched" });
    for (const [store, title] of [
      [plain, "plain"],
      [a, "a"],
      [b, "b"],
    ] as const) {
      await store.createChat(record({ id: "c1", userId: "u", title }));
      await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id: 0, parentId: null, content: `said in ${title}` }),
        head: 0,
        updatedAt: 5,
      });
    }
    await b.createChat(record({ id: "only-b", userId: "u" }));
    const seen = async (store: typeof a) => [
      (await store.loadChat("u", "c1"))!.messages.map((m) => m.content),
      (await store.listChats("u")).map((c) => c.id),
    ];
    expect(await seen(plain)).toEqual([["said in plain"], ["c1"]]);
    expect(await seen(a)).toEqual([["said in a"], ["c1"]]);
    expect(await seen(b)).toEqual([["said in b"], ["c1", "only-b"]]);
    await Promise.all([plain.close(), a.close(), b.close()]);

    const raw = new Database(path, { readonly: true });
    const names = raw
      .prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    raw.close();
    const plainNames = names.filter((n) => !n.startsWith("a_") && !n.startsWith("b_"));
    expect(plainNames.length).toBeGreaterThan(5);
    // Every table and index of the plain store has its twin under each prefix, and nothing else is there.
    const twins = (p: string) => plainNames.map((n) => (n === "ctxloom_schema" ? `${p}schema` : `${p}${n}`)).sort();
    expect(names.filter((n) => n.startsWith("a_")).sort()).toEqual(twins("a_"));
    expect(names.filter((n) => n.startsWith("b_")).sort()).toEqual(twins("b_"));

    // Reopened through Looms: each prefix's chats, as written.
    const loom = await Loom.open({ store: sqliteStore(path, { tablePrefix: "b_" }), counter: "heuristic" });
    expect((await loom.user("u").list()).map((c) => c.id)).toEqual(["c1", "only-b"]);
    await loom.close();
  });

  it("a file holding only a prefix's tables opens without one too (they are ctxloom's)", async () => {
    const path = file("prefixed-first.db");
    await sqliteStore(path, { tablePrefix: "p_" }).close();
    const plain = sqliteStore(path);
    expect(await plain.listChats("u")).toEqual([]);
    await plain.close();
  });

  it("passes the store contract with a prefix", async () => {
    const path = file("contract.db");
    let n = 0;
    for (const c of storeContract(() => sqliteStore(path, { tablePrefix: `t${++n}_` }))) await c.run();
  });

  it("refuses a bad prefix as PostgreSQL and D1 do, creating nothing", () => {
    const path = file("refused.db");
    for (const bad of ["", "a-b", "1a", "a b", "x".repeat(42), 7, null]) {
      expect(() => sqliteStore(path, { tablePrefix: bad as never }), String(bad)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
    expect(existsSync(path)).toBe(false);
  });
});
