// Pre-tokenization: each encoding's split pattern as a scanner over UTF-8, with the regex's
// own backtracking order worked out by hand (not a regex engine). Every piece goes straight
// to countPiece (passes.ts); the scanners return the total.
//
// o200k_base (alternatives tried in this order at each position):
//   A1 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(contraction)?
//   A2 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(contraction)?
//   A3 \p{N}{1,3}     A4  ?[^\s\p{L}\p{N}]+[\r\n/]*     A5 \s*[\r\n]+     A6 \s+(?!\S)     A7 \s+
// cl100k_base (gpt-tokenizer's form, the same splits as tiktoken's):
//   B1 '(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])     B2 [^\r\n\p{L}\p{N}]?\p{L}+
//   B3 \p{N}{1,3}     B4  ?[^\s\p{L}\p{N}]+[\r\n]*     B5 \s+$     B6 \s*[\r\n]     B7 \s+(?!\S)     B8 \s
// Open models' patterns are these with a difference or two (layout.ts: P_*): Tekken is o200k_base's
// without the contraction and with \p{N} alone; Llama 3 is B1-B4 then o200k_base's A5-A7 (no B5),
// and Qwen that with \p{N} alone. DeepSeek V3 and SentencePiece merges are in split-open.ts.

import {
  C_LOWER, C_NUMBER, C_SPACE, classAt, cpByte, cpLen, isLetter, isLowerish, isPrefix, isPunct, isUpperish,
} from "./layout";
import { failed } from "./merge";
import { countPiece } from "./passes";

let buf: usize = 0;
let end: u32 = 0;

/** Sets the text the helpers below read: `n` bytes at `at` (split-open.ts scans stretches of a text with them). */
export function setText(at: usize, n: u32): void {
  buf = at;
  end = n;
}

/** A1 from p (after the optional prefix): the match's end, or -1. */
function upperThenLower(p: u32): i32 {
  let q = p;
  let lastLower: i32 = -1;
  let c: u32 = 0;
  while (q < end) {
    c = classAt(buf + q);
    if (!isUpperish(c)) break;
    q += cpLen;
    if (isLowerish(c)) lastLower = <i32>q;
  }
  // U* took the whole run: W+ needs the next code point (then only Ll can follow a maximal U run).
  if (q < end && c == C_LOWER) {
    q += cpLen;
    while (q < end) {
      c = classAt(buf + q);
      if (!isLowerish(c)) break;
      q += cpLen;
    }
    return <i32>q;
  }
  // Else U* gives back up to the last code point that is also in W; W+ takes that one.
  return lastLower;
}

/** A2 from p: the match's end, or -1. */
function upperRun(p: u32): i32 {
  let q = p;
  while (q < end && isUpperish(classAt(buf + q))) q += cpLen;
  if (q == p) return -1;
  while (q < end && isLowerish(classAt(buf + q))) q += cpLen;
  return <i32>q;
}

/** An optional '(s|d|m|t|ll|ve|re), any case, at e. */
export function contraction(e: u32): u32 {
  if (e + 1 >= end || load<u8>(buf + e) != 0x27) return e;
  const a = <u32>load<u8>(buf + e + 1) | 0x20;
  if (a == 0x73 || a == 0x64 || a == 0x6d || a == 0x74) return e + 2; // s d m t
  if (e + 2 >= end) return e;
  const b = <u32>load<u8>(buf + e + 2) | 0x20;
  if ((a == 0x6c && b == 0x6c) || (a == 0x76 && b == 0x65) || (a == 0x72 && b == 0x65)) return e + 3; // ll ve re
  return e;
}

/** Up to `most` numbers from i (the first is one, `len0` bytes). */
@inline export function numbers(i: u32, len0: u32, most: u32): u32 {
  let q = i + len0;
  for (let k: u32 = 1; k < most && q < end; k++) {
    if (classAt(buf + q) != C_NUMBER) break;
    q += cpLen;
  }
  return q;
}

/** ' ?[^\s\p{L}\p{N}]+' then the trailing set, from i; -1 if no match. */
export function punctuation(i: u32, slash: bool): i32 {
  let q = i;
  if (load<u8>(buf + i) == 0x20) q++;
  const from = q;
  while (q < end && isPunct(classAt(buf + q))) q += cpLen;
  if (q == from) return -1; // without the space: a space is \s, never [^\s...]
  while (q < end) {
    const b = load<u8>(buf + q);
    if (b == 10 || b == 13 || (slash && b == 0x2f)) q++;
    else break;
  }
  return <i32>q;
}

/** The byte at q, or 0 past the end. */
@inline export function byteAt(q: u32): u32 {
  return q < end ? <u32>load<u8>(buf + q) : 0;
}

/**
 * The fast path of the most common piece, ASCII letters after an optional space: its end, or -1
 * when the general scanner must decide (no letter; or a byte >= 0x80 follows, which may be a
 * letter or mark that goes on with the run). `cased`: o200k_base's A1 / A2 (uppercase, then
 * lowercase: "HTTPServer", but "helloWorld" ends at "W"); else cl100k_base's B2 (any letters).
 */
@inline function asciiLetters(i: u32, cased: bool): i32 {
  let q = i;
  if (load<u8>(buf + q) == 0x20) q++;
  const from = q;
  let b = byteAt(q);
  if (cased) {
    while (b - 0x41 < 26) b = byteAt(++q); // [A-Z]*
    while (b - 0x61 < 26) b = byteAt(++q); // [a-z]*
  } else {
    while ((b | 0x20) - 0x61 < 26) b = byteAt(++q); // [A-Za-z]*
  }
  return q == from || b >= 0x80 ? -1 : <i32>q;
}

/** Whitespace at i: the end of the run, with the start of its last code point and the end of its last \r or \n. */
export let runLast: u32 = 0;
export let runNewline: i32 = -1;
export function spaceRun(i: u32): u32 {
  let q = i;
  runNewline = -1;
  while (q < end) {
    const c = classAt(buf + q);
    if (c != C_SPACE) break;
    runLast = q;
    q += cpLen;
    if (cpByte == 10 || cpByte == 13) runNewline = <i32>q;
  }
  return q;
}

/** Whitespace at i by A5-A7 (\s*[\r\n]+|\s+(?!\S)|\s+), the text ending at `end`: the piece's end. */
export function spaces(i: u32): u32 {
  const q = spaceRun(i);
  if (runNewline >= 0) return <u32>runNewline; // A5
  if (q == end || runLast == i) return q; // A6 to the end, or A7 (one code point)
  return runLast; // A6: all but the last
}

/** o200k_base's pattern (Tekken's without `contractions`, its numbers `digits` at most together). */
export function countO200k(at: usize, n: u32, contractions: bool = true, digits: u32 = 3): u32 {
  buf = at;
  end = n;
  let tokens: u32 = 0;
  let i: u32 = 0;
  while (i < n) {
    let e = asciiLetters(i, true);
    const asciiWord = e >= 0;
    if (asciiWord) {
      if (contractions) e = <i32>contraction(<u32>e);
    } else {
      const c = classAt(buf + i);
      const len0 = cpLen;
      const prefix = isPrefix(c);
      if (prefix) e = upperThenLower(i + len0);
      if (e < 0 && (isUpperish(c) || isLowerish(c))) e = upperThenLower(i);
      if (e < 0 && prefix) e = upperRun(i + len0);
      if (e < 0 && isUpperish(c)) e = upperRun(i);
      if (e >= 0) {
        if (contractions) e = <i32>contraction(<u32>e);
      } else if (c == C_NUMBER) e = <i32>numbers(i, len0, digits);
      else if (c != C_SPACE || load<u8>(buf + i) == 0x20) e = punctuation(i, true);
      if (e < 0) e = <i32>spaces(i);
    }
    tokens += countPiece(buf + i, <u32>e - i, asciiWord);
    if (failed) return 0;
    i = <u32>e;
  }
  return tokens;
}

/**
 * cl100k_base's pattern; with `hfSpaces`, Llama 3's and Qwen's (whitespace by A5-A7), numbers `digits` at most
 * together.
 */
export function countCl100k(at: usize, n: u32, hfSpaces: bool = false, digits: u32 = 3): u32 {
  buf = at;
  end = n;
  let tokens: u32 = 0;
  let i: u32 = 0;
  while (i < n) {
    let e = asciiLetters(i, false);
    const asciiWord = e >= 0;
    if (!asciiWord) {
      e = <i32>contraction(i);
      if (<u32>e == i) e = -1;
      const c = classAt(buf + i);
      const len0 = cpLen;
      if (e < 0 && (isPrefix(c) || isLetter(c))) {
        // B2: with the prefix when it is one, else the letter run from i.
        const from = isPrefix(c) ? i + len0 : i;
        let q = from;
        while (q < n && isLetter(classAt(buf + q))) q += cpLen;
        if (q > from) e = <i32>q;
      }
      if (e < 0) {
        if (c == C_NUMBER) e = <i32>numbers(i, len0, digits);
        else if (c != C_SPACE || load<u8>(buf + i) == 0x20) e = punctuation(i, false);
      }
      if (e < 0 && hfSpaces) e = <i32>spaces(i);
      if (e < 0) {
        const q = spaceRun(i);
        if (q == n) e = <i32>q; // B5
        else if (runNewline >= 0) e = runNewline; // B6
        else if (runLast != i) e = <i32>runLast; // B7
        else e = <i32>q; // B8
      }
    }
    tokens += countPiece(buf + i, <u32>e - i, asciiWord);
    if (failed) return 0;
    i = <u32>e;
  }
  return tokens;
}
