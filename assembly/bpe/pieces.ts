// The tokens of one piece of the split, with a cache of the pieces that had to be merged.
//
// A word that is one token costs a hash and a rank lookup. Most words outside ASCII English
// are not: a Cyrillic, Greek, Hangul or Devanagari word is several tokens, and merging it
// (merge.ts) costs ten to fifty times the lookup. Words repeat, across a message and across
// messages, so the count of each merged piece is kept in a direct-mapped cache, one per
// encoding (CACHE_BYTES, laid out after its rank table by ranks.ts), looked up with the hash the rank lookup
// already computed. An entry holds the piece's bytes, compared in full: a hit is exact.
//
// Entry (64 bytes, one cache line):
//   0 hash u32 | 4 length u8 | 5 tokens u8 | 6 generation u16 | 8 bytes of the piece (<= CACHE_MAX)
// An entry of another generation is a miss: forget() empties every cache at once.

import { CACHE_BYTES } from "./layout";
import { failed, pieceTokens } from "./merge";
import { NONE, cacheBase, hashBytes, hashedRankOf, rankOf, sameBytes } from "./ranks";

const ENTRY_SHIFT: u32 = 6;
const ENTRIES: u32 = <u32>(CACHE_BYTES >> ENTRY_SHIFT);
/** Longest piece kept: an entry's bytes. */
const CACHE_MAX: u32 = 56;

let generation: u32 = 1;

/** Empties every encoding's cache (the next entries are of a new generation). */
export function forget(): void {
  generation = (generation + 1) & 0xffff;
  if (generation == 0) generation = 1; // fresh memory is generation 0: never a hit
}

/**
 * Tokens the n bytes at p become (n >= 1), through the cache. An ASCII word is most often one
 * token: the rank table first. Other pieces most often are not: the cache first, which keeps
 * them either way (one line read instead of a slot and the token's bytes, on a repeat).
 */
export function cachedTokens(p: usize, n: u32, asciiWord: bool): u32 {
  if (n <= 2) return n == 1 || rankOf(p, 2) != NONE ? 1 : 2; // every byte is a token
  if (n > CACHE_MAX) return pieceTokens(p, n);
  const h = hashBytes(p, n);
  if (asciiWord && hashedRankOf(p, n, h) != NONE) return 1;
  const e = cacheBase + (<usize>(h & (ENTRIES - 1)) << ENTRY_SHIFT);
  const meta = load<u32>(e, 4);
  if (load<u32>(e) == h && (meta & 0xffff00ff) == ((generation << 16) | n) && sameBytes(e + 8, p, n)) {
    return (meta >> 8) & 0xff;
  }
  const tokens = !asciiWord && hashedRankOf(p, n, h) != NONE ? 1 : pieceTokens(p, n);
  if (failed) return 0;
  store<u32>(e, h);
  store<u32>(e, (generation << 16) | (tokens << 8) | n, 4);
  // Whole words: the input buffer has spare bytes past its end, and an entry holds 56.
  for (let i: u32 = 0; i < n; i += 8) store<u64>(e + 8 + i, load<u64>(p + i));
  return tokens;
}
