// The terms of recall's lexical channel (src/recall/lexical-terms.ts): words, stop words,
// stemming, hashing to u32, counting, and the options' refusals.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lexicalTerms, lexicalWords, termHash } from "../../src/recall/lexical-terms.js";
import { expectThrowCode } from "../helpers.js";

describe("lexical words", () => {
  it("lowercase runs of Unicode letters and digits; stop words out by default", () => {
    expect(lexicalWords("Hey Mel! I'm in Kraków, 2023's été.", { stem: "none", stopWords: false })).toEqual([
      "hey",
      "mel",
      "i",
      "m",
      "in",
      "kraków",
      "2023",
      "s",
      "été",
    ]);
    expect(lexicalWords("Hey Mel! I'm in Kraków, 2023's été.", { stem: "none" })).toEqual([
      "hey",
      "mel",
      "kraków",
      "2023",
      "été",
    ]);
    expect(lexicalWords("What did you do?")).toEqual([]);
    // Letters past the BMP count whole; a lone surrogate is no letter.
    expect(lexicalWords("a\u{1D49C}b \uDC00x\uD835 9", { stem: "none", stopWords: false })).toEqual([
      "a\u{1D49C}b",
      "x",
      "9",
    ]);
  });

  it("splits as the regular expression /[\\p{L}\\p{M}\\p{N}]+/gu does (scripts without spaces in bigrams), on any text (fast-check)", () => {
    const seed = Number(process.env.CTXLOOM_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`lexical-terms: fast-check seed ${seed} (rerun with CTXLOOM_SEED=${seed})`);
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string());
    fc.assert(
      fc.property(text, (s) => {
        expect(lexicalWords(s, { stem: "none", stopWords: false })).toEqual(expectedWords(s));
      }),
      { numRuns: 500, seed },
    );
  });

  it("plural: Harman's S-stemmer", () => {
    const plural = (w: string) => lexicalWords(w, { stem: "plural", stopWords: false })[0];
    expect(
      ["puppies", "dogs", "classes", "boxes", "bus", "glass", "series", "shoes", "cats", "its", "1990s"].map(plural),
    ).toEqual(["puppy", "dog", "classe", "boxe", "bus", "glass", "sery", "shoe", "cat", "its", "1990s"]);
  });

  it("light: plural, then -ing / -ed and a final e, so a verb's forms meet", () => {
    const light = (text: string) => lexicalWords(text, { stem: "light", stopWords: false });
    expect(light("adopt adopted adopting adopts")).toEqual(["adopt", "adopt", "adopt", "adopt"]);
    expect(light("move moved moving moves")).toEqual(["mov", "mov", "mov", "mov"]);
    expect(light("running stopped hiking hiked")).toEqual(["run", "stop", "hik", "hik"]);
    expect(light("called missed need bed sing the")).toEqual(["call", "miss", "need", "bed", "sing", "the"]);
  });
});

/** Runs of letters, marks and digits; runs of scripts written without spaces cut into bigrams (a lone character kept). */
function expectedWords(s: string): string[] {
  const spaceless =
    /^[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{3134F}]$/u;
  const out: string[] = [];
  for (const word of s.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    for (const run of splitRuns([...word], (c) => spaceless.test(c))) {
      if (!spaceless.test(run[0]!)) out.push(run.join(""));
      else if (run.length === 1) out.push(run[0]!);
      else for (let i = 0; i + 1 < run.length; i++) out.push(run[i]! + run[i + 1]!);
    }
  }
  return out;
}

function splitRuns(chars: string[], test: (c: string) => boolean): string[][] {
  const runs: string[][] = [];
  for (const c of chars) {
    const last = runs[runs.length - 1];
    if (last && test(last[0]!) === test(c)) last.push(c);
    else runs.push([c]);
  }
  return runs;
}

describe("lexical terms", () => {
  it("distinct hashed terms in order of first occurrence, with their counts", () => {
    const t = lexicalTerms("Luna, luna and LUNA chased the puppies; the puppy slept.");
    expect(Array.from(t.terms)).toEqual(["luna", "chase", "puppi", "slept"].map(termHash));
    expect(Array.from(t.counts)).toEqual([3, 1, 2, 1]);
    expect(Array.from(lexicalTerms("chased the puppies", { stem: "light" }).terms)).toEqual(
      ["chas", "puppy"].map(termHash),
    );
    expect(lexicalTerms("").terms.length).toBe(0);
  });

  it("hashes words to u32, the same on every call, apart for different words", () => {
    const words = ["luna", "lunar", "lun", "a", "b", "ab", "ba", "kraków", "2023", "été"];
    const hashes = words.map(termHash);
    expect(hashes).toEqual(words.map(termHash));
    expect(new Set(hashes).size).toBe(words.length);
    for (const h of hashes) expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    expect(termHash("luna")).toBe(termHash("luna"));
  });

  it("refuses unknown options, bad values and a non-text", () => {
    expectThrowCode(() => lexicalTerms("x", { stemming: "none" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => lexicalTerms("x", { stem: "porter" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => lexicalTerms("x", { stopWords: "yes" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => lexicalTerms("x", null as never), "INVALID_ARGUMENT");
    expectThrowCode(() => lexicalTerms(42 as never), "INVALID_ARGUMENT");
  });
});
