// Updates of typed objects: JSON Merge Patch (RFC 7396: a key set to a value replaces it, an
// object merges into an object, null removes the key), and what makes two updates safe to merge:
// the keys each changes are disjoint (no key path of one is a key path of the other or under it).
import type { JsonObject, JsonValue } from "./types.js";

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** `target` with `patch` merged in (RFC 7396); neither is changed. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** The key paths a patch changes: a nested object's keys; any other value (null included) its own key. */
export function patchPaths(patch: JsonObject, prefix: string[] = [], out: string[][] = []): string[][] {
  for (const [key, value] of Object.entries(patch)) {
    const path = [...prefix, key];
    if (isObject(value) && Object.keys(value).length > 0) patchPaths(value, path, out);
    else out.push(path);
  }
  return out;
}

/** The key paths where `a` and `b` differ (objects compared key by key, anything else whole). */
export function changedPaths(
  a: JsonValue | undefined,
  b: JsonValue | undefined,
  prefix: string[] = [],
  out: string[][] = [],
): string[][] {
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      changedPaths(a[key], b[key], [...prefix, key], out);
  } else if (!same(a, b)) {
    out.push(prefix);
  }
  return out;
}

/** The first path of `mine` that meets one of `theirs` (equal, or one under the other), or undefined. */
export function overlap(mine: readonly string[][], theirs: readonly string[][]): string[] | undefined {
  const under = (p: readonly string[], q: readonly string[]) => p.length <= q.length && p.every((k, i) => k === q[i]);
  return mine.find((p) => theirs.some((q) => under(p, q) || under(q, p)));
}

/**
 * `target` with what `from` -> `to` changed carried over: each key path where they differ takes
 * `to`'s value there (or loses the key when `to` lacks it). A write of a whole object made on an
 * older revision, merged over keys others changed since.
 */
export function carryOver(target: JsonObject, from: JsonObject, to: JsonObject): JsonObject {
  const out = structuredClone(target);
  for (const path of changedPaths(from, to)) {
    let inTo: JsonValue | undefined = to;
    for (const key of path) inTo = isObject(inTo) ? inTo[key] : undefined;
    let node: JsonObject = out;
    for (const key of path.slice(0, -1)) {
      if (!isObject(node[key])) node[key] = {};
      node = node[key] as JsonObject;
    }
    const last = path[path.length - 1]!;
    if (inTo === undefined) delete node[last];
    else node[last] = structuredClone(inTo);
  }
  return out;
}

/** Deep equality of JSON values (key order aside). */
export function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}
