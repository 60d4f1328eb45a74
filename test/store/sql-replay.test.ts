// Issue 35, item 1: D1 is migrated by the kit's own schema steps (sql-schema.ts), replayed over an
// asynchronous database (sql-replay.ts). Here over better-sqlite3 behind promises: the layout a
// file of its own gets, the writes in one transaction, and two migrations racing (as two Workers
// starting at once): one makes the tables, the other finds them.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { replay, type AsyncSql } from "../../src/store/sql-replay.js";
import { SCHEMA_VERSION, migrate, type SchemaNames } from "../../src/store/sql-schema.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("replay");
const names: SchemaNames = { prefix: "p_", versions: "p_schema" };

/** A database behind promises (each call a turn later), counting the batches written. */
function asyncOf(db: Database.Database): AsyncSql & { batches: number } {
  const later = () => new Promise((resolve) => setTimeout(resolve, 1));
  const out = {
    batches: 0,
    async read(sql: string, params: unknown[]) {
      await later();
      return db
        .prepare(sql)
        .raw()
        .all(...params) as unknown[][];
    },
    async write(statements: { sql: string; params: unknown[] }[]) {
      await later();
      db.transaction(() => {
        for (const s of statements) db.prepare(s.sql).run(...s.params);
      })();
      out.batches++;
    },
  };
  return out;
}

const problem = (what: string) => new Error(what);
const run = (sql: AsyncSql) =>
  replay(sql, (conn) =>
    migrate(
      conn,
      names,
      (fn) => fn(),
      () => {
        throw problem("legacy");
      },
      problem,
    ),
  );

describe("the kit's migration replayed over an asynchronous database", () => {
  it("makes the schema in one batch (its last run finds it made); a second migration writes nothing", async () => {
    const db = new Database(file("one.db"));
    const sql = asyncOf(db);
    expect(await run(sql)).toBe(SCHEMA_VERSION);
    expect(sql.batches).toBe(1);
    expect(db.prepare("SELECT version FROM p_schema").raw().all()).toEqual([[SCHEMA_VERSION]]);
    expect(await run(sql)).toBe(SCHEMA_VERSION);
    expect(sql.batches).toBe(1);
    db.close();
  });

  it("two migrations racing: both end with the schema made once, one version row", async () => {
    const db = new Database(file("race.db"));
    const [a, b] = [asyncOf(db), asyncOf(db)];
    expect(await Promise.all([run(a), run(b)])).toEqual([SCHEMA_VERSION, SCHEMA_VERSION]);
    expect(a.batches + b.batches).toBe(1);
    expect(db.prepare("SELECT count(*) FROM p_schema").raw().get()).toEqual([1]);
    db.close();
  });

  it("a database it cannot read (a newer version) is refused, and nothing is written", async () => {
    const db = new Database(file("newer.db"));
    db.exec(
      `CREATE TABLE p_schema (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL); INSERT INTO p_schema VALUES (${SCHEMA_VERSION + 1}, 0)`,
    );
    const sql = asyncOf(db);
    await expect(run(sql)).rejects.toThrow(/newer ctxloom/);
    expect(sql.batches).toBe(0);
    db.close();
  });
});
