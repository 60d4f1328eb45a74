// A long piece merged in chunks, where no merge can cross: the same tokens as merging it whole
// (tiktoken's loop), in memory that stays in the caches (10 MiB of CJK without punctuation is
// one piece: merged whole, its 200 MB of node records made it three times slower).
//
// Why a chunk's merges are the piece's own there: the parts of a merge are tokens (single bytes
// at first). The first part to span a byte boundary b (start < b < end) is made by merging a
// part that ends at b with one that starts at b, since neither of the two spans it. So when no
// token ending at b joined with a token starting at b is a token, no part ever spans b; the
// pairs across b never merge, and the merges on either side are each side's own merges, in the
// same order (the lowest rank, the leftmost on a tie, restricted to one side). Such a boundary
// is "closed"; a piece cut at closed boundaries has the tokens of its chunks, back to back.
//
// A run of one letter has no closed boundary ("xx" is a token), random letters hardly any; CJK
// text has many. The search for one is bounded (TRIES candidates a chunk, most refused by a short token), so a piece
// without them costs a few lookups a chunk and is merged whole.

import { NONE, longestToken, rankOf } from "./ranks";

/** Bytes a chunk holds at least: its node records (20 bytes a byte) stay within the caches. */
export const CHUNK: u32 = 16384;
/** Candidate boundaries tried past a chunk's least end before a chunk's length further on. */
const TRIES: u32 = 8;
/** Tokens this short are tried first: most boundaries that are not closed are crossed by one. */
const QUICK: u32 = 8;

// The lengths of the tokens that end at the boundary tried (lefts) and that start there (rights).
const lefts = memory.data(256 * 4);
const rights = memory.data(256 * 4);
let nl: u32 = 0;
let nr: u32 = 0;

/**
 * Adds the lengths from..to (at most `most`) of tokens ending at p + b to lefts, and of those starting there to rights.
 */
function collect(p: usize, b: u32, from: u32, to: u32, mostLeft: u32, mostRight: u32): void {
  for (let k = from; k <= min(to, mostLeft); k++) {
    if (k > 1 && rankOf(p + b - k, k) == NONE) continue;
    store<u32>(lefts + (<usize>nl << 2), k);
    nl++;
  }
  for (let k = from; k <= min(to, mostRight); k++) {
    if (k > 1 && rankOf(p + b, k) == NONE) continue;
    store<u32>(rights + (<usize>nr << 2), k);
    nr++;
  }
}

/** True when a token ending at p + b joined with one starting there (both collected) is a token. */
function crossed(p: usize, b: u32, longest: u32): bool {
  for (let i: u32 = 0; i < nl; i++) {
    const a = load<u32>(lefts + (<usize>i << 2));
    for (let j: u32 = 0; j < nr; j++) {
      const c = load<u32>(rights + (<usize>j << 2));
      if (a + c > longest) break;
      if (rankOf(p + b - a, a + c) != NONE) return true;
    }
  }
  return false;
}

/**
 * True when no merge of the n bytes at p can cross byte boundary b (0 < b < n): no token
 * ending at b (within the piece) joined with a token starting at b is a token. Short tokens
 * are tried first (a boundary inside a word is most often crossed by one: found in a few lookups).
 */
export function closed(p: usize, n: u32, b: u32): bool {
  const longest = min<u32>(longestToken(), 256);
  const mostLeft = min<u32>(b, longest - 1);
  const mostRight = min<u32>(n - b, longest - 1);
  nl = 0;
  nr = 0;
  collect(p, b, 1, QUICK, mostLeft, mostRight);
  if (crossed(p, b, longest)) return false;
  if (mostLeft <= QUICK && mostRight <= QUICK) return true;
  collect(p, b, QUICK + 1, longest, mostLeft, mostRight);
  return !crossed(p, b, longest);
}

/**
 * A closed boundary of the n bytes at p at or after `from`, among the first TRIES starts of a
 * character there; 0 when there is none, or when the rest after it would be under a chunk.
 */
export function closedAfter(p: usize, n: u32, from: u32): u32 {
  let tried: u32 = 0;
  for (let b = from; b + CHUNK <= n && tried < TRIES; b++) {
    if ((<u32>load<u8>(p + b) & 0xc0) == 0x80) continue; // inside a character: its start is likelier closed
    tried++;
    if (closed(p, n, b)) return b;
  }
  return 0;
}
