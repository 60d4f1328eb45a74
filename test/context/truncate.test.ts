// Truncation of system and memory texts (seed 001): to a token budget at a sentence boundary
// where one fits, else a word boundary, else anywhere; to a character budget with an ellipsis.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { graphemeStart, truncateToChars, truncateToTokens } from "../../src/context/truncate.js";
import type { TokenCounter } from "../../src/index.js";
import { heuristicCounter, loadEncoding } from "../../src/tokens-entry.js";
import { wasmBpeCounter } from "../../src/tokens/wasm-bpe.js";

const h = heuristicCounter();

describe("truncateToTokens", () => {
  it("returns a text that fits unchanged, and nothing for a budget of 0", () => {
    expect(truncateToTokens("Short.", 10, h)).toBe("Short.");
    expect(truncateToTokens("Short.", 0, h)).toBe("");
    expect(truncateToTokens("Short.", -5, h)).toBe("");
  });

  it("cuts after the last whole sentence that fits (. ! ? … and CJK stops, line breaks)", () => {
    const text = "First one. Second one! Third one? Fourth one… Fifth。Sixth\nSeventh line";
    for (let max = 1; max <= h.count(text); max++) {
      const out = truncateToTokens(text, max, h);
      expect(h.count(out)).toBeLessThanOrEqual(max);
      expect(text.startsWith(out)).toBe(true);
    }
    expect(truncateToTokens(text, h.count("First one. Second one!"), h)).toBe("First one. Second one!");
    expect(truncateToTokens(text, h.count("First one. Second one! Third one? Fourth one… Fifth。Sixth"), h)).toBe(
      "First one. Second one! Third one? Fourth one… Fifth。Sixth",
    );
  });

  it("falls back to a word boundary, then to characters", () => {
    const words = "alpha beta gamma delta epsilon zeta eta theta";
    const out = truncateToTokens(words, 5, h);
    expect(words.startsWith(out)).toBe(true);
    expect(words[out.length]).toBe(" ");
    expect(h.count(out)).toBeLessThanOrEqual(5);
    expect(truncateToTokens("x".repeat(100), 7, h)).toBe("x".repeat(28));
  });

  it("property: the result is a prefix within the budget; with a sentence cut, one more sentence would not fit", () => {
    const sentence = fc.stringMatching(/^[A-Za-z][a-z ,]{0,40}[.!?]$/);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 30 }), fc.nat({ max: 200 }), (sentences, max) => {
        const text = sentences.join(" ");
        const out = truncateToTokens(text, max, h);
        expect(text.startsWith(out)).toBe(true);
        expect(h.count(out)).toBeLessThanOrEqual(Math.max(0, max));
        if (out === text || out.length === 0 || !/[.!?]$/.test(out)) return;
        const next = text.slice(out.length).search(/[.!?]/) + out.length + 1;
        expect(h.count(text.slice(0, next))).toBeGreaterThan(max);
      }),
      { numRuns: 300 },
    );
  });

  it("with an exact encoding too", async () => {
    const o200k = await loadEncoding("o200k_base");
    const text = Array.from({ length: 50 }, (_, i) => `Sentence ${i} mentions café, 日本語 and 😀.`).join(" ");
    const out = truncateToTokens(text, 100, o200k);
    expect(o200k.count(out)).toBeLessThanOrEqual(100);
    expect(out.endsWith(".")).toBe(true);
    expect(text.startsWith(out)).toBe(true);
  });
});

describe("truncateToTokens with the WebAssembly counter", () => {
  it("reads the text once, only as far as the budget can reach, and counts no prefix again", async () => {
    const o200k = await wasmBpeCounter("o200k_base");
    let chars = 0;
    const read: number[] = [];
    const spy: TokenCounter = {
      name: "spy",
      exact: true,
      count: (t) => ((chars += t.length), o200k.count(t)),
      ...(o200k.measure
        ? { measure: (t: string, upTo?: number) => (read.push(upTo ?? -1), o200k.measure!(t, upTo)) }
        : {}),
    };
    const text = "Sentence one is here. Another follows it! ".repeat(250_000) + "x".repeat(1_000_000); // 11 MB
    const out = truncateToTokens(text, 5_000, spy);
    expect(o200k.count(out)).toBeLessThanOrEqual(5_000);
    expect(o200k.count(out)).toBeGreaterThan(4_980);
    expect(out.endsWith("!") || out.endsWith(".")).toBe(true);
    expect(read).toEqual([5_000]);
    expect(chars).toBe(0);
  });

  it("property: a prefix within the budget exactly, at a sentence when one fits, never inside a character", async () => {
    const o200k = await wasmBpeCounter("o200k_base");
    const piece = fc.constantFrom(
      "Hello there. ",
      "日本語。",
      "😀",
      "é",
      "\n\n",
      "word ",
      "x".repeat(200),
      "👩‍👩‍👧 ",
      "Done! ",
      "中".repeat(70),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 120 }), fc.integer({ min: 0, max: 300 }), (parts, max) => {
        const text = parts.join("");
        const out = truncateToTokens(text, max, o200k);
        expect(text.startsWith(out)).toBe(true);
        expect(o200k.count(out)).toBeLessThanOrEqual(max);
        expect(wellFormed(out)).toBe(true);
        if (o200k.count(text) <= max) expect(out).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe("truncateToChars", () => {
  it("keeps a short text, cuts a long one to at most maxChars with an ellipsis, at a word when one is near", () => {
    expect(truncateToChars("short", 10)).toBe("short");
    const long = "word ".repeat(100);
    const out = truncateToChars(long, 42);
    expect(out.length).toBeLessThanOrEqual(42);
    expect(out.endsWith("…")).toBe(true);
    expect(out.endsWith(" …")).toBe(false);
    expect(truncateToChars("x".repeat(100), 10)).toBe("x".repeat(9) + "…");
  });

  it("property: never longer than maxChars", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = truncateToChars(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length <= max) expect(out).toBe(text);
      }),
    );
  });
});

const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe("cuts between characters", () => {
  const samples = ["😀😀😀", "𝔸𝔸𝔸", "👍🏽👍🏽", "e\u0301e\u0301", "👨‍👩‍👧x", "❤️❤️", "🇫🇷🇫🇷"];
  it("graphemeStart never lands inside a cluster, with Intl.Segmenter and with the fallback", () => {
    for (const useSegmenter of [true, false]) {
      for (const text of samples) {
        const clusters = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map(
          (s) => s.index,
        );
        for (let i = 0; i <= text.length; i++) {
          const at = graphemeStart(text, i, useSegmenter);
          expect(at).toBeLessThanOrEqual(i);
          expect(wellFormed(text.slice(0, at))).toBe(true);
          // the fallback keeps code points, marks, joiners and modifiers together (flags are two clusters of one letter each there)
          if (useSegmenter || !text.startsWith("🇫")) expect([...clusters, text.length]).toContain(at);
        }
      }
    }
  });

  it("truncateToChars and the character fallback of truncateToTokens cut whole characters", () => {
    expect(truncateToChars("😀".repeat(20), 10)).toBe("😀".repeat(4) + "…");
    expect(truncateToChars("𝔸".repeat(9), 6)).toBe("𝔸𝔸…");
    const out = truncateToTokens("𝔸".repeat(100), 7, h);
    expect(out).toBe("𝔸".repeat(14));
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat({ max: 20 }), (text, max) => {
        const a = truncateToTokens(text, max, h);
        const b = truncateToChars(text, max + 1);
        expect(wellFormed(a) && wellFormed(b)).toBe(true);
        expect(text.startsWith(a)).toBe(true);
      }),
    );
  });
});
