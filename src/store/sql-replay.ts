// The kit's schema steps (sql-schema.ts) are synchronous code over a connection; D1 answers
// with promises. So they run here again and again: each read they make is answered from what an
// earlier run read (a read not made yet is made, and the run starts over), their writes are
// gathered, and sent together in one batch (one transaction) when they end or read after
// writing; then they run once more on what the database now holds. The same steps, the same
// checks: a D1 database is migrated by exactly what migrates a file and a Durable Object.
import type { SchemaConnection } from "./sql-schema.js";

/** A statement and its values. */
export interface Written {
  sql: string;
  params: unknown[];
}

/** What the replay needs of an asynchronous database. */
export interface AsyncSql {
  /** Every row of a read, as arrays of values. */
  read(sql: string, params: unknown[]): Promise<unknown[][]>;
  /** The statements in one transaction, all or nothing. */
  write(statements: Written[]): Promise<void>;
}

/** Thrown inside a run to stop it (a read to make, or writes to send). */
const STOP = Symbol("stop");
/** Runs at most: a migration reads a few things, writes once, and checks. */
const MAX_RUNS = 64;

/** Statements of a text separated by semicolons (the schema's texts hold none in a string). */
export function statementsOf(sql: string): string[] {
  return sql
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Runs `fn` on `db` as described above and returns what its last run returned. `fn` must be a
 * function of what it reads (the kit's migration is). Writes that fail (another Worker migrated
 * meanwhile: a table exists, a version row is taken) are followed by a run on what is there now;
 * a third failure in a row is thrown.
 */
export async function replay<T>(db: AsyncSql, fn: (conn: SchemaConnection) => T): Promise<T> {
  const reads = new Map<string, unknown[][]>();
  let failures = 0;
  for (let run = 0; run < MAX_RUNS; run++) {
    const writes: Written[] = [];
    let missing: Written | undefined;
    const read = (sql: string, params: unknown[]): unknown[][] => {
      if (writes.length > 0) throw STOP; // what it reads next depends on the writes: send them first
      const rows = reads.get(keyOf(sql, params));
      if (rows === undefined) {
        missing = { sql, params };
        throw STOP;
      }
      return rows;
    };
    const conn: SchemaConnection = {
      get: (sql, ...params) => read(sql, params)[0],
      all: (sql, ...params) => read(sql, params),
      run: (sql, ...params) => void writes.push({ sql, params }),
      exec: (sql) => void writes.push(...statementsOf(sql).map((s) => ({ sql: s, params: [] }))),
    };
    let result: T | undefined;
    let stopped = false;
    try {
      result = fn(conn);
    } catch (error) {
      if (error !== STOP) throw error;
      stopped = true;
    }
    if (missing) {
      reads.set(keyOf(missing.sql, missing.params), await db.read(missing.sql, missing.params));
      continue;
    }
    if (!stopped && writes.length === 0) return result as T;
    try {
      await db.write(writes);
      failures = 0;
    } catch (error) {
      if (++failures >= 3) throw error;
    }
    reads.clear(); // the database changed (here, or by another Worker): read it again
  }
  throw new Error(`the schema steps did not settle after ${MAX_RUNS} runs`);
}

const keyOf = (sql: string, params: unknown[]): string => `${sql}\u0000${JSON.stringify(params)}`;
