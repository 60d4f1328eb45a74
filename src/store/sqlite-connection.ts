// The kit's connection (sql-connection.ts) over a better-sqlite3 database: each statement
// prepared once, rows read as arrays (no object per row from the driver).
import type { SqlConnection } from "./sql-connection.js";
import type { SqliteDatabase, SqliteStatement } from "./sqlite-driver.js";

export function sqliteConnection(db: SqliteDatabase): SqlConnection {
  const rows = new Map<string, SqliteStatement>();
  const values = new Map<string, SqliteStatement>();
  const writes = new Map<string, SqliteStatement>();
  const reader = (sql: string): SqliteStatement => {
    let s = rows.get(sql);
    if (!s) rows.set(sql, (s = db.prepare(sql).raw()));
    return s;
  };
  return {
    all: (sql, ...params) => reader(sql).all(...params) as unknown[][],
    get: (sql, ...params) => reader(sql).get(...params) as unknown[] | undefined,
    column(sql, ...params) {
      let s = values.get(sql);
      if (!s) values.set(sql, (s = db.prepare(sql).pluck()));
      return s.all(...params);
    },
    run(sql, ...params) {
      let s = writes.get(sql);
      if (!s) writes.set(sql, (s = db.prepare(sql)));
      s.run(...params);
    },
    exec(sql) {
      db.exec(sql);
    },
  };
}
