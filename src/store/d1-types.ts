// The part of Cloudflare D1's API the D1 store uses (a binding's D1Database), and the store's
// view of it: statements by their text, rows as arrays, batches with their changes.

/** A D1 prepared statement (`env.DB.prepare(sql)`), as far as the store uses it. */
export interface D1PreparedStatementLike {
  /** The statement with these values for its parameters. */
  bind(...values: unknown[]): D1PreparedStatementLike;
  /** Every row, as arrays of values. */
  raw(): Promise<unknown[][]>;
}

/** What D1 answers for each statement of a batch. */
export interface D1ResultLike {
  /** The rows a statement read, as objects by column name. */
  results?: Record<string, unknown>[];
  /** How many rows a statement changed. */
  meta: { changes?: number };
}

/** A D1 database binding (`env.DB`), as far as the store uses it. */
export interface D1DatabaseLike {
  /** A statement by its text. */
  prepare(query: string): D1PreparedStatementLike;
  /** The statements in one transaction, in order: all or nothing. */
  batch(statements: D1PreparedStatementLike[]): Promise<D1ResultLike[]>;
}

/** A statement and its values. */
export interface D1Call {
  sql: string;
  params: unknown[];
}

/** The store's view of D1 (its failures as D1 throws them: the store words them, sql-errors.ts). */
export interface D1Batch {
  /** Every row of one read, as arrays. */
  rows(sql: string, params: unknown[]): Promise<unknown[][]>;
  /** The statements in one batch (one transaction); the rows of each. */
  batch(calls: D1Call[]): Promise<unknown[][][]>;
  /** The same, with each statement's count of rows changed. */
  batchWith(calls: D1Call[]): Promise<{ rows: unknown[][]; changes: number }[]>;
}

/** Arrays of a batch's rows: D1 answers objects, whose keys keep the columns' order (none is a number). */
const arrays = (r: D1ResultLike): unknown[][] => (r.results ?? []).map((row) => Object.values(row));

/** The store's view of `db`. */
export function d1Batch(db: D1DatabaseLike): D1Batch {
  const prepared = (calls: D1Call[]) => calls.map((c) => db.prepare(c.sql).bind(...c.params));
  return {
    rows: (sql, params) =>
      db
        .prepare(sql)
        .bind(...params)
        .raw(),
    batch: async (calls) => (await db.batch(prepared(calls))).map(arrays),
    batchWith: async (calls) =>
      (await db.batch(prepared(calls))).map((r) => ({ rows: arrays(r), changes: r.meta.changes ?? 0 })),
  };
}
