// The WebAssembly counter reads a long text once (issue 21, item 4): a count that stops past a
// cap, and a measure whose record answers the count of any slice, where to cut the text at
// either end, and the count of the text with a slice replaced, all equal to counting anew.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lastMergeSteps, wasmBpeCounter } from "../../src/tokens/wasm-bpe.js";
import type { TokenCounter } from "../../src/tokens/types.js";

const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

// Pieces where the split and the merges are delicate, and long runs (one piece each, merged by
// the long merge): letters, CJK, emoji, a run of spaces before a word.
const FRAGMENTS = [
  "a",
  "Hello",
  " world",
  "  ",
  "\n",
  "\n\n  ",
  "\r\n",
  "'s",
  "'LL",
  "don't",
  "123456",
  "...",
  "—",
  " über",
  "é",
  "e\u0301",
  "日本語",
  "中文字。",
  "😀",
  "👍🏽",
  "🇫🇷",
  "HTTPServer",
  "!!\n",
  " \t",
  "\u3000",
  "x".repeat(300),
  "中".repeat(90),
  "ab".repeat(70),
  " " + "y".repeat(130),
  "😀".repeat(40),
  "  \n x",
];
const text = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(""));

/** Cut points of `t` that split no surrogate pair. */
const cutOf = (t: string, r: number) => {
  let i = Math.floor(r * (t.length + 1));
  if (i > 0 && i < t.length && /[\udc00-\udfff]/.test(t[i]!)) i--;
  return i;
};
const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe.each(ENCODINGS)("%s", (encoding) => {
  it("countUpTo is the count when at most the cap, else above the cap and at most the count (property)", async () => {
    const counter = await wasmBpeCounter(encoding);
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 5 }), fc.nat({ max: 400 }), (t, copies, cap) => {
        const long = t.repeat(copies + Math.ceil(5000 / t.length)); // past the short texts' path too
        for (const s of [t, long]) {
          const n = counter.count(s);
          const upTo = counter.countUpTo!(s, cap);
          if (n <= cap) expect(upTo).toBe(n);
          else {
            expect(upTo).toBeGreaterThan(cap);
            expect(upTo).toBeLessThanOrEqual(n);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("countUpTo stops merging once past the cap: 2 MB of words over a cap of 20,000 costs what the cap does", async () => {
    const counter = await wasmBpeCounter(encoding);
    // Words that are several tokens and rarely repeat (a seeded generator), so that counting merges all along.
    let seed = 21;
    const letter = () => "aeiouéèàüößñçrstlnmkpdgbvz"[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 26]!;
    const words: string[] = [];
    for (let chars = 0; chars < 2_000_000; chars += 9) words.push(Array.from({ length: 8 }, letter).join(""));
    const prose = words.join(" ");
    counter.count(prose + " "); // (another text: countUpTo would answer from the count it remembers)
    const whole = lastMergeSteps();
    // (20,000: above the linear bound, 2 MB / 128 bytes, which refuses smaller caps without reading)
    expect(counter.countUpTo!(prose, 20_000)).toBeGreaterThan(20_000);
    expect(lastMergeSteps()).toBeLessThan(whole / 10);
  });

  it("a measure answers like counting anew: its total, any slice, both cuts and a replaced slice (property)", async () => {
    const counter = await wasmBpeCounter(encoding);
    fc.assert(
      fc.property(
        text,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat({ max: 300 }),
        (t, r1, r2, max) => {
          const m = counter.measure!(t);
          const n = counter.count(t);
          expect(m.tokens).toBe(n);
          const [a, b] = [cutOf(t, r1), cutOf(t, r2)].sort((x, y) => x - y) as [number, number];
          expect(m.count(a, b)).toBe(counter.count(t.slice(a, b)));
          const head = m.head(max);
          expect(lone.test(t.slice(0, head.end))).toBe(false);
          expect(head.tokens).toBe(counter.count(t.slice(0, head.end)));
          expect(head.tokens).toBeLessThanOrEqual(max);
          if (n <= max) expect(head.end).toBe(t.length);
          else expect(head.tokens).toBeGreaterThan(max - 4); // cut where the text's own tokens end: nothing thrown away
          const tail = m.tail(max);
          expect(lone.test(t.slice(tail.start))).toBe(false);
          expect(tail.tokens).toBe(counter.count(t.slice(tail.start)));
          expect(tail.tokens).toBeLessThanOrEqual(max);
          if (n > max) expect(tail.tokens).toBeGreaterThan(max - 4);
          const marker = "\n[... omitted ...]\n";
          const replaced = m.replaced!(a, b, marker);
          expect(replaced.text).toBe(t.slice(0, a) + marker + t.slice(b));
          expect(replaced.tokens).toBe(counter.count(replaced.text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a measure measured up to a head answers that head, and reads the rest when asked more", async () => {
    const counter = await wasmBpeCounter(encoding);
    const t = "Una frase corta. ".repeat(5_000) + "x".repeat(20_000);
    const m = counter.measure!(t, 50);
    expect(m.tokens).toBeGreaterThan(50);
    const head = m.head(50);
    expect(head.tokens).toBe(counter.count(t.slice(0, head.end)));
    expect(m.count(0, t.length)).toBe(counter.count(t));
    expect(m.tail(100).tokens).toBe(counter.count(t.slice(m.tail(100).start)));
  });

  it("another text counted meanwhile does not change a measure's answers (it reads its text again)", async () => {
    const [counter, other] = [
      await wasmBpeCounter(encoding),
      await wasmBpeCounter(encoding === "o200k_base" ? "cl100k_base" : "o200k_base"),
    ];
    const t = "Il était une fois un texte assez long. ".repeat(2_000);
    const m = counter.measure!(t);
    const expected = counter.count(t.slice(100, 50_000));
    for (const c of [counter, other] as TokenCounter[]) {
      c.count("Quelque chose d'autre, de long aussi. ".repeat(3_000)); // written where t was
      c.count("a marker"); // short texts have a buffer of their own
      expect(m.count(100, 50_000)).toBe(expected);
      expect(m.head(1_000).tokens).toBeLessThanOrEqual(1_000);
    }
  });

  it("counts a text it counted last without reading it again", async () => {
    const counter = await wasmBpeCounter(encoding);
    const t = "word ".repeat(100_000) + "x".repeat(50_000);
    const n = counter.count(t);
    counter.count("hi");
    expect(counter.count(t)).toBe(n);
    expect(counter.countUpTo!(t, n)).toBe(n);
  });
});
