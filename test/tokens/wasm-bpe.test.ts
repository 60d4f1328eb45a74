// The WebAssembly BPE counter (issue 15): the same counts as gpt-tokenizer, its reference, on
// every string of ../shared/data and on generated text (fast-check) for both encodings, except
// where gpt-tokenizer differs from OpenAI's tiktoken: it drops a leading U+FEFF (a byte order
// mark) when it turns bytes into strings, so "\ufeff" is 2 tokens there and 1 in tiktoken
// (js-tiktoken). Texts holding U+FEFF are compared with js-tiktoken instead. Merges
// of a long piece stay O(n log n) (merge-step counts); lone surrogates and bad arguments are
// refused; it is the default exact counter.
import fc from "fast-check";
import { countTokens as gptO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as gptCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import { countTokens, loadTokenizer } from "../../src/index.js";
import { tiktokenCounter } from "./tiktoken.js";
import { counterFor } from "../../src/models/counting.js";
import { lastMergeSteps, loadedWasmCounter, wasmBpeCounter, wasmBpeTableBytes } from "../../src/tokens/wasm-bpe.js";
import { expectRejectCode, expectThrowCode } from "../helpers.js";
import { COOKBOOK } from "./cookbook.js";
import { sharedStrings } from "./shared-strings.js";

const PLAIN = { disallowedSpecial: new Set<string>() };
const GPT = {
  o200k_base: (text: string) => gptO200k(text, PLAIN),
  cl100k_base: (text: string) => gptCl100k(text, PLAIN),
} as const;
const ENCODINGS = ["o200k_base", "cl100k_base"] as const;
const TIKTOKEN = { o200k_base: await tiktokenCounter("o200k_base"), cl100k_base: await tiktokenCounter("cl100k_base") };
/** gpt-tokenizer's count, or tiktoken's where gpt-tokenizer mishandles U+FEFF. */
const REFERENCE = Object.fromEntries(
  ENCODINGS.map((e) => [e, (text: string) => (text.includes("\ufeff") ? TIKTOKEN[e].count(text) : GPT[e](text))]),
) as Record<(typeof ENCODINGS)[number], (text: string) => number>;

const strings = sharedStrings("wasm-bpe.test.ts");

// Fragments the generated texts are made of: the places split patterns and merges differ.
const FRAGMENTS = [
  " ",
  "  ",
  "   ",
  "\t",
  "\n",
  "\n\n",
  "\r\n",
  " \n ",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\ufeff",
  "\u0085",
  "\u200b",
  "'s",
  "'S",
  "'t",
  "'ll",
  "'LL",
  "'Ll",
  "'lL",
  "'ve",
  "'VE",
  "'re",
  "'Re",
  "'d",
  "'m",
  "'x",
  "'",
  "I'LL",
  "We'Re",
  "don't",
  "DON'T",
  "a",
  "A",
  "hello",
  "Hello",
  "HELLO",
  "HeLLo",
  "camelCase",
  "XMLHttpRequest",
  "ǅungla",
  "ǈ",
  "ʰʲ",
  "ſ",
  // ASCII letters that run on into other letters or marks (where the ASCII fast path hands over)
  "café",
  "naïve",
  "Straße",
  "ÆON",
  "Éa",
  "HTTPÉ",
  "aÉ",
  " über",
  " Über",
  "x́y",
  "ABʰ",
  "abǅc",
  "HTTPServer",
  "0",
  "7",
  "12",
  "123",
  "1234",
  "12345678901234567890",
  "٣٤٥",
  "१२३",
  "Ⅻ",
  "½",
  "①",
  "!",
  "?!",
  "...",
  "—",
  "/",
  "//",
  "/*",
  "*/",
  "\\",
  "<|endoftext|>",
  "<|im_start|>",
  "{}",
  "[]()",
  "$",
  "€",
  "@#%",
  "```",
  "😀",
  "👍🏽",
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "🇫🇷",
  "❤️",
  "🧑🏿‍🚀",
  "☺︎",
  "日本語",
  "中文",
  "한국어",
  "ひらがな",
  "カタカナー",
  "العربية",
  "مَرْحَبًا",
  "שָׁלוֹם",
  "हिन्दी",
  "नमस्ते",
  "தமிழ்",
  "ไทย",
  "e\u0301",
  "\u0301",
  "\u0301\u0302",
  "a\u20dd",
  "𝐀𝐁𝐂",
  "𝔞𝔟",
  "𐐀𐐨",
  "𠀀𠀁",
  "\u{1f600}\u{1f600}",
  "\u{e0041}",
  "\u{f0000}",
  "\u{10ffff}",
  "\u0000",
  "\u007f",
  "\u0080",
];

/** Random code points over all planes, surrogates excluded. */
const codePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0xd7ff }),
  fc.integer({ min: 0xe000, max: 0xffff }),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
);
const randomUnicode = fc.array(codePoint, { maxLength: 60 }).map((cps) => String.fromCodePoint(...cps));
const mixed = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: randomUnicode }), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));
const runs = fc
  .tuple(
    fc.constantFrom("a", "A", "1", " ", "\n", "!", "é", "日", "😀", "\u0301", "ab", "'s"),
    fc.integer({ min: 1, max: 300 }),
    fc.constantFrom("", "x", " y", "\n", "1"),
  )
  .map(([unit, n, tail]) => unit.repeat(n) + tail);

describe.each(ENCODINGS)("%s", (encoding) => {
  const reference = REFERENCE[encoding];

  it("loads as an exact counter named after its encoding", async () => {
    const counter = await wasmBpeCounter(encoding);
    expect(counter.name).toBe(encoding);
    expect(counter.exact).toBe(true);
    expect(counter.count("")).toBe(0);
  });

  it(`the same counts as gpt-tokenizer on every string of the shared data (${strings.length})`, async () => {
    const counter = await wasmBpeCounter(encoding);
    const differ = strings.filter((t) => counter.count(t) !== reference(t));
    expect(differ.slice(0, 3)).toEqual([]);
  });

  it("the same counts as gpt-tokenizer on generated text: fragments, random code points of every plane, long runs", async () => {
    const counter = await wasmBpeCounter(encoding);
    fc.assert(
      fc.property(fc.oneof(mixed, randomUnicode, runs), (text) => counter.count(text) === reference(text)),
      { numRuns: 3000 },
    );
  });

  it("the same counts on long documents: 1 MB of conversation text, and texts longer than the input buffer was", async () => {
    const counter = await wasmBpeCounter(encoding);
    let doc = strings.join("\n\n");
    while (doc.length < 1_000_000) doc += FRAGMENTS.join(" ") + "\n";
    expect(counter.count(doc)).toBe(reference(doc));
    // after a large text, short ones still count right (the buffer and its view are reused)
    for (const text of ["hi", "I'LL be there", FRAGMENTS.join("")]) expect(counter.count(text)).toBe(reference(text));
  });

  it("the same counts as js-tiktoken (OpenAI's tiktoken) on generated text, U+FEFF included", async () => {
    const counter = await wasmBpeCounter(encoding);
    fc.assert(
      fc.property(fc.oneof(mixed, randomUnicode), (text) => counter.count(text) === TIKTOKEN[encoding].count(text)),
      { numRuns: 500 },
    );
    // where gpt-tokenizer parts from tiktoken: a U+FEFF it cannot look up as a string
    for (const text of ["\ufeff", "a\ufeff", "\ufeff//", " \ufeff\ufeff"]) {
      expect(counter.count(text)).toBe(TIKTOKEN[encoding].count(text));
      expect(GPT[encoding](text)).toBeGreaterThan(TIKTOKEN[encoding].count(text));
    }
  });

  it("a long piece merges in about linear time: merge steps per byte stay flat from 10 KB to 1 MB", async () => {
    const counter = await wasmBpeCounter(encoding);
    // 4,000 letters: small enough for the reference's quadratic merge loop
    expect(counter.count("a".repeat(4000))).toBe(reference("a".repeat(4000)));
    // One piece each: a letter repeated, random lowercase letters, CJK without punctuation (seeded).
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const pieces = [
      (n: number) => "a".repeat(n),
      (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + (next() % 26))).join(""),
      (n: number) => Array.from({ length: n / 3 }, () => String.fromCharCode(0x4e00 + (next() % 20_000))).join(""),
    ];
    for (const piece of pieces) {
      const perByte = [10_000, 100_000, 1_000_000].map((n) => {
        counter.count(piece(n));
        return lastMergeSteps() / n;
      });
      expect(perByte[0]).toBeGreaterThan(0.3); // (the steps are counted)
      expect(perByte[2]! / perByte[0]!).toBeLessThan(1.05); // a heap of pairs grows like log n: 1.5 from 10k to 1M
      expect(perByte[2]).toBeLessThan(8); // a few list links a byte (a heap: 24-45 sift steps)
    }
  });

  it("refuses lone surrogates (INVALID_CONTENT) and non-strings (INVALID_ARGUMENT), and counts on after", async () => {
    const counter = await wasmBpeCounter(encoding);
    for (const bad of ["\ud800", "a\udc00b", "😀".slice(0, 1), "x" + "😀".slice(1)])
      expectThrowCode(() => counter.count(bad), "INVALID_CONTENT");
    expectThrowCode(() => counter.count(42 as unknown as string), "INVALID_ARGUMENT");
    expect(counter.count("still counting")).toBe(reference("still counting"));
  });
});

describe("the default exact counter", () => {
  it("counterFor, loadTokenizer and countTokens use the WebAssembly counter: the cookbook's 129 and 124", async () => {
    await loadTokenizer("gpt-4o");
    await loadTokenizer("gpt-4");
    expect(await counterFor("gpt-4o")).toBe(loadedWasmCounter("o200k_base"));
    expect(await counterFor("gpt-4")).toBe(loadedWasmCounter("cl100k_base"));
    expect(countTokens(COOKBOOK, { model: "gpt-4" })).toBe(129);
    expect(countTokens(COOKBOOK, { model: "gpt-4o" })).toBe(124);
  });

  it("both encodings' tables take at most 8 MB of linear memory", async () => {
    await wasmBpeCounter("o200k_base");
    await wasmBpeCounter("cl100k_base");
    expect(wasmBpeTableBytes()).toBeGreaterThan(2_000_000);
    expect(wasmBpeTableBytes()).toBeLessThanOrEqual(8 * 2 ** 20);
  });

  it("refuses an unknown encoding (INVALID_ARGUMENT)", async () => {
    for (const bad of ["p50k_base", "toString", undefined, 7])
      await expectRejectCode(() => wasmBpeCounter(bad as never), "INVALID_ARGUMENT");
  });
});
