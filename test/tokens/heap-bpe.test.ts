// The heap merge (issue 7, item 1c): the same counts as gpt-tokenizer on every text, and work
// that grows as n log n with the text, counted in heap steps (no timing in tests: see
// bench/tokens-long.bench.ts for the figures).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import { heapBpeOf, loadEncoding } from "../../src/tokens/exact.js";
import { truncateToTokens } from "../../src/context/truncate.js";

const PLAIN = { disallowedSpecial: new Set<string>() };
const ENCODINGS = [
  ["o200k_base", (t: string) => o200k.countTokens(t, PLAIN)],
  ["cl100k_base", (t: string) => cl100k.countTokens(t, PLAIN)],
] as const;

const RUNS = ["a", "x", "-", "ab", "😀", "𝔸", "日本", "é", "0", " ", "\n", "aé😀", "<|endoftext|>"];

describe.each(ENCODINGS)("%s", (encoding, reference) => {
  it("counts long runs without spaces exactly as gpt-tokenizer does", async () => {
    const counter = await loadEncoding(encoding);
    for (const run of RUNS) {
      for (const times of [1, 2, 63, 64, 65, 200, 1500]) {
        const text = run.repeat(times);
        expect(counter.count(text), `${JSON.stringify(run)} x ${times}`).toBe(reference(text));
      }
    }
  });

  it("property: identical counts on random unicode, short and long", async () => {
    const counter = await loadEncoding(encoding);
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.tuple(fc.constantFrom(...RUNS), fc.integer({ min: 1, max: 300 })).map(([r, n]) => r.repeat(n)),
      fc.string({
        unit: fc.constantFrom("a", "b", "c", "1", "é", "😀", "\ud800", "'", "s"),
        minLength: 60,
        maxLength: 400,
      }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const text = parts.join("");
        expect(counter.count(text)).toBe(reference(text));
      }),
      { numRuns: 300 },
    );
  });

  it("property: fit finds a prefix within the budget at a character boundary, all of a text that fits", async () => {
    const counter = await loadEncoding(encoding);
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.tuple(fc.constantFrom(...RUNS), fc.integer({ min: 1, max: 400 })).map(([r, n]) => r.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.integer({ min: 1, max: 300 }), (parts, max) => {
        const text = parts.join("");
        const cut = counter.fit!(text, max);
        expect(cut).toBeGreaterThanOrEqual(0);
        expect(cut).toBeLessThanOrEqual(text.length);
        expect(counter.count(text.slice(0, cut))).toBeLessThanOrEqual(max);
        const c = text.charCodeAt(cut - 1);
        expect(cut > 0 && c >= 0xd800 && c < 0xdc00).toBe(false); // never inside a surrogate pair
        if (text.length <= max * 4 + 256) expect(cut === text.length).toBe(reference(text) <= max);
        if (cut < text.length)
          expect(counter.count(text.slice(0, Math.min(text.length, cut + 2 * 128)))).toBeGreaterThan(max - 2);
      }),
      { numRuns: 300 },
    );
  });

  it("property: countUpTo is the count when at most the cap, else above the cap and at most the count", async () => {
    const counter = await loadEncoding(encoding);
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.tuple(fc.constantFrom(...RUNS), fc.integer({ min: 1, max: 300 })).map(([r, n]) => r.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.nat({ max: 300 }), (parts, cap) => {
        const text = parts.join("");
        const n = counter.count(text);
        const upTo = counter.countUpTo!(text, cap);
        if (n <= cap) expect(upTo).toBe(n);
        else {
          expect(upTo).toBeGreaterThan(cap);
          expect(upTo).toBeLessThanOrEqual(n);
        }
      }),
      { numRuns: 300 },
    );
    // A run far past the cap is not merged: refused by its length alone.
    const heap = heapBpeOf(encoding)!;
    const before = heap.steps;
    expect(counter.countUpTo!("x".repeat(1_000_000), 1_000)).toBeGreaterThan(1_000);
    expect(heap.steps).toBe(before);
  });

  it("merges in O(n log n): ten times the text takes about ten times the heap operations", async () => {
    const counter = await loadEncoding(encoding);
    const bpe = heapBpeOf(encoding)!;
    const steps = (n: number) => {
      const before = bpe.steps;
      counter.count("a".repeat(n));
      return bpe.steps - before;
    };
    const small = steps(10_000);
    const large = steps(100_000);
    expect(small).toBeGreaterThan(10_000); // the heap path ran
    expect(large / small).toBeLessThan(12); // quadratic would be 100
    expect(large).toBeLessThan(6 * 100_000); // each merge: one pop, at most two pushes (plus stale pops)
  });

  it("truncating 10 MiB of one letter encodes only about what is kept", async () => {
    const counter = await loadEncoding(encoding);
    const bpe = heapBpeOf(encoding)!;
    const text = "x".repeat(10 * 1024 * 1024);
    const before = bpe.steps;
    const out = truncateToTokens(text, 1000, counter);
    const steps = bpe.steps - before;
    expect(counter.count(out)).toBeLessThanOrEqual(1000);
    expect(counter.count(out + "x".repeat(16))).toBeGreaterThan(1000);
    expect(steps).toBeLessThan(1000 * bpe.maxTokenBytes * 4 * 8); // bounded by what fits, not by 10 MiB
    expect(steps).toBeLessThan(text.length / 10);
    expect(counter.atLeast!(text)).toBeGreaterThan(text.length / 200);
  });
});
