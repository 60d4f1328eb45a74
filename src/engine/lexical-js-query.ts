import { termWeight, type LexicalHits, type LexicalScoring } from "./lexical.js";

// The TypeScript twin of assembly/lexical-query.ts: a query's scores, term at a time, with
// the core's operations in the core's order (see there for the formulas).

export interface Postings {
  docs: number[];
  tfs: number[];
}

/** One index of the TypeScript twin (lexical-js.ts). */
export interface JsLexicalState {
  terms: Map<number, Postings>;
  /** Length + 1 of each document id, 0 for none. */
  lens: Uint32Array;
  /** The linked document before / after each one, -1 for none (prev[d] = p exactly when next[p] = d). */
  prev: Int32Array;
  next: Int32Array;
  /** Each document's segment, -1 for none. */
  seg: Int32Array;
  live: number;
  total: number;
  /** The sum over linked pairs of both lengths: windows' total length is total + links. */
  links: number;
  segLens: Uint32Array;
  segMembers: Uint32Array;
  segLive: number;
  segTotal: number;
}

/** Buffers shared by every index's queries, zero between them (stamp: the last term that saw a window). */
export interface Scratch {
  acc: Float64Array;
  touched: Int32Array;
  tf: Uint32Array;
  stamp: Int32Array;
  segTf: Uint32Array;
  segAcc: Float64Array;
  segTouched: Int32Array;
  windows: Int32Array;
}

/** Whether hit (s, id) ranks below (t, tid): a lower score, or the same score and a higher id. */
const worse = (s: number, id: number, t: number, tid: number): boolean => s < t || (s === t && id > tid);

/** BM25's share of a term of weight `w` in a document (or window, or segment) of count `tf` and length `dl`. */
const share = (w: number, tf: number, dl: number, avg: number, k1: number, b: number): number =>
  w * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * (dl / avg))));

function ensure(s: Scratch, x: JsLexicalState): void {
  if (s.acc.length < x.lens.length) {
    s.acc = new Float64Array(x.lens.length);
    s.touched = new Int32Array(x.lens.length);
    s.tf = new Uint32Array(x.lens.length);
    s.stamp = new Int32Array(x.lens.length);
    s.windows = new Int32Array(x.lens.length);
  }
  if (s.segAcc.length < x.segLens.length) {
    s.segAcc = new Float64Array(x.segLens.length);
    s.segTf = new Uint32Array(x.segLens.length);
    s.segTouched = new Int32Array(x.segLens.length);
  }
}

/** The `k` best documents of index `x` for the query, as the core computes them. */
export function scoreQuery(
  x: JsLexicalState,
  s: Scratch,
  terms: Uint32Array,
  counts: Uint32Array,
  k: number,
  o: Required<LexicalScoring>,
): LexicalHits {
  if (k === 0 || x.live === 0) return { count: 0, docs: new Int32Array(0), scores: new Float64Array(0) };
  ensure(s, x);
  const { k1, b } = o;
  const { acc, touched, tf, stamp, segTf, segAcc, segTouched, windows } = s;
  const avgdl = x.total / x.live;
  const avgwl = (x.total + x.links) / x.live;
  const avgsl = x.segLive > 0 ? x.segTotal / x.segLive : 1;
  const add = (doc: number, v: number) => {
    if (acc[doc] === 0) touched[m++] = doc;
    acc[doc] = acc[doc]! + v;
  };
  let m = 0;
  for (let i = 0; i < terms.length; i++) {
    const postings = x.terms.get(terms[i]!);
    if (counts[i] === 0 || !postings || postings.docs.length === 0) continue;
    const df = postings.docs.length;
    const w = termWeight(counts[i]!, x.live, df);
    for (let j = 0; j < df; j++) {
      const doc = postings.docs[j]!;
      add(doc, share(w, postings.tfs[j]!, x.lens[doc]! - 1, avgdl, k1, b));
    }
    if (o.window > 0) {
      // Windows holding the term: each document with it, and its linked neighbours.
      for (let j = 0; j < df; j++) tf[postings.docs[j]!] = postings.tfs[j]!;
      let nw = 0;
      const mark = (y: number) => {
        if (y < 0 || stamp[y] !== 0) return;
        stamp[y] = 1;
        windows[nw++] = y;
      };
      for (let j = 0; j < df; j++) {
        const doc = postings.docs[j]!;
        mark(doc);
        mark(x.prev[doc]!);
        mark(x.next[doc]!);
      }
      const ww = o.window * termWeight(counts[i]!, x.live, nw);
      for (let at = 0; at < nw; at++) {
        const y = windows[at]!;
        const p = x.prev[y]!;
        const n = x.next[y]!;
        let wtf = tf[y]!;
        let wl = x.lens[y]! - 1;
        if (p >= 0) {
          wtf += tf[p]!;
          wl += x.lens[p]! - 1;
        }
        if (n >= 0) {
          wtf += tf[n]!;
          wl += x.lens[n]! - 1;
        }
        add(y, share(ww, wtf, wl, avgwl, k1, b));
      }
      for (let j = 0; j < df; j++) tf[postings.docs[j]!] = 0;
      for (let at = 0; at < nw; at++) stamp[windows[at]!] = 0;
    }
    if (o.segment > 0 && x.segLive > 0) {
      let ms = 0;
      for (let j = 0; j < df; j++) {
        const g = x.seg[postings.docs[j]!]!;
        if (g < 0) continue;
        if (segTf[g] === 0) segTouched[ms++] = g;
        segTf[g] = segTf[g]! + postings.tfs[j]!;
      }
      const ws = o.segment * termWeight(counts[i]!, x.segLive, ms);
      for (let at = 0; at < ms; at++) {
        const g = segTouched[at]!;
        segAcc[g] = segAcc[g]! + share(ws, segTf[g]!, x.segLens[g]!, avgsl, k1, b);
        segTf[g] = 0;
      }
    }
  }
  return best(acc, touched, m, k, x.seg, segAcc);
}

/**
 * The best `k` of the `m` touched documents, best first, each scored with its segment's
 * score added; zeroes their accumulator slots and their segments' (every segment scored
 * holds a touched document).
 */
function best(
  acc: Float64Array,
  touched: Int32Array,
  m: number,
  k: number,
  seg: Int32Array,
  segAcc: Float64Array,
): LexicalHits {
  const scores = new Float64Array(Math.min(k, m));
  const docs = new Int32Array(Math.min(k, m));
  let n = 0;
  const swap = (i: number, j: number) => {
    [scores[i], scores[j]] = [scores[j]!, scores[i]!];
    [docs[i], docs[j]] = [docs[j]!, docs[i]!];
  };
  const down = (i: number, size: number) => {
    for (let l = 2 * i + 1; l < size; i = l, l = 2 * i + 1) {
      if (l + 1 < size && worse(scores[l + 1]!, docs[l + 1]!, scores[l]!, docs[l]!)) l++;
      if (!worse(scores[l]!, docs[l]!, scores[i]!, docs[i]!)) return;
      swap(i, l);
    }
  };
  for (let i = 0; i < m; i++) {
    const doc = touched[i]!;
    const g = seg[doc]!;
    const s = g >= 0 ? acc[doc]! + segAcc[g]! : acc[doc]!;
    acc[doc] = 0;
    if (n < scores.length) {
      scores[n] = s;
      docs[n] = doc;
      for (
        let c = n++;
        c > 0 && worse(scores[c]!, docs[c]!, scores[(c - 1) >> 1]!, docs[(c - 1) >> 1]!);
        c = (c - 1) >> 1
      )
        swap(c, (c - 1) >> 1);
    } else if (!worse(s, doc, scores[0]!, docs[0]!)) {
      scores[0] = s;
      docs[0] = doc;
      down(0, n);
    }
  }
  for (let i = 0; i < m; i++) {
    const g = seg[touched[i]!]!;
    if (g >= 0) segAcc[g] = 0;
  }
  for (let e = n - 1; e > 0; e--) {
    swap(0, e);
    down(0, e);
  }
  return { count: n, docs, scores };
}
