// Rank lookup: byte sequence -> rank, one open-addressing hash table per encoding, built by
// `buildRanks` and `insertRanks` from the lengths and pool the build put in memory.
//
// Slot (u64): tag (hash bits 18..31) << 50 | length << 42 | pool offset << 20 | (rank + 1), or
// EMPTY (0: memory fresh from a grow needs no clearing). A lookup reads the pool only when
// tag and length match: a token found costs two cache misses (its slot, its bytes), a probe
// that finds nothing usually one. The table is kept at most 4/5 full: linear probing walks
// consecutive slots, eight to a cache line.
//
// Pairs of bytes, the merges' most frequent lookup, have a direct table beside it: u32
// (rank + 1, 0 when the pair is no token) per two-byte value, 256 KiB, one load. A merge
// mostly asks for byte strings that are no token, which linear probing at 4/5 full answers
// only after several slots (and lines): a filter of one bit per hash (2^20 bits, 128 KiB,
// about one string in six passes it by chance) answers most of them in one load. Then the
// encoding's cache of merged pieces (pieces.ts), CACHE_BYTES, zero when laid out.
//
//   table: slots u64[size] | pairs u32[65536] | filter u8[FILTER_BYTES] | cache of pieces

import { CACHE_BYTES, DATA_BASE, header, reach } from "./layout";

export const NONE: u32 = 0xffffffff;
const EMPTY: u64 = 0;
const RANK_BITS: u64 = 20;
const RANK_MASK: u64 = (1 << RANK_BITS) - 1;
const OFFSET_MASK: u64 = (1 << 22) - 1;
const KEY_MASK: u64 = 0xfffffc0000000000; // tag and length

// The encoding being counted.
let pool: usize = 0;
let slots: usize = 0;
let pairs: usize = 0;
let mask: u32 = 0;
let maxLen: u32 = 0;
/** The selected encoding's cache of pieces (pieces.ts). */
export let cacheBase: usize = 0;
const PAIR_BYTES: usize = 65536 << 2;
const FILTER_BYTES: usize = 1 << 17;
let filter: usize = 0;

/** The filter's bit for hash h: other bits than the slot's and the tag's. */
@inline function filterBit(h: u32): u32 {
  return (h * 0x9e3779b1) >>> 12;
}

// Per encoding (0: o200k_base, 1: cl100k_base), 5 u32: slots (0 until laid out), mask, its
// longest token (0 until every rank is inserted), the next rank to insert, and its pool offset.
const built = memory.data(2 * 5 * 4);
@inline function record(e: u32): usize {
  return built + <usize>e * 20;
}

/** Bytes of the selected encoding's longest token. */
export function longestToken(): u32 {
  return maxLen;
}

/** A hash of the n bytes at p (n >= 1): the rank table's and the cache's. */
@inline export function hashBytes(p: usize, n: u32): u32 {
  let h: u32 = n * 0x9e3779b1;
  let i: u32 = 0;
  while (i + 4 <= n) {
    h = rotl<u32>(h ^ (load<u32>(p + i) * 0xcc9e2d51), 13) * 5 + 0xe6546b64;
    i += 4;
  }
  const rest = n - i;
  if (rest != 0) {
    const w = load<u32>(p + i) & ((<u32>1 << (rest << 3)) - 1);
    h = rotl<u32>(h ^ (w * 0xcc9e2d51), 15) * 0x1b873593;
  }
  h ^= h >>> 16;
  h *= 0x85ebca6b;
  h ^= h >>> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >>> 16);
}

@inline export function sameBytes(a: usize, b: usize, n: u32): bool {
  let i: u32 = 0;
  while (i + 8 <= n) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < n) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

@inline function keyOf(h: u32, n: u32): u64 {
  return (<u64>(h >>> 18) << 50) | (<u64>n << 42);
}

/** The rank of the n bytes at p in the selected encoding, or NONE. */
export function rankOf(p: usize, n: u32): u32 {
  if (n == 2) return load<u32>(pairs + (<usize>load<u16>(p) << 2)) - 1; // 0 - 1 is NONE
  return n > maxLen ? NONE : hashedRankOf(p, n, hashBytes(p, n));
}

/** rankOf for n > 2 bytes whose hashBytes is h. */
@inline export function hashedRankOf(p: usize, n: u32, h: u32): u32 {
  if (n > maxLen) return NONE;
  const bit = filterBit(h);
  if ((<u32>load<u8>(filter + <usize>(bit >> 3)) & (1 << (bit & 7))) == 0) return NONE;
  const key = keyOf(h, n);
  let i = h & mask;
  let s = load<u64>(slots + (<usize>i << 3));
  while (s != EMPTY) {
    if ((s & KEY_MASK) == key && sameBytes(pool + <usize>((s >> RANK_BITS) & OFFSET_MASK), p, n)) {
      return <u32>(s & RANK_MASK) - 1;
    }
    i = (i + 1) & mask;
    s = load<u64>(slots + (<usize>i << 3));
  }
  return NONE;
}

/**
 * Lays out encoding e's table at `top` (once), all slots empty; insertRanks fills it.
 * Returns the new top, or 0 when memory cannot grow.
 */
export function buildRanks(e: u32, top: usize, dirtyEnd: usize): usize {
  const rec = record(e);
  if (load<u32>(rec) != 0) return top;
  const count = header(2 + 4 * e);
  let size: u32 = 1024;
  while (size < count + (count >> 2)) size <<= 1; // at most 4/5 full
  const table = (top + 7) & ~7;
  const end = table + (<usize>size << 3) + PAIR_BYTES + FILTER_BYTES + CACHE_BYTES;
  if (!reach(end)) return 0;
  if (dirtyEnd > table) memory.fill(table, 0, min(end, dirtyEnd) - table); // once an input buffer
  store<u32>(rec, <u32>table);
  store<u32>(rec, size - 1, 4);
  return end;
}

/**
 * Hashes encoding e's ranks from the next one not yet inserted up to `to` (exclusive) into its
 * table; when `to` reaches the last, the encoding is ready. (The caller goes in slices: after
 * the first ones, the engine runs its optimized code.)
 */
export function insertRanks(e: u32, to: u32): void {
  const rec = record(e);
  if (load<u32>(rec) == 0 || load<u32>(rec, 8) != 0) return; // not laid out, or ready
  const count = header(2 + 4 * e);
  if (to > count) to = count;
  const lengths = DATA_BASE + header(3 + 4 * e);
  const bytes = DATA_BASE + header(4 + 4 * e);
  const table = <usize>load<u32>(rec);
  const m = load<u32>(rec, 4);
  let at = load<u32>(rec, 16);
  for (let r = load<u32>(rec, 12); r < to; r++) {
    const n = <u32>load<u8>(lengths + r);
    if (n == 0) continue; // an unused rank
    const h = hashBytes(bytes + at, n);
    let i = h & m;
    while (load<u64>(table + (<usize>i << 3)) != EMPTY) i = (i + 1) & m;
    store<u64>(table + (<usize>i << 3), keyOf(h, n) | (<u64>at << RANK_BITS) | <u64>(r + 1));
    const pairsAt = table + (<usize>(m + 1) << 3);
    if (n == 2) store<u32>(pairsAt + (<usize>load<u16>(bytes + at) << 2), r + 1);
    const bit = filterBit(h);
    const byte = pairsAt + PAIR_BYTES + <usize>(bit >> 3);
    store<u8>(byte, <u32>load<u8>(byte) | (<u32>1 << (bit & 7)));
    at += n;
  }
  store<u32>(rec, max(to, load<u32>(rec, 12)), 12);
  store<u32>(rec, at, 16);
  if (to == count) store<u32>(rec, header(5 + 4 * e), 8);
}

/** Selects encoding e (built) for rankOf. */
export function selectRanks(e: u32): bool {
  const rec = record(e);
  if (load<u32>(rec, 8) == 0) return false; // not ready
  pool = DATA_BASE + header(4 + 4 * e);
  slots = <usize>load<u32>(rec);
  mask = load<u32>(rec, 4);
  pairs = slots + (<usize>(mask + 1) << 3);
  maxLen = load<u32>(rec, 8);
  filter = pairs + PAIR_BYTES;
  cacheBase = filter + FILTER_BYTES;
  return true;
}
