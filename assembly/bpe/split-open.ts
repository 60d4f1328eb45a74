// The open models' patterns that are not o200k_base's or cl100k_base's with a difference
// (split.ts): DeepSeek V3's sequence of splits, and SentencePiece merges without a split.
//
// DeepSeek V3 splits in three steps, each within the pieces of the one before:
//   1 \p{N}{1,3}                          numbers, three at most together
//   2 [\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+    runs of CJK ideographs and kana
//   3 over each stretch between them (its end taken as the text's by the lookahead):
//     D1 [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+    D2 [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
//     D3  ?[\p{P}\p{S}]+[\r\n]*    D4 \s*[\r\n]+    D5 \s+(?!\S)    D6 \s+
//     what none of them matches (a control character before no letter) is a piece of its own.
// SentencePiece merges (Gemma 3) run over the whole text, its spaces as they are (the tables
// hold "▁" as a space): only a character the vocabulary lacks stops them, and it is its bytes.

import { C_MARK, C_NUMBER, C_OTHER, C_PUNCT, C_SPACE, classAt, cpByte, cpLen, isLetter } from "./layout";
import { failed } from "./merge";
import { countPiece } from "./passes";
import { NONE, rankOf } from "./ranks";
import { byteAt, numbers, setText, spaces } from "./split";

let buf: usize = 0;
let end: u32 = 0;

/** The code point at q is one of step 2's (all three bytes long in UTF-8). */
function cjkAt(q: u32): bool {
  const b0 = <u32>load<u8>(buf + q);
  if (b0 < 0xe3 || b0 > 0xe9) return false;
  const cp = ((b0 & 0x0f) << 12) | ((<u32>load<u8>(buf + q, 1) & 0x3f) << 6) | (<u32>load<u8>(buf + q, 2) & 0x3f);
  return (cp >= 0x4e00 && cp <= 0x9fa5) || (cp >= 0x3040 && cp <= 0x30ff);
}

@inline function asciiLetter(b: u32): bool {
  return (b | 0x20) - 0x61 < 26;
}

@inline function asciiPunct(b: u32): bool {
  return (b - 0x21 < 15) || (b - 0x3a < 7) || (b - 0x5b < 6) || (b - 0x7b < 4);
}

/** [\p{L}\p{M}]+ from q (the stretch ending at `end`): its end. */
function letterRun(q: u32): u32 {
  while (q < end) {
    const c = classAt(buf + q);
    if (!isLetter(c) && c != C_MARK) break;
    q += cpLen;
  }
  return q;
}

/** Where D1-D6 end a match at j, or -1 when none matches there. */
function deepSeekMatch(j: u32): i32 {
  const b = <u32>load<u8>(buf + j);
  if (asciiPunct(b) && asciiLetter(byteAt(j + 1))) {
    let q = j + 2;
    while (asciiLetter(byteAt(q))) q++;
    return <i32>q; // D1
  }
  const c = classAt(buf + j);
  const len0 = cpLen;
  const first = cpByte;
  if (isLetter(c) || c == C_MARK) return <i32>letterRun(j); // D2 (a mark as the prefix or not: the same end)
  if ((c == C_OTHER || c == C_SPACE || c == C_NUMBER) && first != 10 && first != 13 && j + len0 < end) {
    const d = classAt(buf + j + len0);
    if (isLetter(d) || d == C_MARK) return <i32>letterRun(j + len0); // D2 with its prefix
  }
  let q = b == 0x20 ? j + 1 : j;
  let r = q;
  while (r < end) {
    if (classAt(buf + r) != C_PUNCT) break;
    r += cpLen;
  }
  if (r > q) {
    for (let x = byteAt(r); x == 10 || x == 13; x = byteAt(r)) r++;
    return <i32>r; // D3
  }
  if (c == C_SPACE) return <i32>spaces(j); // D4-D6
  return -1;
}

/** Tokens of step 3's pieces over bytes [from, to). */
function stretch(from: u32, to: u32): u32 {
  setText(buf, to);
  end = to;
  let tokens: u32 = 0;
  let pending: i32 = -1;
  let j = from;
  while (j < to) {
    const e = deepSeekMatch(j);
    if (e < 0) {
      if (pending < 0) pending = <i32>j;
      classAt(buf + j);
      j += cpLen;
      continue;
    }
    if (pending >= 0) {
      tokens += countPiece(buf + <usize>pending, j - <u32>pending, false);
      pending = -1;
      if (failed) return 0;
    }
    tokens += countPiece(buf + j, <u32>e - j, false);
    if (failed) return 0;
    j = <u32>e;
  }
  if (pending >= 0) tokens += countPiece(buf + <usize>pending, to - <u32>pending, false);
  return tokens;
}

export function countDeepSeek(at: usize, n: u32): u32 {
  let tokens: u32 = 0;
  let i: u32 = 0;
  while (i < n) {
    buf = at;
    setText(at, n);
    const c = classAt(at + i);
    const len0 = cpLen;
    let s: u32;
    if (c == C_NUMBER) {
      s = numbers(i, len0, 3);
      tokens += countPiece(at + i, s - i, false);
    } else {
      const cjk = cjkAt(i);
      s = i + len0;
      while (s < n) {
        const d = classAt(at + s);
        const len = cpLen;
        if (d == C_NUMBER || cjkAt(s) != cjk) break;
        s += len;
      }
      tokens += stretch(i, s);
    }
    if (failed) return 0;
    i = s;
  }
  return tokens;
}

/** SentencePiece merges over the n bytes at `at`: runs of the vocabulary's characters, and the bytes of the others. */
export function countPieces(at: usize, n: u32): u32 {
  let tokens: u32 = 0;
  let start: u32 = 0;
  let i: u32 = 0;
  while (i < n) {
    const b = <u32>load<u8>(at + i);
    if (b < 0x80) {
      i++;
      continue;
    }
    let len: u32 = 4;
    if (b < 0xe0) len = 2;
    else if (b < 0xf0) len = 3;
    if (rankOf(at + i, len) == NONE) {
      if (i > start) tokens += countPiece(at + start, i - start, false);
      if (failed) return 0;
      tokens += countPiece(at + i, len, false, true); // byte fallback: a token a byte
      if (failed) return 0;
      start = i + len;
    }
    i += len;
  }
  if (n > start) tokens += countPiece(at + start, n - start, false);
  return tokens;
}
