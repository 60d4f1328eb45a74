// Linear memory of the BPE counter, and the tables the build put in it.
//
//   0            DATA_BASE (64 KiB)                                     tablesTop     inputPtr     workPtr
//   | statics    | header | o200k lengths, pool | cl100k lengths, pool | unicode | rank tables* | input text | merge arrays |
//                 `---------------- one data segment (scripts/build-bpe.mjs) ---'  `-- built by init(), on demand --'
//   * per encoding: its hash slots, its pairs, its cache of pieces (CACHE_BYTES)
//
// Header (u32 words at DATA_BASE):
//   [0] magic "BPE1"   [1] blob bytes
//   [2 + 4e] ranks of encoding e   [3 + 4e] offset of its lengths (u8 per rank; 0 = unused rank)
//   [4 + 4e] offset of its pool (the ranks' bytes, back to back)   [5 + 4e] longest token, bytes
//   [10] offset of the Unicode block index (u16 per 128 code points)   [11] offset of the blocks (u8 class per code point)
//   [12] offset of the Basic Multilingual Plane's classes, flat (u8 per code point below U+10000)
//   [13 + e] the split pattern of encoding e (P_*)
// A module holds the ranks of one encoding (ctxloom-bpe.wasm o200k_base in e = 0,
// ctxloom-bpe-cl100k.wasm cl100k_base in e = 1) or none (ctxloom-bpe-vocab.wasm: a vocabulary
// is written in at run time, reserve()); the others' words are 0.
// Every offset is from DATA_BASE; every array is followed by 8 spare bytes (word loads may read past an end).

export const DATA_BASE: usize = 65536;
/** Bytes of each encoding's cache of merged pieces (pieces.ts), after its rank tables: 8192 entries of 64. */
export const CACHE_BYTES: usize = 512 << 10;
export const MAGIC: u32 = 0x32455042; // "BPE2"

// Split patterns (split.ts).
export const P_O200K: u32 = 0;
export const P_CL100K: u32 = 1;
/** Llama 3: cl100k_base's pattern with Hugging Face's whitespace rules (no \s+$). */
export const P_LLAMA3: u32 = 2;
/** Qwen 2.5 / 3: Llama 3's, numbers one by one. */
export const P_QWEN: u32 = 3;
/** Mistral's Tekken: o200k_base's without contractions, numbers one by one. */
export const P_TEKKEN: u32 = 4;
/** DeepSeek V3: numbers by three, CJK runs, then its own pattern over each stretch. */
export const P_DEEPSEEK: u32 = 5;
/** SentencePiece merges (Gemma 3): no split; a character the vocabulary lacks is its bytes. */
export const P_PIECES: u32 = 6;
@inline export function header(word: u32): u32 {
  return load<u32>(DATA_BASE + (<usize>word << 2));
}
export function setHeader(word: u32, value: u32): void {
  store<u32>(DATA_BASE + (<usize>word << 2), value);
}

// Unicode classes, as scripts/build-bpe.mjs writes them.
export const C_OTHER: u32 = 0; // controls, format, unassigned: [^\s\p{L}\p{M}\p{N}\p{P}\p{S}]
export const C_UPPER: u32 = 1; // Lu, Lt
export const C_LOWER: u32 = 2; // Ll
export const C_LETTER: u32 = 3; // Lm, Lo
export const C_MARK: u32 = 4; // M
export const C_NUMBER: u32 = 5; // N
export const C_SPACE: u32 = 6; // \s as JS defines it
export const C_PUNCT: u32 = 7; // P, S

let uIndex: usize = 0;
let uBlocks: usize = 0;
let uBmp: usize = 0;

export function setUnicode(): void {
  uIndex = DATA_BASE + header(10);
  uBlocks = DATA_BASE + header(11);
  uBmp = DATA_BASE + header(12);
}

/** Byte length of the code point the last `classAt` read. */
export let cpLen: u32 = 1;
/** First byte of that code point. */
export let cpByte: u32 = 0;

/** The class of the code point at p (valid UTF-8); sets cpLen and cpByte. */
@inline export function classAt(p: usize): u32 {
  const b0 = <u32>load<u8>(p);
  cpByte = b0;
  // Below U+10000 (every script but emoji and rare ideographs): one load from the flat table.
  if (b0 < 0x80) {
    cpLen = 1;
    return <u32>load<u8>(uBmp + <usize>b0);
  }
  if (b0 < 0xe0) {
    cpLen = 2;
    return <u32>load<u8>(uBmp + <usize>(((b0 & 0x1f) << 6) | (<u32>load<u8>(p, 1) & 0x3f)));
  }
  if (b0 < 0xf0) {
    cpLen = 3;
    return <u32>load<u8>(uBmp + <usize>(((b0 & 0x0f) << 12) | ((<u32>load<u8>(p, 1) & 0x3f) << 6) | (<u32>load<u8>(p, 2) & 0x3f)));
  }
  cpLen = 4;
  const cp = ((b0 & 0x07) << 18) | ((<u32>load<u8>(p, 1) & 0x3f) << 12) | ((<u32>load<u8>(p, 2) & 0x3f) << 6) | (<u32>load<u8>(p, 3) & 0x3f);
  const block = <usize>load<u16>(uIndex + (<usize>(cp >> 7) << 1));
  return <u32>load<u8>(uBlocks + (block << 7) + <usize>(cp & 127));
}

@inline export function isLetter(c: u32): bool {
  return c - 1 < 3; // C_UPPER, C_LOWER, C_LETTER
}
/** [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
@inline export function isUpperish(c: u32): bool {
  return c == C_UPPER || c == C_LETTER || c == C_MARK;
}
/** [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
@inline export function isLowerish(c: u32): bool {
  return c - 2 < 3; // C_LOWER, C_LETTER, C_MARK
}
/** [^\s\p{L}\p{N}] */
@inline export function isPunct(c: u32): bool {
  return c == C_OTHER || c == C_MARK || c == C_PUNCT;
}
/** [^\r\n\p{L}\p{N}] for the code point classAt just read. */
@inline export function isPrefix(c: u32): bool {
  return (c == C_OTHER || c == C_MARK || c == C_SPACE || c == C_PUNCT) && cpByte != 10 && cpByte != 13;
}

/** Makes linear memory reach `end`; false when it cannot grow. */
export function reach(end: usize): bool {
  const have = <usize>memory.size() << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 0xffff) >> 16);
  return memory.grow(pages) >= 0;
}
