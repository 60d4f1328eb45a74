// Lower bounds on a piece's tokens, without merging it: its bytes over the longest token's.
// A long piece is most often of one kind (a run of letters, a run of CJK), and the tokens of
// one kind are much shorter than the longest of all (128 bytes in both encodings; 26 of ASCII
// letters in o200k_base, 36 in cl100k_base; about 50 of bytes past ASCII): 10 MiB of letters is
// at least 400k tokens, found by reading its bytes once.

import { DATA_BASE, header } from "./layout";

/**
 * Per encoding: the longest token, the longest of ASCII letters only, the longest of bytes >= 0x80 only (0: not read
 * yet).
 */
const longests = memory.data(2 * 3 * 4);

@inline function isLetter(b: u32): bool {
  return (b | 0x20) - 0x61 < 26;
}

/** Reads encoding e's ranks once for the longest tokens of each kind. */
function longestOf(e: u32, kind: u32): u32 {
  const at = longests + <usize>(e * 12);
  if (load<u32>(at) == 0) {
    const count = header(2 + 4 * e);
    const lengths = DATA_BASE + header(3 + 4 * e);
    let token = DATA_BASE + header(4 + 4 * e);
    let letters: u32 = 1;
    let high: u32 = 1;
    for (let r: u32 = 0; r < count; r++) {
      const n = <u32>load<u8>(lengths + r);
      let allLetters = true;
      let allHigh = true;
      for (let i: u32 = 0; i < n; i++) {
        const b = <u32>load<u8>(token + i);
        allLetters = allLetters && isLetter(b);
        allHigh = allHigh && b >= 0x80;
      }
      if (n > 0 && allLetters && n > letters) letters = n;
      if (n > 0 && allHigh && n > high) high = n;
      token += n;
    }
    store<u32>(at, max<u32>(1, header(5 + 4 * e)));
    store<u32>(at, letters, 4);
    store<u32>(at, high, 8);
  }
  return load<u32>(at + (<usize>kind << 2));
}

/** At least this many tokens make the n bytes at p in encoding e (n >= 1). */
export function leastTokens(e: u32, p: usize, n: u32): u32 {
  const longest = longestOf(e, 0);
  if (n <= longest) return 1;
  // The token holding the first byte has at most `longest` bytes; the others lie in bytes 1..n.
  // When those are all of one kind, each holds at most that kind's longest.
  let kind: u32 = 0;
  const b = <u32>load<u8>(p + 1);
  if (isLetter(b)) kind = 1;
  else if (b >= 0x80) kind = 2;
  for (let i: u32 = 2; kind != 0 && i < n; i++) {
    const c = <u32>load<u8>(p + i);
    if (kind == 1 ? !isLetter(c) : c < 0x80) kind = 0;
  }
  const each = longestOf(e, kind);
  return 1 + (n - longest + each - 1) / each;
}
