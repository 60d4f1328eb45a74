// The pg package and its pools for the PostgreSQL store: pg loaded on first use (an optional
// peer dependency), a Pool told from a connection string, and the string shown without its password.
import type { Pool } from "pg";
import { CtxloomError } from "../errors.js";

/** pg, loaded on first use. @throws STORE_FAILED when it is not installed */
export async function loadPg(): Promise<typeof import("pg")> {
  try {
    const mod = (await import("pg")) as typeof import("pg") & { default?: typeof import("pg") };
    return mod.default ?? mod;
  } catch (cause) {
    throw new CtxloomError("STORE_FAILED", "ctxloom/postgres needs the pg package: run `npm install pg`.", { cause });
  }
}

export function isPool(value: unknown): value is Pool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Pool).query === "function" &&
    typeof (value as Pool).connect === "function"
  );
}

/** The connection string without its password, for names and messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
