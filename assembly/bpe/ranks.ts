// Rank lookup: byte sequence -> rank, one open-addressing hash table per encoding, built by
// `buildRanks` from the lengths and pool the build put in memory.
//
// Slot (u32): tag (hash bits 18..31) << 18 | (rank + 1), or EMPTY (0: memory fresh from a grow
// needs no clearing). A lookup compares bytes only on a tag match. offsets[r] (u32) is where rank r's bytes start in the pool; offsets[count] the end.

import { DATA_BASE, header, reach } from "./layout";

export const NONE: u32 = 0xffffffff;
const EMPTY: u32 = 0;
const RANK_BITS: u32 = 18;
const RANK_MASK: u32 = (1 << RANK_BITS) - 1;

// The encoding being counted.
let pool: usize = 0;
let offsets: usize = 0;
let slots: usize = 0;
let mask: u32 = 0;
let maxLen: u32 = 0;

// Per encoding (0: o200k_base, 1: cl100k_base): offsets, slots, mask (0 until laid out), and
// its longest token (0 until every rank is inserted).
const built = memory.data(2 * 4 * 4);

@inline function hashBytes(p: usize, n: u32): u32 {
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

@inline function sameBytes(a: usize, b: usize, n: u32): bool {
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

/** The rank of the n bytes at p in the selected encoding, or NONE. */
export function rankOf(p: usize, n: u32): u32 {
  if (n > maxLen) return NONE;
  const h = hashBytes(p, n);
  const tag = h >>> RANK_BITS;
  let i = h & mask;
  let s = load<u32>(slots + (<usize>i << 2));
  while (s != EMPTY) {
    if (s >>> RANK_BITS == tag) {
      const r = (s & RANK_MASK) - 1;
      const at = load<u32>(offsets + (<usize>r << 2));
      if (load<u32>(offsets + (<usize>(r + 1) << 2)) - at == n && sameBytes(pool + at, p, n)) return r;
    }
    i = (i + 1) & mask;
    s = load<u32>(slots + (<usize>i << 2));
  }
  return NONE;
}

/**
 * Lays out encoding e's table at `top` (once): offsets, and empty slots; insertRanks fills it.
 * Returns the new top, or 0 when memory cannot grow.
 */
export function buildRanks(e: u32, top: usize, dirtyEnd: usize): usize {
  const rec = built + (<usize>e << 4);
  if (load<u32>(rec) != 0) return top;
  const count = header(2 + 4 * e);
  const lengths = DATA_BASE + header(3 + 4 * e);
  let size: u32 = 1024;
  while (size < count * 2) size <<= 1; // load factor below 1/2
  const offs = (top + 7) & ~7;
  const table = (offs + (<usize>(count + 1) << 2) + 7) & ~7;
  const end = table + (<usize>size << 2);
  if (!reach(end)) return 0;
  if (dirtyEnd > table) memory.fill(table, 0, min(end, dirtyEnd) - table); // once an input buffer
  let at: u32 = 0;
  for (let r: u32 = 0; r < count; r++) {
    store<u32>(offs + (<usize>r << 2), at);
    at += <u32>load<u8>(lengths + r);
  }
  store<u32>(offs + (<usize>count << 2), at);
  store<u32>(rec, <u32>offs);
  store<u32>(rec, <u32>table, 4);
  store<u32>(rec, size - 1, 8);
  return end;
}

/**
 * Hashes ranks [from, to) of encoding e into its table; when `to` is the last, the encoding is
 * ready. (The caller goes in slices: after the first ones, the engine runs its optimized code.)
 */
export function insertRanks(e: u32, from: u32, to: u32): void {
  const rec = built + (<usize>e << 4);
  if (load<u32>(rec) == 0 || load<u32>(rec, 12) != 0) return; // not laid out, or ready
  const count = header(2 + 4 * e);
  if (to > count) to = count;
  const bytes = DATA_BASE + header(4 + 4 * e);
  const offs = <usize>load<u32>(rec);
  const table = <usize>load<u32>(rec, 4);
  const m = load<u32>(rec, 8);
  for (let r = from; r < to; r++) {
    const at = load<u32>(offs + (<usize>r << 2));
    const n = load<u32>(offs + (<usize>(r + 1) << 2)) - at;
    if (n == 0) continue;
    const h = hashBytes(bytes + at, n);
    let i = h & m;
    while (load<u32>(table + (<usize>i << 2)) != EMPTY) i = (i + 1) & m;
    store<u32>(table + (<usize>i << 2), ((h >>> RANK_BITS) << RANK_BITS) | (r + 1));
  }
  if (to == count) store<u32>(rec, header(5 + 4 * e), 12);
}

/** Selects encoding e (built) for rankOf. */
export function selectRanks(e: u32): bool {
  const rec = built + (<usize>e << 4);
  if (load<u32>(rec, 12) == 0) return false; // not ready
  pool = DATA_BASE + header(4 + 4 * e);
  offsets = <usize>load<u32>(rec);
  slots = <usize>load<u32>(rec, 4);
  mask = load<u32>(rec, 8);
  maxLen = load<u32>(rec, 12);
  return true;
}
