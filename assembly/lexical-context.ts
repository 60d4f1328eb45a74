// A query's window and segment shares (lexical-query.ts): for one term, the windows of the
// documents holding it (each document with its linked neighbours, lexical-place.ts) scored as
// documents into the query's accumulator, and the segments holding it scored into the
// segments' accumulator. Their scratch lives here, zero between terms and queries.

import { L_LENS, L_SEGTAB_LOG2 } from "./lexical-layout";
import { nextOf, prevOf, segLen } from "./lexical-place";
import { bm25, credit, lnBm25, regrow } from "./lexical-score";

let tfs: usize = 0; // u32 per id: the term's count, zero between terms
let stamps: usize = 0; // u8 per id: the window is listed for this term, zero between terms
let windows: usize = 0; // i32 per id: the windows holding the term
let segTf: usize = 0; // u32 per segment, zero between terms
let segAcc: usize = 0; // f64 per segment, zero between queries
let segTouched: usize = 0; // i32 per segment
// The classes (log2 of the bytes) of the buffers, where regrow writes them.
const tfsLog2 = memory.data(4);
const stampsLog2 = memory.data(4);
const windowsLog2 = memory.data(4);
const segTfLog2 = memory.data(4);
const segAccLog2 = memory.data(4);
const segTouchedLog2 = memory.data(4);

/** Grows the windows' scratch for `ids` documents; false when memory cannot grow. */
export function windowScratch(ids: usize): bool {
  const f = regrow(tfs, tfsLog2, ids << 2, true);
  if (f == 0) return false;
  tfs = f;
  const st = regrow(stamps, stampsLog2, ids, true);
  if (st == 0) return false;
  stamps = st;
  const w = regrow(windows, windowsLog2, ids << 2, false);
  if (w == 0) return false;
  windows = w;
  return true;
}

/** Grows the segments' scratch for index `h`'s segment table; false when memory cannot grow. */
export function segmentScratch(h: usize): bool {
  const segs = <usize>1 << load<i32>(h + L_SEGTAB_LOG2) >> 3;
  const f = regrow(segTf, segTfLog2, segs << 2, true);
  if (f == 0) return false;
  segTf = f;
  const sa = regrow(segAcc, segAccLog2, segs << 3, true);
  if (sa == 0) return false;
  segAcc = sa;
  const st = regrow(segTouched, segTouchedLog2, segs << 2, false);
  if (st == 0) return false;
  segTouched = st;
  return true;
}

/** Segment `g`'s score, and zero it (every segment scored holds a touched document, so each is read). */
@inline export function segmentScore(g: i32): f64 {
  return load<f64>(segAcc + (<usize>g << 3));
}

/** Zeroes segment `g`'s score. */
@inline export function clearSegment(g: i32): void {
  store<f64>(segAcc + (<usize>g << 3), 0);
}

/** Lists window `y` (a document id, or -1) for the term, once; returns the windows listed. */
@inline function listWindow(y: i32, nw: usize): usize {
  if (y < 0 || load<u8>(stamps + <usize>y) != 0) return nw;
  store<u8>(stamps + <usize>y, 1);
  store<i32>(windows + (nw << 2), y);
  return nw + 1;
}

/** One term's window shares: the windows of its postings' documents, each scored as one document. */
export function scoreWindows(
  h: usize, postings: usize, df: i32, qtf: u32, docs: f64, avgwl: f64, k1: f64, b: f64, window: f64,
  acc: usize, touched: usize, m: usize,
): usize {
  const lens = <usize>load<u32>(h + L_LENS);
  let nw: usize = 0;
  for (let j = 0; j < df; j++) {
    const p = load<u32>(postings + (<usize>j << 2));
    const doc = <usize>(p >>> 8);
    store<u32>(tfs + (doc << 2), p & 0xff);
    nw = listWindow(<i32>doc, nw);
    nw = listWindow(prevOf(h, doc), nw);
    nw = listWindow(nextOf(h, doc), nw);
  }
  const ww = window * (<f64>qtf * lnBm25(1 + (docs - <f64>nw + 0.5) / (<f64>nw + 0.5)));
  for (let at: usize = 0; at < nw; at++) {
    const y = <usize>load<i32>(windows + (at << 2));
    const pv = prevOf(h, y);
    const nx = nextOf(h, y);
    let wtf = load<u32>(tfs + (y << 2));
    let wl = load<u32>(lens + (y << 2)) - 1;
    if (pv >= 0) {
      wtf += load<u32>(tfs + (<usize>pv << 2));
      wl += load<u32>(lens + (<usize>pv << 2)) - 1;
    }
    if (nx >= 0) {
      wtf += load<u32>(tfs + (<usize>nx << 2));
      wl += load<u32>(lens + (<usize>nx << 2)) - 1;
    }
    m = credit(acc, touched, y, bm25(ww, <f64>wtf, <f64>wl, avgwl, k1, b), m);
  }
  for (let j = 0; j < df; j++) store<u32>(tfs + (<usize>(load<u32>(postings + (<usize>j << 2)) >>> 8) << 2), 0);
  for (let at: usize = 0; at < nw; at++) store<u8>(stamps + <usize>load<i32>(windows + (at << 2)), 0);
  return m;
}

/** One term's segment shares, into segAcc. */
export function scoreSegments(
  h: usize, segs: usize, postings: usize, df: i32, qtf: u32, segLive: f64, avgsl: f64, k1: f64, b: f64, segment: f64,
): void {
  let ms: usize = 0;
  for (let j = 0; j < df; j++) {
    const p = load<u32>(postings + (<usize>j << 2));
    const g = load<i32>(segs + (<usize>(p >>> 8) << 2));
    if (g < 0) continue;
    const slot = segTf + (<usize>g << 2);
    const before = load<u32>(slot);
    if (before == 0) {
      store<i32>(segTouched + (ms << 2), g);
      ms++;
    }
    store<u32>(slot, before + (p & 0xff));
  }
  const ws = segment * (<f64>qtf * lnBm25(1 + (segLive - <f64>ms + 0.5) / (<f64>ms + 0.5)));
  for (let at: usize = 0; at < ms; at++) {
    const g = load<i32>(segTouched + (at << 2));
    const slot = segAcc + (<usize>g << 3);
    const tf = <f64>load<u32>(segTf + (<usize>g << 2));
    store<f64>(slot, load<f64>(slot) + bm25(ws, tf, <f64>segLen(h, g), avgsl, k1, b));
    store<u32>(segTf + (<usize>g << 2), 0);
  }
}
