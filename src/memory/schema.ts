// The JSON schemas of typed memory objects: a small subset of JSON Schema (draft 2020-12's
// keywords, the ones a model's data needs), compiled once into a check. No dependency: it runs
// wherever the core runs (Workers, Deno, browsers), and nothing is evaluated from the schema
// (no `pattern`: an application's regular expression on a model's text could be made to run for
// minutes). What it reads:
//
//   type                 "object" | "array" | "string" | "number" | "integer" | "boolean" | "null", or a list of them
//   properties, required, additionalProperties (true, false or a schema)       objects
//   items (one schema), minItems, maxItems                                     arrays
//   minLength, maxLength (in characters, code points)                          strings
//   minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers)             numbers
//   enum, const                                                                any value
//   $schema, $id, $comment, title, description, default, examples,
//   deprecated, readOnly, writeOnly                                            (read, not checked)
//
// Any other keyword ($ref, anyOf, oneOf, allOf, not, pattern, format...) makes the schema refused
// (INVALID_SCHEMA), never ignored: a schema means what it says or is not taken. The root is an object's.
import { CtxloomError, describe } from "../errors.js";
import type { JsonSchema, JsonValue } from "./types.js";

/** Checks a value: undefined when the schema admits it, else what is wrong (at its JSON Pointer). */
export type SchemaCheck = (value: JsonValue) => string | undefined;
/** A check of a value found at `where` (a JSON Pointer; "" for the root). */
type Check = (value: JsonValue, where: string) => string | undefined;

const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
type TypeName = (typeof TYPES)[number];
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const CHECKED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "enum",
  "const",
]);
/** Schemas nest at most this deep. */
const MAX_DEPTH = 32;

const refuse = (at: string, what: string): CtxloomError =>
  new CtxloomError(
    "INVALID_SCHEMA",
    `The schema does not compile: ${at || "its root"} ${what}. ctxloom reads a subset of JSON Schema (type, ` +
      `properties, required, ` +
      "additionalProperties, items, enum, const, and the size and range bounds); see docs/memory.md.",
  );

/** How a problem names the value at `where`. */
const named = (where: string) => (where === "" ? "the object" : where);

/** Compiles a typed object's schema (a JSON object describing an object). @throws INVALID_SCHEMA */
export function compileSchema(schema: unknown): SchemaCheck {
  const check = compile(schema, "", 0);
  const root = schema as JsonSchema;
  const types = typeof root.type === "string" ? [root.type] : root.type;
  if (!Array.isArray(types) || types.length !== 1 || types[0] !== "object") {
    throw refuse("", `must describe an object (type "object"): a typed memory object merges its updates by key`);
  }
  return (value) => check(value, "");
}

function compile(schema: unknown, at: string, depth: number): Check {
  if (depth > MAX_DEPTH) throw refuse(at, `nests past ${MAX_DEPTH} levels`);
  if (schema === true) return () => undefined;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    throw refuse(at, `is ${describe(schema)}, not a schema (an object)`);
  const s = schema as Record<string, unknown>;
  for (const key of Object.keys(s)) {
    if (!CHECKED.has(key) && !ANNOTATIONS.has(key))
      throw refuse(at, `uses ${JSON.stringify(key)}, which ctxloom's schemas do not read`);
  }
  const checks: Check[] = [];
  if (s.type !== undefined) {
    const types = typeof s.type === "string" ? [s.type] : s.type;
    if (!Array.isArray(types) || types.length === 0 || !types.every((t) => (TYPES as readonly unknown[]).includes(t))) {
      throw refuse(at, `has the type ${describe(s.type)}; a type is one of ${TYPES.join(", ")}, or a list of them`);
    }
    const allowed = new Set(types as TypeName[]);
    checks.push((v, where) => {
      const t = typeOf(v);
      return allowed.has(t) || (t === "integer" && allowed.has("number"))
        ? undefined
        : `${named(where)} is ${t === "integer" ? "a number" : t}, not ${[...allowed].join(" or ")}`;
    });
  }
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum) || s.enum.length === 0) throw refuse(at, "has an enum that is not a non-empty list");
    const options = s.enum.map((v) => canonical(v));
    checks.push((v, where) =>
      options.includes(canonical(v)) ? undefined : `${named(where)} is not one of ${JSON.stringify(s.enum)}`,
    );
  }
  if (s.const !== undefined) {
    const wanted = canonical(s.const);
    checks.push((v, where) =>
      canonical(v) === wanted ? undefined : `${named(where)} is not ${JSON.stringify(s.const)}`,
    );
  }
  for (const [key, test] of [
    ["minimum", (v: number, n: number) => v >= n],
    ["maximum", (v: number, n: number) => v <= n],
    ["exclusiveMinimum", (v: number, n: number) => v > n],
    ["exclusiveMaximum", (v: number, n: number) => v < n],
  ] as const) {
    const n = s[key];
    if (n === undefined) continue;
    if (typeof n !== "number" || !Number.isFinite(n)) throw refuse(at, `has a ${key} that is not a number`);
    checks.push((v, where) =>
      typeof v !== "number" || test(v, n) ? undefined : `${named(where)} (${v}) breaks ${key} ${n}`,
    );
  }
  const count = (key: string) => {
    const n = s[key];
    if (n === undefined) return undefined;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw refuse(at, `has a ${key} that is not a count`);
    return n;
  };
  const [minLength, maxLength, minItems, maxItems] = [
    count("minLength"),
    count("maxLength"),
    count("minItems"),
    count("maxItems"),
  ];
  if (minLength !== undefined || maxLength !== undefined) {
    checks.push((v, where) => {
      if (typeof v !== "string") return undefined;
      const n = [...v].length;
      if (minLength !== undefined && n < minLength)
        return `${named(where)} has ${n} characters, fewer than ${minLength}`;
      return maxLength !== undefined && n > maxLength
        ? `${named(where)} has ${n} characters, more than ${maxLength}`
        : undefined;
    });
  }
  if (minItems !== undefined || maxItems !== undefined) {
    checks.push((v, where) => {
      if (!Array.isArray(v)) return undefined;
      if (minItems !== undefined && v.length < minItems)
        return `${named(where)} has ${v.length} items, fewer than ${minItems}`;
      return maxItems !== undefined && v.length > maxItems
        ? `${named(where)} has ${v.length} items, more than ${maxItems}`
        : undefined;
    });
  }
  if (s.items !== undefined) {
    const item = compile(s.items, `${at}/items`, depth + 1);
    checks.push((v, where) => {
      if (!Array.isArray(v)) return undefined;
      for (let i = 0; i < v.length; i++) {
        const problem = item(v[i]!, `${where}/${i}`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    });
  }
  const object = objectCheck(s, at, depth);
  if (object) checks.push(object);
  return (value, where) => {
    for (const c of checks) {
      const problem = c(value, where);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** properties, required and additionalProperties, as one check (none when the schema has none of them). */
function objectCheck(s: Record<string, unknown>, at: string, depth: number): Check | undefined {
  const props = new Map<string, Check>();
  if (s.properties !== undefined) {
    if (s.properties === null || typeof s.properties !== "object" || Array.isArray(s.properties))
      throw refuse(at, "has properties that are not an object");
    for (const [name, sub] of Object.entries(s.properties))
      props.set(name, compile(sub, `${at}/properties/${escape(name)}`, depth + 1));
  }
  let required: string[] = [];
  if (s.required !== undefined) {
    if (!Array.isArray(s.required) || !s.required.every((r) => typeof r === "string"))
      throw refuse(at, "has a required that is not a list of names");
    required = s.required as string[];
  }
  let extra: Check | false | undefined;
  if (s.additionalProperties === false) extra = false;
  else if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
    extra = compile(s.additionalProperties, `${at}/additionalProperties`, depth + 1);
  }
  if (props.size === 0 && required.length === 0 && extra === undefined) return undefined;
  return (v, where) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    for (const name of required) if (!Object.hasOwn(v, name)) return `${named(where)} lacks ${JSON.stringify(name)}`;
    for (const [name, item] of Object.entries(v)) {
      const check = props.get(name) ?? extra;
      if (check === false) {
        const known = [...props.keys()].map((k) => JSON.stringify(k)).join(", ");
        return `${where}/${escape(name)} is not a property the schema allows (it allows ${known || "none"})`;
      }
      const problem = check?.(item, `${where}/${escape(name)}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A JSON value's type as the schema names it. */
function typeOf(v: JsonValue): TypeName {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as "object" | "string" | "boolean";
}

/** A value as text with its keys sorted: equal values, equal texts. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
    .join(",")}}`;
}

const escape = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");
