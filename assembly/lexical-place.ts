// Where a document of a lexical index sits (lexical.ts): the documents linked before and after
// it, and its segment. lexical-query.ts scores a document's window (itself and its linked
// neighbours as one document) and its segment (all its documents as one).
//
//   per document id, three i32 tables of the lens table's class (-1: none)
//     prevs  the document linked before      nexts  the document linked after
//     segs   its segment
//   prevs[d] == p exactly when nexts[p] == d: a link joins both ends; a new link after p
//   replaces p's old one (its document keeps no link before).
//   per segment id, 8 bytes (the segtab, grown by doubling):
//     +-----------------------------+-----------------------+
//     | len u32: its documents'     | members u32: its live |
//     | lengths added (saturated)   | documents             |
//     +-----------------------------+-----------------------+
//   header: links (u64), the sum over linked pairs of both lengths (windows' total length is
//   total + links); segLive, segments with a live document; segTotal (u64), their lengths.

import { allocRaw, freeRaw } from "./alloc";
import {
  L_LENS, L_LENS_LOG2, L_PREVS, L_NEXTS, L_SEGS, L_SEGTAB, L_SEGTAB_LOG2, L_SEG_LIVE, L_LINKS, L_SEG_TOTAL,
} from "./lexical-layout";
const S_LEN: usize = 0;
const S_MEMBERS: usize = 4;
const MIN_SEGTAB_LOG2: i32 = 12; // 512 segments

@inline export function prevOf(h: usize, doc: usize): i32 {
  return load<i32>(<usize>load<u32>(h + L_PREVS) + (doc << 2));
}

@inline export function nextOf(h: usize, doc: usize): i32 {
  return load<i32>(<usize>load<u32>(h + L_NEXTS) + (doc << 2));
}

@inline export function segOf(h: usize, doc: usize): i32 {
  return load<i32>(<usize>load<u32>(h + L_SEGS) + (doc << 2));
}

/** Address of segment `s`'s record. */
@inline export function segRecord(h: usize, s: i32): usize {
  return <usize>load<u32>(h + L_SEGTAB) + (<usize>s << 3);
}

/**
 * The three place tables of class `k` holding the old ones' `kept` bytes (the rest -1); false when memory cannot grow
 * (nothing changed).
 */
export function coverPlaces(h: usize, k: i32, kept: usize, oldLog2: i32): bool {
  const prevs = allocRaw(k);
  const nexts: usize = prevs == 0 ? 0 : allocRaw(k);
  const segs: usize = nexts == 0 ? 0 : allocRaw(k);
  if (segs == 0) {
    if (nexts != 0) freeRaw(nexts, k);
    if (prevs != 0) freeRaw(prevs, k);
    return false;
  }
  moveTable(h + L_PREVS, prevs, k, kept, oldLog2);
  moveTable(h + L_NEXTS, nexts, k, kept, oldLog2);
  moveTable(h + L_SEGS, segs, k, kept, oldLog2);
  return true;
}

/** Moves the table whose address is at `field` to `to` (class `k`), keeping `kept` bytes, the rest -1. */
function moveTable(field: usize, to: usize, k: i32, kept: usize, oldLog2: i32): void {
  const from = <usize>load<u32>(field);
  if (from != 0) {
    memory.copy(to, from, kept);
    freeRaw(from, oldLog2);
  }
  memory.fill(to + kept, 0xff, (<usize>1 << k) - kept);
  store<u32>(field, <u32>to);
}

/** Makes the segment table cover segment `s`; false when memory cannot grow (nothing changed). */
export function coverSeg(h: usize, s: i32): bool {
  const log2 = load<i32>(h + L_SEGTAB_LOG2);
  const from = <usize>load<u32>(h + L_SEGTAB);
  if (from != 0 && <usize>s < (<usize>1 << log2) >> 3) return true;
  let k = max(log2, MIN_SEGTAB_LOG2);
  while ((<usize>1 << k) >> 3 <= <usize>s) k++;
  const to = allocRaw(k);
  if (to == 0) return false;
  const kept: usize = from != 0 ? <usize>1 << log2 : 0;
  if (from != 0) {
    memory.copy(to, from, kept);
    freeRaw(from, log2);
  }
  memory.fill(to + kept, 0, (<usize>1 << k) - kept);
  store<u32>(h + L_SEGTAB, <u32>to);
  store<i32>(h + L_SEGTAB_LOG2, k);
  return true;
}

/** Frees the place and segment tables (lexicalDrop). */
export function dropPlaces(h: usize): void {
  const log2 = load<i32>(h + L_LENS_LOG2);
  for (let at = L_PREVS; at <= L_SEGS; at += 4) if (load<u32>(h + at) != 0) freeRaw(<usize>load<u32>(h + at), log2);
  if (load<u32>(h + L_SEGTAB) != 0) freeRaw(<usize>load<u32>(h + L_SEGTAB), load<i32>(h + L_SEGTAB_LOG2));
}

/** Bytes of the place and segment tables. */
export function placeBytes(h: usize): f64 {
  let bytes: f64 = 0;
  if (load<u32>(h + L_PREVS) != 0) bytes += <f64>(3 * (<usize>1 << load<i32>(h + L_LENS_LOG2)));
  if (load<u32>(h + L_SEGTAB) != 0) bytes += <f64>(<usize>1 << load<i32>(h + L_SEGTAB_LOG2));
  return bytes;
}

/** Places document `doc` of length `len` after `prev` (a live document, or -1) and in segment `s` (covered, or -1). */
export function place(h: usize, doc: i32, len: u32, prev: i32, prevLen: u32, s: i32): void {
  const d = <usize>doc;
  const prevs = <usize>load<u32>(h + L_PREVS);
  const nexts = <usize>load<u32>(h + L_NEXTS);
  store<i32>(prevs + (d << 2), -1);
  store<i32>(nexts + (d << 2), -1);
  if (prev >= 0 && prev != doc) {
    const p = <usize>prev;
    const old = load<i32>(nexts + (p << 2));
    let links = load<u64>(h + L_LINKS);
    if (old >= 0) {
      // The newest link wins: the document linked after `prev` before loses it.
      store<i32>(prevs + (<usize>old << 2), -1);
      links -= <u64>prevLen + <u64>lenAt(h, <usize>old);
    }
    store<i32>(nexts + (p << 2), doc);
    store<i32>(prevs + (d << 2), prev);
    store<u64>(h + L_LINKS, links + <u64>prevLen + <u64>len);
  }
  store<i32>(<usize>load<u32>(h + L_SEGS) + (d << 2), s);
  if (s >= 0) {
    const r = segRecord(h, s);
    const members = load<u32>(r + S_MEMBERS);
    if (members == 0) store<i32>(h + L_SEG_LIVE, load<i32>(h + L_SEG_LIVE) + 1);
    store<u32>(r + S_MEMBERS, members + 1);
    store<u32>(r + S_LEN, <u32>min<u64>(<u64>load<u32>(r + S_LEN) + <u64>len, 0xffffffff));
    store<u64>(h + L_SEG_TOTAL, load<u64>(h + L_SEG_TOTAL) + <u64>len);
  }
}

/** Takes live document `doc` of length `len` out of its links and segment (before its length is cleared). */
export function unplace(h: usize, doc: i32, len: u32): void {
  const d = <usize>doc;
  const prevs = <usize>load<u32>(h + L_PREVS);
  const nexts = <usize>load<u32>(h + L_NEXTS);
  const p = load<i32>(prevs + (d << 2));
  if (p >= 0) {
    store<i32>(nexts + (<usize>p << 2), -1);
    store<u64>(h + L_LINKS, load<u64>(h + L_LINKS) - <u64>lenAt(h, <usize>p) - <u64>len);
  }
  const n = load<i32>(nexts + (d << 2));
  if (n >= 0) {
    store<i32>(prevs + (<usize>n << 2), -1);
    store<u64>(h + L_LINKS, load<u64>(h + L_LINKS) - <u64>len - <u64>lenAt(h, <usize>n));
  }
  store<i32>(prevs + (d << 2), -1);
  store<i32>(nexts + (d << 2), -1);
  const s = load<i32>(<usize>load<u32>(h + L_SEGS) + (d << 2));
  if (s >= 0) {
    const r = segRecord(h, s);
    const members = load<u32>(r + S_MEMBERS) - 1;
    store<u32>(r + S_MEMBERS, members);
    if (members == 0) store<i32>(h + L_SEG_LIVE, load<i32>(h + L_SEG_LIVE) - 1);
    store<u32>(r + S_LEN, load<u32>(r + S_LEN) - len);
    store<u64>(h + L_SEG_TOTAL, load<u64>(h + L_SEG_TOTAL) - <u64>len);
  }
}

/** The length of live document `d` (its lens word less one). */
@inline export function lenAt(h: usize, d: usize): u32 {
  return load<u32>(<usize>load<u32>(h + L_LENS) + (d << 2)) - 1;
}

/** A segment's length. */
@inline export function segLen(h: usize, s: i32): u32 {
  return load<u32>(segRecord(h, s) + S_LEN);
}
