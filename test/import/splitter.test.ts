// The streaming splitter: any JSON array or JSON Lines text, cut anywhere, gives back exactly
// its elements; broken structure is refused with IMPORT_FAILED naming the piece.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CtxloomError } from "../../src/errors.js";
import { JsonSplitter } from "../../src/import/splitter.js";

/** Splits `text` at the given cut points and returns the parsed pieces and their labels. */
function split(text: string, cuts: number[] = []): { values: unknown[]; wheres: string[] } {
  const s = new JsonSplitter();
  const pieces = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    pieces.push(...s.feed(text.slice(at, cut)));
    at = cut;
  }
  pieces.push(...s.feed(text.slice(at)), ...s.end());
  return { values: pieces.map((p) => JSON.parse(p.text)), wheres: pieces.map((p) => p.where) };
}

function failure(text: string): CtxloomError {
  try {
    split(text);
  } catch (e) {
    expect(e).toBeInstanceOf(CtxloomError);
    expect((e as CtxloomError).code).toBe("IMPORT_FAILED");
    return e as CtxloomError;
  }
  throw new Error(`no failure for ${text}`);
}

const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('"', "\\", '\\"', "[", "]", "{", "}", ",", "\n", "\u2028", "é", "😀"),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie("value"), { maxKeys: 4 }),
})).value;

describe("JsonSplitter", () => {
  it("gives back the elements of any array, cut anywhere, pretty-printed or not", () => {
    fc.assert(
      fc.property(
        fc.array(jsonValue, { maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        (elements, pretty, rawCuts) => {
          const text = JSON.stringify(elements, null, pretty ? 2 : undefined);
          const cuts = rawCuts.map((c) => c % (text.length + 1));
          const { values, wheres } = split(text, cuts);
          expect(values).toEqual(JSON.parse(text));
          expect(wheres).toEqual(elements.map((_, i) => `conversation ${i + 1}`));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("gives back the values of JSON Lines, labelled by line", () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(tricky, jsonValue, { maxKeys: 3 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (objects, rawCuts) => {
          const text = objects.map((o) => JSON.stringify(o)).join("\n") + "\n";
          const { values, wheres } = split(
            text,
            rawCuts.map((c) => c % (text.length + 1)),
          );
          // JSON cannot carry -0: compare with what each line says, not with the generated objects.
          expect(values).toEqual(objects.map((o) => JSON.parse(JSON.stringify(o))));
          expect(wheres).toEqual(objects.map((_, i) => `line ${i + 1}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads bare scalars and a single object", () => {
    expect(split('[1, "a]", true ,null,[2]]').values).toEqual([1, "a]", true, null, [2]]);
    expect(split('\uFEFF {"a": [1, {"b": "}"}]}').values).toEqual([{ a: [1, { b: "}" }] }]);
    expect(split("[]").values).toEqual([]);
  });

  it("refuses broken structure, naming where", () => {
    expect(failure('[{"a": 1}, {"b": 2').message).toMatch(
      /^conversation 2: the file ends inside it \(truncated JSON\?\)/,
    );
    expect(failure('[{"a": 1}').message).toMatch(/^the file: it ends before the top-level array's closing bracket/);
    expect(failure('[{"a": "x}').message).toMatch(/^conversation 1: the file ends inside it/);
    expect(failure('[{"a": [1}]').message).toMatch(/^conversation 1: a \} that closes a \[ at character 10/);
    expect(failure('[{"a": 1} {"b": 2}]').message).toMatch(/^conversation 2: a missing comma between conversations/);
    expect(failure('[{"a": 1},, {"b": 2}]').message).toMatch(/a comma where a conversation should be at character 11/);
    expect(failure('[{"a": 1},]').message).toMatch(/a comma before the closing bracket/);
    expect(failure('[{"a": 1}] x').message).toMatch(
      /^the file: text after the end of the top-level array at character 12/,
    );
    expect(failure("   ").message).toMatch(/^the file: it is empty/);
    expect(failure('{"a": 1}\n}').message).toMatch(/an unexpected \}/);
    expect(failure("").message).toMatch(/Nothing was imported/);
  });
});
