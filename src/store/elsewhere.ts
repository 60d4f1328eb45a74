// Which runtime this is, for the stores that run on Node only (ctxloom/sqlite: better-sqlite3
// is a native addon Node loads and nothing else does): on any other runtime, a coded error
// naming the runtime and the stores that do run there, before anything is tried.
import { CtxloomError } from "../errors.js";

/** The runtimes ctxloom knows that are not Node, and the stores that run on each. */
const STORES_THERE = {
  Deno: "the memory store (the default), ctxloom/postgres, or a Store of your own",
  "Cloudflare Workers":
    "the memory store (one per isolate), ctxloom/cloudflare (a Durable Object's SQLite storage), " +
    "or a Store of your own",
  "a browser": "the memory store (the default), or a Store of your own",
} as const;
const IN = { Deno: "on Deno", "Cloudflare Workers": "on Cloudflare Workers", "a browser": "in a browser" } as const;

export type OtherRuntime = keyof typeof STORES_THERE;

/**
 * The runtime `g` (globalThis) belongs to when it is not Node, or undefined on Node (and runtimes ctxloom does not
 * know).
 */
export function otherRuntime(g: object = globalThis): OtherRuntime | undefined {
  const r = g as {
    Deno?: { version?: { deno?: unknown } };
    navigator?: { userAgent?: unknown };
    document?: unknown;
    importScripts?: unknown;
    process?: { versions?: { node?: unknown } };
  };
  if (typeof r.Deno?.version?.deno === "string") return "Deno"; // before Node: Deno has a `process` too
  if (r.navigator?.userAgent === "Cloudflare-Workers") return "Cloudflare Workers";
  if (typeof r.process?.versions?.node === "string") return undefined;
  if (typeof r.document === "object" || typeof r.importScripts === "function") return "a browser";
  return undefined;
}

/**
 * UNSUPPORTED_RUNTIME for `entry` (a Node-only entry point) on the runtime `g`, or undefined on
 * Node. The message names the runtime and the stores that run there.
 */
export function unavailableHere(entry: "ctxloom/sqlite", g: object = globalThis): CtxloomError | undefined {
  const runtime = otherRuntime(g);
  if (runtime === undefined) return undefined;
  return new CtxloomError(
    "UNSUPPORTED_RUNTIME",
    `${entry} does not run ${IN[runtime]}: it needs better-sqlite3, a native addon that only Node loads. ` +
      `${IN[runtime][0]!.toUpperCase()}${IN[runtime].slice(1)}, use ${STORES_THERE[runtime]}.`,
  );
}
