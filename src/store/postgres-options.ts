// The options of the PostgreSQL store (postgresStore): what they are, and the one check of them
// and of its target (a connection string or a pg Pool) before anything connects.
import type { Pool } from "pg";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { isPool } from "./postgres-pool.js";
import type { Durability } from "./types.js";

/** Options of `postgresStore()`. */
export interface PostgresStoreOptions {
  /**
   * "full" (default): an append resolves after PostgreSQL has flushed its commit.
   * "batched": commits are acknowledged before the flush (`synchronous_commit = off`):
   * a crash of the database server may lose the last few hundred milliseconds of
   * acknowledged appends, never reorder or renumber them. Only for a connection string:
   * a pool you pass keeps its own setting.
   */
  durability?: Durability;
  /** Prefix of the table names; default "ctxloom_". Letters, digits and underscores. */
  tablePrefix?: string;
  /** For a connection string: the pool's size (default 10). */
  max?: number;
  /** For a connection string: each query's time limit in ms (default 30,000). */
  queryTimeoutMs?: number;
}

const KEYS = ["durability", "tablePrefix", "max", "queryTimeoutMs"] as const;

/**
 * The options of postgresStore(target, options), checked with its target; `prefix` is the table
 * prefix they name (default "ctxloom_").
 * @throws INVALID_ARGUMENT for a target that is neither a connection string nor a Pool, or a bad option
 */
export function checkPostgresOptions(
  target: string | Pool,
  options: PostgresStoreOptions | undefined,
): PostgresStoreOptions & { prefix: string } {
  const o = checkOptions<PostgresStoreOptions>(options, "postgresStore(options)", KEYS);
  if (typeof target !== "string" && !isPool(target)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `postgresStore takes a connection string ("postgres://user@host/db") or a pg Pool; got ${describe(target)}.`,
    );
  }
  if (typeof target === "string" && !/^\s*(postgres(ql)?:\/\/|socket:)|=/.test(target)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `postgresStore takes a connection string such as "postgres://user:password@host:5432/db" (or "host=... ` +
        `dbname=..."), or a pg Pool; got ${describe(target)}.`,
    );
  }
  if (o.durability !== undefined && o.durability !== "full" && o.durability !== "batched") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `durability must be "full" or "batched"; got ${describe(o.durability)}.`,
    );
  }
  if (o.durability === "batched" && typeof target !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `durability "batched" needs a connection string; for your own Pool, set synchronous_commit on its connections.`,
    );
  }
  const prefix = o.tablePrefix ?? "ctxloom_";
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(prefix)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `tablePrefix must be letters, digits and underscores (at most 41); got ${describe(prefix)}.`,
    );
  }
  for (const key of ["max", "queryTimeoutMs"] as const) {
    const v = o[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1))
      throw new CtxloomError("INVALID_ARGUMENT", `${key} must be a positive integer; got ${describe(v)}.`);
  }
  return { ...o, prefix };
}
