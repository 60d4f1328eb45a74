// The record of one text's pieces, written by one counting pass (measure.ts) so that later
// questions about the same text (the count of a slice, where to cut it) are answered from it
// instead of merging again. Entries, back to back, one per piece in text order:
//   start u32 (byte offset from the text's start) | count u32 (its tokens; top bit: ends follow)
//   [ end u32 of each token, from the piece's start ]   (long pieces only: merged once, whole)
// A piece ends where the next starts (the last at the text's end). Where the tokens of a short
// piece end is asked only of the piece a cut falls in: its bytes are merged again then.
//
// What makes a slice's count cheap: inside one piece, the merges never cross a token boundary
// of the piece's result (a merge across it would have happened), so the merges of the bytes
// between two of its token boundaries are exactly the piece's own merges there. A slice
// [a, b) of a piece, a its start or a token end and b a token end, is therefore the tokens
// between them (unless those bytes are one token by themselves: then 1, as tiktoken counts a
// piece found whole).

import { keep, mergeEnds, room } from "./merge";

let text: usize = 0;
let size: u32 = 0;
let first: usize = 0;
let end: usize = 0;
let cursor: usize = 0;
/** The entry whose token ends are at `ends` (0: none). */
let endsOf: usize = 0;
let ends: usize = 0;

/** Starts an empty record at `at` of the n bytes at `at`. */
export function clearRecord(at: usize, textAt: usize, n: u32): void {
  text = textAt;
  size = n;
  first = at;
  end = at;
  cursor = at;
  endsOf = 0;
  keep(at + 8);
}

/** Drops the record (its text changed). */
export function dropRecord(): void {
  size = 0;
  end = first;
  cursor = first;
  endsOf = 0;
  keep(0);
}

export function recordFirst(): usize {
  return first;
}
export function recordEnd(): usize {
  return end;
}

const HAS_ENDS: u32 = 0x80000000;

/** Appends the entry of the piece at `start` of `count` tokens; false when memory ran out. */
export function commit(start: u32, count: u32): bool {
  if (!room(end + 16)) return false;
  store<u32>(end, start);
  store<u32>(end, count, 4);
  end += 8;
  keep(end + 8); // (and the next entry: the merge of its piece runs before it is written)
  return true;
}

/** Where a long piece of n bytes writes its token ends (then commitEnds); 0 when memory ran out. */
export function endsSlot(n: u32): usize {
  const at = end + 8;
  if (!room(at + (<usize>n << 2) + 8)) return 0;
  keep(at + (<usize>n << 2));
  return at;
}

/** Appends the entry of the piece at `start` whose `count` token ends are at endsSlot(). */
export function commitEnds(start: u32, count: u32): void {
  store<u32>(end, start);
  store<u32>(end, count | HAS_ENDS, 4);
  end += 8 + (<usize>count << 2);
  keep(end + 8);
}

@inline export function entryStart(e: usize): u32 {
  return load<u32>(e);
}
@inline export function entryCount(e: usize): u32 {
  return load<u32>(e, 4) & ~HAS_ENDS;
}
@inline export function nextEntry(e: usize): usize {
  const c = load<u32>(e, 4);
  return e + 8 + ((c & HAS_ENDS) != 0 ? <usize>(c & ~HAS_ENDS) << 2 : 0);
}
@inline export function entryEnd(e: usize): u32 {
  const next = nextEntry(e);
  return next < end ? load<u32>(next) : size;
}

/** The entry holding byte offset o (its start <= o < its end), or 0 past the record. */
export function entryAt(o: u32): usize {
  let e = cursor;
  if (e >= end || entryStart(e) > o) e = first;
  while (e < end && entryEnd(e) <= o) e = nextEntry(e);
  cursor = e;
  return e < end ? e : 0;
}

/**
 * Where each token of entry e ends (u32 byte offsets from the piece's start, `entryCount(e)`
 * of them), its piece merged again (once: the last asked is kept); 0 when memory ran out.
 */
export function tokenEnds(e: usize): usize {
  if ((load<u32>(e, 4) & HAS_ENDS) != 0) return e + 8;
  if (e == endsOf) return ends;
  const start = entryStart(e);
  const n = entryEnd(e) - start;
  const at = (end + 15) & ~15;
  if (!room(at + (<usize>n << 2))) return 0;
  keep(at + (<usize>n << 2));
  mergeEnds(text + start, n, at);
  ends = at;
  endsOf = e;
  return at;
}

/** End of token i (0-based) of entry e, as an offset from the text's start; 0xffffffff when memory ran out. */
export function tokenEnd(e: usize, i: u32): u32 {
  if (i + 1 == entryCount(e)) return entryEnd(e);
  const at = tokenEnds(e);
  return at == 0 ? 0xffffffff : entryStart(e) + load<u32>(at + (<usize>i << 2));
}

/** Index (1-based) of the token of entry e ending at o, 0 for its start, -1 for neither (-2: out of memory). */
function boundary(e: usize, o: u32): i32 {
  if (o == entryStart(e)) return 0;
  const count = entryCount(e);
  if (o == entryEnd(e)) return <i32>count;
  if (count == 1) return -1;
  const at = tokenEnds(e);
  if (at == 0) return -2;
  const local = o - entryStart(e);
  let lo: u32 = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = load<u32>(at + (<usize>mid << 2));
    if (v == local) return <i32>mid + 1;
    if (v < local) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/**
 * Tokens of the n bytes at offset o when they are a recorded piece (its count), or run
 * between token boundaries of one recorded piece (see above: the tokens between, unless the
 * caller finds them one token by themselves), else -1.
 */
export function knownTokens(o: u32, n: u32): i32 {
  const e = entryAt(o);
  if (e == 0) return -1;
  const to = entryEnd(e);
  if (o + n > to) return -1;
  if (o == entryStart(e) && o + n == to) return <i32>entryCount(e);
  const a = boundary(e, o);
  if (a < 0) return -1;
  const b = boundary(e, o + n);
  if (b < 0) return -1;
  return b - a;
}
