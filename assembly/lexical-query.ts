// BM25 over an index of lexical.ts: one call scores a query's terms and returns the top k.
//
//   score(d) = sum over the query's terms t, in the order given, of
//              bm25(qtf * idf(N, df), tf, dl, avgdl)
//              + window * bm25(qtf * idf(N, wdf), wtf, wl, avgwl)     (when window > 0)
//            + segment score of d's segment                             (when segment > 0)
//   bm25(w, tf, dl, avg) = w * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * (dl / avg))))
//   idf(N, df) = ln(1 + (N - df + 0.5) / (df + 0.5))                     (never negative)
//
// N the documents indexed, df those holding t, tf its count in d (saturated at 255), dl the
// length of d, avgdl the mean length, qtf the term's count in the query. d's window is d and
// its linked neighbours (lexical-place.ts) as one document: wtf and wl their counts and
// lengths added, wdf the windows holding t, avgwl the mean window length. A segment is scored
// as a document of its documents (its tf, length, df among the live segments, their mean
// length): segment * bm25(...) summed over the terms, added to each of its documents scored.
// A document whose window alone holds a term is scored too. Everything is f64,
// in exactly this order, and ln is computed with + - * / only (lexical-score.ts; a runtime's Math.log
// may differ in the last bit): the TypeScript twin (src/engine/lexical-js.ts) repeats the
// same operations, so both engines return bitwise identical scores.
//
// Term at a time: each posting adds its term's share to the document's slot of a dense
// accumulator (f64 per id, shared by every index, grown to the largest); a slot's first
// share (always > 0) puts the id on the touched list. A heap of k then keeps the best
// touched documents (its root the worst: lower score, or equal score and higher id) and is
// sorted best first, score descending, id ascending: a total order, so the answer does not
// depend on the order of postings. Slots are zeroed again as they are read.

import { lexicalHeader, findTerm, T_DF, T_POSTINGS } from "./lexical";
import { L_LENS, L_LENS_LOG2, L_LIVE, L_TOTAL, L_LINKS, L_SEG_LIVE, L_SEG_TOTAL, L_SEGS } from "./lexical-layout";
import {
  clearSegment, scoreSegments, scoreWindows, segmentScore, segmentScratch, windowScratch,
} from "./lexical-context";
import { bm25, credit, lnBm25, regrow, siftDown, siftUp, swap, worse } from "./lexical-score";

export { lnBm25 } from "./lexical-score";

let input: usize = 0;
let work: usize = 0; // the result: scores f64 * k, then ids i32 * k
let acc: usize = 0; // f64 per id, zero between queries
let touched: usize = 0; // i32 per id
const inputLog2 = memory.data(4);
const workLog2 = memory.data(4);
const accLog2 = memory.data(4);
const touchedLog2 = memory.data(4);

/**
 * Makes room for `bytes` in the input buffer (a document's terms, ids to remove, a query); its address, or 0 when
 * memory cannot grow.
 */
export function lexicalInput(bytes: usize): usize {
  const next = regrow(input, inputLog2, bytes, false);
  if (next != 0) input = next;
  return next;
}

/** Address of the last query's result: scores (f64 * k), then ids (i32 * k). */
export function lexicalResults(): usize {
  return work;
}

/**
 * The `k` documents scoring best for the `n` query terms at `src` (n hashes u32, then n
 * counts u32; a count of 0 skips its term), best first; returns how many (the result at
 * `lexicalResults()`), or -1 when memory cannot grow. k1 >= 0, 0 <= b <= 1, window and
 * segment >= 0 (0: not scored). O(postings of the query's terms + touched * log k).
 */
export function lexicalQuery(x: i32, n: i32, src: usize, k: i32, k1: f64, b: f64, window: f64, segment: f64): i32 {
  const h = lexicalHeader(x);
  const next = regrow(work, workLog2, <usize>k * 12, false);
  if (next == 0) return -1;
  work = next;
  const live = load<i32>(h + L_LIVE);
  if (k == 0 || live == 0) return 0;
  const segLive = load<i32>(h + L_SEG_LIVE);
  const segmented = segment > 0 && segLive > 0;
  const ids = <usize>1 << load<i32>(h + L_LENS_LOG2) >> 2;
  const a = regrow(acc, accLog2, ids << 3, true);
  if (a == 0) return -1;
  acc = a;
  const t = regrow(touched, touchedLog2, ids << 2, false);
  if (t == 0) return -1;
  touched = t;
  if ((window > 0 && !windowScratch(ids)) || (segmented && !segmentScratch(h))) return -1;

  const docs = <f64>live;
  const total = load<u64>(h + L_TOTAL);
  const avgdl = <f64>total / docs;
  const avgwl = <f64>(total + load<u64>(h + L_LINKS)) / docs;
  const avgsl = segLive > 0 ? <f64>load<u64>(h + L_SEG_TOTAL) / <f64>segLive : 1;
  const lens = <usize>load<u32>(h + L_LENS);
  const segs = <usize>load<u32>(h + L_SEGS);
  const counts = src + (<usize>n << 2);
  let m: usize = 0;
  for (let i = 0; i < n; i++) {
    const qtf = load<u32>(counts + (<usize>i << 2));
    if (qtf == 0) continue;
    const r = findTerm(h, load<u32>(src + (<usize>i << 2)));
    if (r == 0) continue;
    const df = load<i32>(r + T_DF);
    if (df == 0) continue;
    const w = <f64>qtf * lnBm25(1 + (docs - <f64>df + 0.5) / (<f64>df + 0.5));
    const postings = <usize>load<u32>(r + T_POSTINGS);
    for (let j = 0; j < df; j++) {
      const p = load<u32>(postings + (<usize>j << 2));
      const doc = <usize>(p >>> 8);
      const dl = <f64>(load<u32>(lens + (doc << 2)) - 1);
      m = credit(acc, touched, doc, bm25(w, <f64>(p & 0xff), dl, avgdl, k1, b), m);
    }
    if (window > 0) m = scoreWindows(h, postings, df, qtf, docs, avgwl, k1, b, window, acc, touched, m);
    if (segmented) scoreSegments(h, segs, postings, df, qtf, <f64>segLive, avgsl, k1, b, segment);
  }

  const scores = work;
  const out = work + (<usize>k << 3);
  const cap = <usize>k;
  let count: usize = 0;
  for (let i: usize = 0; i < m; i++) {
    const doc = load<i32>(touched + (i << 2));
    const slot = acc + (<usize>doc << 3);
    const g = segmented ? load<i32>(segs + (<usize>doc << 2)) : -1;
    const s = g >= 0 ? load<f64>(slot) + segmentScore(g) : load<f64>(slot);
    store<f64>(slot, 0);
    if (count < cap) {
      store<f64>(scores + (count << 3), s);
      store<i32>(out + (count << 2), doc);
      siftUp(scores, out, count);
      count++;
    } else if (!worse(s, doc, load<f64>(scores), load<i32>(out))) {
      store<f64>(scores, s);
      store<i32>(out, doc);
      siftDown(scores, out, 0, count);
    }
  }
  if (segmented) {
    // Every segment scored holds a touched document.
    for (let i: usize = 0; i < m; i++) {
      const g = load<i32>(segs + (<usize>load<i32>(touched + (i << 2)) << 2));
      if (g >= 0) clearSegment(g);
    }
  }
  for (let e = count; e > 1; ) {
    e--;
    swap(scores, out, 0, e);
    siftDown(scores, out, 0, e);
  }
  return <i32>count;
}

