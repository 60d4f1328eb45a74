// An inverted index over hashed terms, one per recall scope: recall's lexical channel.
// Strings never cross: the TypeScript side tokenizes a message and hands over its distinct
// term hashes (u32) and their counts; lexical-query.ts scores a query's terms with BM25.
//
//   index header (one per handle, in the index table): see lexical-layout.ts
//
// terms    an open-addressing table (linear probing) of 16-byte term records, at most half
//          full, 1 << (terms log2) bytes:
//            +-----------+-----+------------------------------+-------------+
//            | hash u32  | df  | log2 of the postings block   | postings    |
//            |           |     | (0: empty record, -1: none)  | address     |
//            +-----------+-----+------------------------------+-------------+
//          A term keeps its record once seen (df 0 when its documents were removed).
// postings one block per term (grown by doubling, at least 16 bytes), df entries of u32:
//          (doc << 8) | tf, tf the term's count in the document, saturated at 255 (BM25's
//          term-frequency saturation makes the difference past 255 a fraction of a percent).
//          In no particular order: a score does not depend on it.
// lens     the length of document d (the sum of its term counts) plus one at word d, 0 for
//          no document: documents are the caller's small integer ids (a recall scope's
//          keys), below MAX_DOCS; the table covers ids up to the largest seen.
// live     documents indexed; total: the sum of their lengths (for the average).
//
// links, segments: lexical-place.ts.
//
// Memory a document costs: 4 bytes for its length and 12 for its place (links, segment), 4
// bytes a distinct term (its posting) in blocks that double (so up to 8), and the records of
// the terms it brings first (16 bytes, table at most half full). The query's scratch
// (lexical-query.ts) is shared by every index: 12 bytes per id of the largest index queried,
// 21 with windows.

import { allocRaw, freeRaw, takeHandle, dropHandle, entryOf } from "./alloc";
import { HEADER_BYTES, L_TERMS, L_TERMS_LOG2, L_USED, L_LENS, L_LENS_LOG2, L_LIVE, L_TOTAL } from "./lexical-layout";
import { coverPlaces, coverSeg, dropPlaces, place, unplace } from "./lexical-place";

export const RECORD: usize = 16;
export const T_HASH: usize = 0;
export const T_DF: usize = 4;
export const T_LOG2: usize = 8;
export const T_POSTINGS: usize = 12;

/** Document ids are below this (24 bits of a posting). */
export const MAX_DOCS: i32 = 1 << 24;
export const MAX_TF: u32 = 255;
const MIN_TERMS_LOG2: i32 = 10; // 64 records
const MIN_LENS_LOG2: i32 = 12; // 1024 ids
const MIN_POSTINGS_LOG2: i32 = 4; // 4 postings

/** What lexicalAdd returns instead of 0 (nothing was changed): */
export const LEXICAL_OUT_OF_MEMORY: i32 = -1;
export const LEXICAL_BAD_DOC: i32 = -2;
export const LEXICAL_PRESENT: i32 = -3;

const lexicals = memory.data<i32>([0, 0, 0, -1]); // see alloc.ts's handle tables

@inline export function lexicalHeader(x: i32): usize {
  return entryOf(lexicals, HEADER_BYTES, x);
}

/** A new empty index; -1 when memory cannot grow. O(1). */
export function lexicalCreate(): i32 {
  const x = takeHandle(lexicals, HEADER_BYTES);
  if (x < 0) return -1;
  memory.fill(lexicalHeader(x), 0, HEADER_BYTES);
  return x;
}

/** Frees an index's blocks; the handle may be reused. O(terms). */
export function lexicalDrop(x: i32): void {
  const h = lexicalHeader(x);
  const table = <usize>load<u32>(h + L_TERMS);
  if (table != 0) {
    const end = table + (<usize>1 << load<i32>(h + L_TERMS_LOG2));
    for (let r = table; r < end; r += RECORD) {
      if (load<i32>(r + T_LOG2) > 0) freeRaw(<usize>load<u32>(r + T_POSTINGS), load<i32>(r + T_LOG2));
    }
    freeRaw(table, load<i32>(h + L_TERMS_LOG2));
  }
  dropPlaces(h);
  const lens = <usize>load<u32>(h + L_LENS);
  if (lens != 0) freeRaw(lens, load<i32>(h + L_LENS_LOG2));
  dropHandle(lexicals, HEADER_BYTES, x);
}

/** Documents indexed. O(1). */
export function lexicalDocs(x: i32): i32 {
  return load<i32>(lexicalHeader(x) + L_LIVE);
}

/** Whether document `doc` is indexed. O(1). */
export function lexicalHas(x: i32, doc: i32): bool {
  return lenOf(lexicalHeader(x), doc) != 0;
}

/** Length + 1 of document `doc`, 0 when absent (or out of the table). */
@inline export function lenOf(h: usize, doc: i32): u32 {
  const lens = <usize>load<u32>(h + L_LENS);
  if (doc < 0 || lens == 0 || <usize>doc >= (<usize>1 << load<i32>(h + L_LENS_LOG2)) >> 2) return 0;
  return load<u32>(lens + (<usize>doc << 2));
}

/** Where a hash's search starts: its record slot (Fibonacci hashing, as term hashes may be poorly mixed). */
@inline function home(hash: u32, log2: i32): usize {
  return <usize>((hash * 0x9e3779b1) >>> (32 - (log2 - 4))) * RECORD;
}

/** The record of `hash`, or 0. O(1) expected. */
export function findTerm(h: usize, hash: u32): usize {
  const table = <usize>load<u32>(h + L_TERMS);
  if (table == 0) return 0;
  const log2 = load<i32>(h + L_TERMS_LOG2);
  const mask = (<usize>1 << log2) - 1;
  for (let at = home(hash, log2); ; at = (at + RECORD) & mask) {
    const r = table + at;
    if (load<i32>(r + T_LOG2) == 0) return 0;
    if (load<u32>(r + T_HASH) == hash) return r;
  }
  return 0; // not reached: the table is never full
}

/** Moves the term table to one of 1 << log2 bytes; false when memory cannot grow (nothing changed). */
function rehash(h: usize, log2: i32): bool {
  const to = allocRaw(log2);
  if (to == 0) return false;
  memory.fill(to, 0, <usize>1 << log2);
  const from = <usize>load<u32>(h + L_TERMS);
  const mask = (<usize>1 << log2) - 1;
  if (from != 0) {
    const end = from + (<usize>1 << load<i32>(h + L_TERMS_LOG2));
    for (let r = from; r < end; r += RECORD) {
      if (load<i32>(r + T_LOG2) == 0) continue;
      let at = home(load<u32>(r + T_HASH), log2);
      while (load<i32>(to + at + T_LOG2) != 0) at = (at + RECORD) & mask;
      memory.copy(to + at, r, RECORD);
    }
    freeRaw(from, load<i32>(h + L_TERMS_LOG2));
  }
  store<u32>(h + L_TERMS, <u32>to);
  store<i32>(h + L_TERMS_LOG2, log2);
  return true;
}

/** The record of `hash`, made (df 0, no postings) when absent; 0 when memory cannot grow. */
function termOf(h: usize, hash: u32): usize {
  const found = findTerm(h, hash);
  if (found != 0) return found;
  const used = load<i32>(h + L_USED);
  const log2 = load<i32>(h + L_TERMS_LOG2);
  if (load<u32>(h + L_TERMS) == 0 || (<usize>(used + 1) * RECORD << 1) > (<usize>1 << log2)) {
    if (log2 >= 31 || !rehash(h, max(log2 + 1, MIN_TERMS_LOG2))) return 0;
  }
  const table = <usize>load<u32>(h + L_TERMS);
  const mask = (<usize>1 << load<i32>(h + L_TERMS_LOG2)) - 1;
  let at = home(hash, load<i32>(h + L_TERMS_LOG2));
  while (load<i32>(table + at + T_LOG2) != 0) at = (at + RECORD) & mask;
  const r = table + at;
  store<u32>(r + T_HASH, hash);
  store<i32>(r + T_DF, 0);
  store<i32>(r + T_LOG2, -1);
  store<u32>(r + T_POSTINGS, 0);
  store<i32>(h + L_USED, used + 1);
  return r;
}

/** Makes room in a term's postings for one more; false when memory cannot grow (nothing changed). */
function roomFor(r: usize): bool {
  const df = load<i32>(r + T_DF);
  const log2 = load<i32>(r + T_LOG2);
  if (log2 > 0 && (<usize>(df + 1) << 2) <= (<usize>1 << log2)) return true;
  const k = log2 > 0 ? log2 + 1 : MIN_POSTINGS_LOG2;
  const to = allocRaw(k);
  if (to == 0) return false;
  if (log2 > 0) {
    const from = <usize>load<u32>(r + T_POSTINGS);
    memory.copy(to, from, <usize>df << 2);
    freeRaw(from, log2);
  }
  store<u32>(r + T_POSTINGS, <u32>to);
  store<i32>(r + T_LOG2, k);
  return true;
}

/** Makes the length and place tables cover id `doc`; false when memory cannot grow (nothing changed). */
function coverDoc(h: usize, doc: i32): bool {
  const log2 = load<i32>(h + L_LENS_LOG2);
  const from = <usize>load<u32>(h + L_LENS);
  if (from != 0 && <usize>doc < (<usize>1 << log2) >> 2) return true;
  let k = max(log2, MIN_LENS_LOG2);
  while ((<usize>1 << k) >> 2 <= <usize>doc) k++;
  const to = allocRaw(k);
  if (to == 0) return false;
  const kept: usize = from != 0 ? <usize>1 << log2 : 0;
  if (!coverPlaces(h, k, kept, log2)) {
    freeRaw(to, k);
    return false;
  }
  if (from != 0) {
    memory.copy(to, from, kept);
    freeRaw(from, log2);
  }
  memory.fill(to + kept, 0, (<usize>1 << k) - kept);
  store<u32>(h + L_LENS, <u32>to);
  store<i32>(h + L_LENS_LOG2, k);
  return true;
}

/**
 * Indexes document `doc` (0 <= doc < MAX_DOCS, not indexed yet) with `n` terms: `n` hashes
 * (u32) at `src`, then their `n` counts (u32), linked after document `prev` when it is indexed
 * (-1: none) and in segment `seg` (-1: none; below MAX_DOCS). A term given twice counts twice;
 * a count of 0 is skipped. Returns 0, or LEXICAL_BAD_DOC, LEXICAL_PRESENT,
 * LEXICAL_OUT_OF_MEMORY (nothing indexed: room is made for every posting before the first is
 * written). O(n) expected.
 */
export function lexicalAdd(x: i32, doc: i32, n: i32, src: usize, prev: i32, seg: i32): i32 {
  if (doc < 0 || doc >= MAX_DOCS || seg >= MAX_DOCS) return LEXICAL_BAD_DOC;
  const h = lexicalHeader(x);
  if (lenOf(h, doc) != 0) return LEXICAL_PRESENT;
  if (!coverDoc(h, doc)) return LEXICAL_OUT_OF_MEMORY;
  if (seg >= 0 && !coverSeg(h, seg)) return LEXICAL_OUT_OF_MEMORY;
  const counts = src + (<usize>n << 2);
  for (let i = 0; i < n; i++) {
    if (load<u32>(counts + (<usize>i << 2)) == 0) continue;
    const r = termOf(h, load<u32>(src + (<usize>i << 2)));
    if (r == 0 || !roomFor(r)) return LEXICAL_OUT_OF_MEMORY;
  }
  let length: u64 = 0;
  for (let i = 0; i < n; i++) {
    const count = load<u32>(counts + (<usize>i << 2));
    if (count == 0) continue;
    length += count;
    const r = findTerm(h, load<u32>(src + (<usize>i << 2)));
    const df = load<i32>(r + T_DF);
    const postings = <usize>load<u32>(r + T_POSTINGS);
    const last = postings + (<usize>(df - 1) << 2);
    if (df > 0 && load<u32>(last) >>> 8 == <u32>doc) {
      // The same term again in this document: its counts add up.
      store<u32>(last, (<u32>doc << 8) | min<u32>((load<u32>(last) & 0xff) + min<u32>(count, MAX_TF), MAX_TF));
      continue;
    }
    store<u32>(postings + (<usize>df << 2), (<u32>doc << 8) | min<u32>(count, MAX_TF));
    store<i32>(r + T_DF, df + 1);
  }
  const len = <u32>min<u64>(length, 0xfffffffe);
  const prevLen = lenOf(h, prev);
  place(h, doc, len, prevLen != 0 ? prev : -1, prevLen - 1, seg);
  store<u32>(<usize>load<u32>(h + L_LENS) + (<usize>doc << 2), len + 1);
  store<i32>(h + L_LIVE, load<i32>(h + L_LIVE) + 1);
  store<u64>(h + L_TOTAL, load<u64>(h + L_TOTAL) + <u64>len);
  return 0;
}

/**
 * Removes the documents whose `n` ids (i32) are at `src` (ids not indexed are skipped) and
 * returns how many were. One sweep over every posting of the index: O(postings), whatever n.
 */
export function lexicalRemove(x: i32, n: i32, src: usize): i32 {
  const h = lexicalHeader(x);
  let removed = 0;
  for (let i = 0; i < n; i++) {
    const doc = load<i32>(src + (<usize>i << 2));
    const len = lenOf(h, doc);
    if (len == 0) continue;
    unplace(h, doc, len - 1);
    store<u32>(<usize>load<u32>(h + L_LENS) + (<usize>doc << 2), 0);
    store<u64>(h + L_TOTAL, load<u64>(h + L_TOTAL) - <u64>(len - 1));
    removed++;
  }
  if (removed == 0) return 0;
  store<i32>(h + L_LIVE, load<i32>(h + L_LIVE) - removed);
  const table = <usize>load<u32>(h + L_TERMS);
  const end = table + (<usize>1 << load<i32>(h + L_TERMS_LOG2));
  const lens = <usize>load<u32>(h + L_LENS);
  for (let r = table; r < end; r += RECORD) {
    if (load<i32>(r + T_LOG2) <= 0) continue;
    const postings = <usize>load<u32>(r + T_POSTINGS);
    const df = load<i32>(r + T_DF);
    let kept = 0;
    for (let i = 0; i < df; i++) {
      const p = load<u32>(postings + (<usize>i << 2));
      if (load<u32>(lens + (<usize>(p >>> 8) << 2)) == 0) continue;
      store<u32>(postings + (<usize>kept << 2), p);
      kept++;
    }
    store<i32>(r + T_DF, kept);
    if (kept == 0) {
      // Its documents are gone: the record stays (probe chains run through it), the block goes.
      freeRaw(postings, load<i32>(r + T_LOG2));
      store<i32>(r + T_LOG2, -1);
      store<u32>(r + T_POSTINGS, 0);
    }
  }
  return removed;
}
