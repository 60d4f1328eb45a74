// A long piece of the split (a run without spaces or punctuation: CJK, Thai, letters) is merged
// in chunks cut where no merge can cross (issue 30, item 10): 10 MiB of CJK took 1.1 s merged
// whole, its 200 MB of node records far past the caches. The chunks must give the tokens the
// whole merge gives, on both encodings: the heap merge of the fallback counter (gpt-tokenizer's
// tables, merged whole) is the reference. The time is the bench's (tokens-huge); here, the
// memory a count takes, which the chunks bound.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEncoding } from "../../src/tokens/exact.js";
import { wasmBpeCounter, wasmBpeMemoryBytes } from "../../src/tokens/wasm-bpe.js";

const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

// Alphabets of one piece each (letters and marks of one script, or runs the split keeps whole),
// some with words that are long tokens (a boundary inside them is crossed by a merge).
const ALPHABETS: readonly (readonly string[])[] = [
  [..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天"],
  [
    "中华人民共和国",
    "我们",
    "天天中彩票",
    "微信公众号",
    "北京",
    "时间",
    "可以",
    "没有",
    "自己",
    "什么",
    "因为",
    "所以",
    "的",
    "了",
  ],
  [
    ..."あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオ日本語東京",
  ],
  [..."가나다라마바사아자차카타파하한국어대한민국서울"],
  [..."абвгдежзийклмнопрстуфхцчшщъыьэюя"],
  [..."กขคงจฉชซญดตถทนบปผพภมยรลวศสหอฮะาิีึืุู"],
  [..."abcdefghijklmnopqrstuvwxyz"],
  ["a", "aa", "ab", "the", "ing", "中", "国", "é", "ß", "日本"],
];

/** `length` picks of `alphabet`, drawn by a seeded generator. */
function run(alphabet: readonly string[], length: number, seed: number): string {
  let s = seed >>> 0 || 1;
  const out = new Array<string>(length);
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = alphabet[(s >>> 8) % alphabet.length]!;
  }
  return out.join("");
}

describe("a long piece merged in chunks", () => {
  // First in the file: the module's memory only grows, so what a count takes shows as growth.
  it("takes the memory of its text, not 20 bytes a byte of the piece: 3 MB of CJK grows the module by under 8 MiB", async () => {
    const counter = await wasmBpeCounter("o200k_base");
    counter.count("x".repeat(5000)); // (an input buffer and a work area of some size exist)
    const before = wasmBpeMemoryBytes();
    const cjk = run(ALPHABETS[0]!, 1_000_000, 3); // 3 MB of UTF-8, one piece
    expect(counter.count(cjk)).toBeGreaterThan(500_000);
    // The text crosses as 3 bytes a UTF-16 unit (3 MB); merged whole, its node records took 60 MiB more.
    expect(wasmBpeMemoryBytes() - before).toBeLessThan(8 * 2 ** 20);
  });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: counts, slices and cuts as the whole merge does (property, pieces of 40k to 250k bytes)`, async () => {
      const counter = await wasmBpeCounter(encoding);
      const reference = await loadEncoding(encoding);
      fc.assert(
        fc.property(
          fc.nat({ max: ALPHABETS.length - 1 }),
          fc.integer({ min: 40_000, max: 250_000 }),
          fc.nat(),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          (which, bytes, seed, r1, r2) => {
            const alphabet = ALPHABETS[which]!;
            const bytesAPick = new TextEncoder().encode(alphabet.join("")).length / alphabet.length;
            const text = run(alphabet, Math.ceil(bytes / bytesAPick), seed);
            const n = reference.count(text);
            expect(counter.count(text)).toBe(n);
            const m = counter.measure!(text);
            expect(m.tokens).toBe(n);
            const [a, b] = [Math.floor(r1 * text.length), Math.floor(r2 * text.length)].sort((x, y) => x - y) as [
              number,
              number,
            ];
            expect(m.count(a, b)).toBe(reference.count(text.slice(a, b)));
            const budget = Math.max(1, Math.floor(n * r1));
            const head = m.head(budget);
            expect(head.tokens).toBe(reference.count(text.slice(0, head.end)));
            expect(head.tokens).toBeGreaterThan(budget - 4); // cut where the text's own tokens end
            const tail = m.tail(budget);
            expect(tail.tokens).toBe(reference.count(text.slice(tail.start)));
            expect(tail.tokens).toBeGreaterThan(budget - 4);
          },
        ),
        { numRuns: 12 },
      );
    });
  }
});
