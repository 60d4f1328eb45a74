// A typed document's value as the memory takes it (memory.write, update's patch): a JSON object,
// checked to be plain JSON (no undefined, functions, NaN, cycles or class instances) and copied.
import { CtxloomError, describe } from "../errors.js";
import type { JsonObject } from "./types.js";

/**
 * A JSON object, checked to be one (no undefined, functions, NaN, cycles or class instances), copied. @throws
 * INVALID_ARGUMENT
 */
export function jsonObject(value: unknown, what: string): JsonObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a JSON object; got ${describe(value)}.`);
  }
  const problem = notJson(value, new Set(), what);
  if (problem) throw new CtxloomError("INVALID_ARGUMENT", `${what} must be JSON: ${problem}.`);
  return structuredClone(value) as JsonObject;
}

/** Where `v` (at `at`) is not JSON, or undefined when it is. */
function notJson(v: unknown, seen: Set<unknown>, at: string): string | undefined {
  if (v === null || typeof v === "string" || typeof v === "boolean") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? undefined : `${at} is ${v}`;
  if (typeof v !== "object") return `${at} is ${typeof v}`;
  if (seen.has(v)) return `${at} refers back to itself`;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return `${at} is not a plain object`;
  seen.add(v);
  for (const [k, x] of Object.entries(v)) {
    const problem = notJson(x, seen, Array.isArray(v) ? `${at}[${k}]` : `${at}.${k}`);
    if (problem) return problem;
  }
  seen.delete(v);
  return undefined;
}
