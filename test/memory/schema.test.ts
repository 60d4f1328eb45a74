// Issue 34, item 1: the JSON Schema subset of typed memory objects (src/memory/schema.ts): what
// each keyword admits and refuses, and every keyword outside the subset refused at compile time
// (INVALID_SCHEMA), never ignored. And JSON Merge Patch with the key paths two updates touch.
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/memory/schema.js";
import { carryOver, changedPaths, mergePatch, overlap, patchPaths } from "../../src/memory/patch.js";

const object = (properties: object, more: object = {}) => ({ type: "object", properties, ...more });
const check = (schema: object, value: unknown) => compileSchema(schema)(value as never);

describe("the schema subset", () => {
  it("each keyword admits what it says and refuses the rest, naming where", () => {
    const s = object(
      {
        name: { type: "string", minLength: 1, maxLength: 3 },
        n: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
        x: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        tags: { type: "array", items: { enum: ["a", "b"] }, minItems: 1, maxItems: 2 },
        kind: { const: "k" },
        opt: { type: ["string", "null"] },
        nested: {
          type: "object",
          properties: { ok: { type: "boolean" } },
          required: ["ok"],
          additionalProperties: false,
        },
      },
      { required: ["name"], additionalProperties: { type: "string" } },
    );
    expect(
      check(s, { name: "Ann", n: 9, x: 1, tags: ["a", "b"], kind: "k", opt: null, nested: { ok: true }, extra: "s" }),
    ).toBeUndefined();
    expect(check(s, { name: "🦜🦜🦜" })).toBeUndefined(); // characters, not UTF-16 units
    const problems = [
      check(s, {}),
      check(s, { name: "" }),
      check(s, { name: "Anna" }),
      check(s, { name: "A", n: 1.5 }),
      check(s, { name: "A", n: 10 }),
      check(s, { name: "A", x: 0 }),
      check(s, { name: "A", tags: [] }),
      check(s, { name: "A", tags: ["c"] }),
      check(s, { name: "A", kind: "q" }),
      check(s, { name: "A", opt: 1 }),
      check(s, { name: "A", nested: {} }),
      check(s, { name: "A", nested: { ok: true, more: 1 } }),
      check(s, { name: "A", extra: 1 }),
      check(s, []),
    ];
    expect(problems).toEqual([
      'the object lacks "name"',
      "/name has 0 characters, fewer than 1",
      "/name has 4 characters, more than 3",
      "/n is number, not integer",
      "/n (10) breaks exclusiveMaximum 10",
      "/x (0) breaks exclusiveMinimum 0",
      "/tags has 0 items, fewer than 1",
      '/tags/0 is not one of ["a","b"]',
      '/kind is not "k"',
      "/opt is a number, not string or null",
      '/nested lacks "ok"',
      '/nested/more is not a property the schema allows (it allows "ok")',
      "/extra is a number, not string",
      "the object is array, not object",
    ]);
  });

  it.each([
    ["$ref", { $ref: "#/x" }],
    ["anyOf", { anyOf: [] }],
    ["oneOf", { oneOf: [] }],
    ["allOf", { allOf: [] }],
    ["not", { not: {} }],
    ["pattern", { properties: { a: { pattern: "^(a+)+$" } } }],
    ["format", { properties: { a: { format: "email" } } }],
    ["patternProperties", { patternProperties: {} }],
    ["if", { if: {} }],
    ["a misspelling", { propertys: {} }],
  ])("a schema with %s is refused at compile time", (_, extra) => {
    expect(() => compileSchema({ type: "object", ...extra })).toThrow(
      expect.objectContaining({ code: "INVALID_SCHEMA" }),
    );
  });

  it.each([
    ["a root that is no object's", { type: "string" }],
    ["no type at the root", { properties: {} }],
    ["a type list at the root", { type: ["object", "null"] }],
    ["an unknown type", { type: "object", properties: { a: { type: "date" } } }],
    ["an empty enum", { type: "object", properties: { a: { enum: [] } } }],
    ["a bound not a number", { type: "object", properties: { a: { minimum: "1" } } }],
    ["a negative length", { type: "object", properties: { a: { maxLength: -1 } } }],
    ["required not names", { type: "object", required: [1] }],
    ["properties not an object", { type: "object", properties: [] }],
    ["a schema not an object", { type: "object", properties: { a: 5 } }],
    ["nesting past 32 levels", nest(40)],
  ])("%s is refused", (_, schema) => {
    expect(() => compileSchema(schema)).toThrow(expect.objectContaining({ code: "INVALID_SCHEMA" }));
  });

  it("annotations are read, not checked", () => {
    expect(
      check(
        {
          type: "object",
          title: "t",
          description: "d",
          default: {},
          examples: [],
          $schema: "x",
          $id: "y",
          $comment: "z",
        },
        {},
      ),
    ).toBeUndefined();
  });
});

function nest(depth: number): object {
  let s: object = { type: "string" };
  for (let i = 0; i < depth; i++) s = { type: "object", properties: { a: s } };
  return s;
}

describe("merges by key", () => {
  it("JSON Merge Patch, and the key paths an update touches", () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: null, b: { c: 5 }, e: [1] })).toEqual({
      b: { c: 5, d: 3 },
      e: [1],
    });
    expect(patchPaths({ a: null, b: { c: 5 }, e: {} })).toEqual([["a"], ["b", "c"], ["e"]]);
    expect(changedPaths({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 }, d: null })).toEqual([["b", "c"], ["d"]]);
    expect(overlap([["b", "c"]], [["b"]])).toEqual(["b", "c"]);
    expect(overlap([["b", "c"]], [["b", "d"], ["a"]])).toBeUndefined();
    // A whole object written on an older revision keeps what others changed since, and nulls it sets.
    expect(carryOver({ a: 1, b: 2 }, { a: 0, b: 0 }, { a: 0, b: null })).toEqual({ a: 1, b: null });
  });
});
