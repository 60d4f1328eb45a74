import { CtxloomError } from "../errors.js";
import {
  BM25_B, BM25_K1, LEXICAL_MAX_TF, alreadyIndexed, checkLexicalAdd, checkLexicalQuery, checkLexicalRemove, termWeight,
  type LexicalHits, type LexicalIndex,
} from "./lexical.js";

// The TypeScript twin of assembly/lexical.ts and lexical-query.ts: a Map from term hash to
// its postings, a length per document id, and the same BM25 arithmetic in the same order
// (f64 is JavaScript's number), so the scores are bitwise those of the core.

interface Postings {
  docs: number[];
  tfs: number[];
}

interface Lexical {
  terms: Map<number, Postings>;
  /** Length + 1 of each document id, 0 for none. */
  lens: Uint32Array;
  live: number;
  total: number;
}

/** Whether hit (s, id) ranks below (t, tid): a lower score, or the same score and a higher id. */
const worse = (s: number, id: number, t: number, tid: number): boolean => s < t || (s === t && id > tid);

/** The lexical index in plain TypeScript: the same operations and answers as the WASM core. */
export class JsLexical implements LexicalIndex {
  readonly kind = "js" as const;
  #indexes: (Lexical | undefined)[] = [];
  #free: number[] = [];
  #acc = new Float64Array(1024); // score per id, zero between queries
  #touched = new Int32Array(1024);

  create(): number {
    const index = this.#free.pop() ?? this.#indexes.length;
    this.#indexes[index] = { terms: new Map(), lens: new Uint32Array(0), live: 0, total: 0 };
    return index;
  }

  drop(index: number): void {
    this.#indexes[index] = undefined;
    this.#free.push(index);
  }

  #x(index: number): Lexical {
    return this.#indexes[index]!;
  }

  add(index: number, doc: number, terms: Uint32Array, counts: Uint32Array): void {
    checkLexicalAdd(doc, terms, counts);
    const x = this.#x(index);
    if (this.has(index, doc)) throw alreadyIndexed(doc);
    if (doc >= x.lens.length) {
      let grown: Uint32Array;
      try {
        grown = new Uint32Array(Math.max(1024, 2 ** Math.ceil(Math.log2(doc + 1))));
      } catch (cause) {
        throw new CtxloomError("OUT_OF_MEMORY", `Could not grow a lexical index to document ${doc}; drop indexes you no longer need.`, { cause });
      }
      grown.set(x.lens);
      x.lens = grown;
    }
    let length = 0;
    for (let i = 0; i < terms.length; i++) {
      const count = counts[i]!;
      if (count === 0) continue;
      length += count;
      let postings = x.terms.get(terms[i]!);
      if (!postings) x.terms.set(terms[i]!, (postings = { docs: [], tfs: [] }));
      const last = postings.docs.length - 1;
      if (last >= 0 && postings.docs[last] === doc) {
        // The same term again in this document: its counts add up.
        postings.tfs[last] = Math.min(postings.tfs[last]! + Math.min(count, LEXICAL_MAX_TF), LEXICAL_MAX_TF);
        continue;
      }
      postings.docs.push(doc);
      postings.tfs.push(Math.min(count, LEXICAL_MAX_TF));
    }
    const len = Math.min(length, 0xfffffffe);
    x.lens[doc] = len + 1;
    x.live++;
    x.total += len;
  }

  remove(index: number, docs: ArrayLike<number>): number {
    checkLexicalRemove(docs);
    const x = this.#x(index);
    let removed = 0;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (!this.has(index, doc)) continue;
      x.total -= x.lens[doc]! - 1;
      x.lens[doc] = 0;
      removed++;
    }
    if (removed === 0) return 0;
    x.live -= removed;
    for (const postings of x.terms.values()) {
      const keep = postings.docs.map((doc) => x.lens[doc] !== 0);
      postings.docs = postings.docs.filter((_, i) => keep[i]);
      postings.tfs = postings.tfs.filter((_, i) => keep[i]);
    }
    return removed;
  }

  query(index: number, terms: Uint32Array, counts: Uint32Array, k: number, k1 = BM25_K1, b = BM25_B): LexicalHits {
    checkLexicalQuery(terms, counts, k, k1, b);
    const x = this.#x(index);
    if (k === 0 || x.live === 0) return { count: 0, docs: new Int32Array(0), scores: new Float64Array(0) };
    if (this.#acc.length < x.lens.length) {
      this.#acc = new Float64Array(x.lens.length);
      this.#touched = new Int32Array(x.lens.length);
    }
    const acc = this.#acc;
    const touched = this.#touched;
    const avgdl = x.total / x.live;
    const c1 = k1 + 1;
    const c0 = 1 - b;
    let m = 0;
    for (let i = 0; i < terms.length; i++) {
      const postings = x.terms.get(terms[i]!);
      if (counts[i] === 0 || !postings || postings.docs.length === 0) continue;
      const w = termWeight(counts[i]!, x.live, postings.docs.length);
      postings.docs.forEach((doc, j) => {
        const tf = postings.tfs[j]!;
        const dl = x.lens[doc]! - 1;
        const share = w * ((tf * c1) / (tf + k1 * (c0 + b * (dl / avgdl))));
        if (acc[doc] === 0) touched[m++] = doc;
        acc[doc] = acc[doc]! + share;
      });
    }
    return best(acc, touched, m, k);
  }

  has(index: number, doc: number): boolean {
    const lens = this.#x(index).lens;
    return doc >= 0 && doc < lens.length && lens[doc] !== 0;
  }

  docs(index: number): number {
    return this.#x(index).live;
  }

  terms(index: number): number {
    let n = 0;
    for (const postings of this.#x(index).terms.values()) if (postings.docs.length > 0) n++;
    return n;
  }

  bytes(): number {
    return -1;
  }
}

/** The best `k` of the `m` touched documents, best first; zeroes their accumulator slots. */
function best(acc: Float64Array, touched: Int32Array, m: number, k: number): LexicalHits {
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
    const s = acc[doc]!;
    acc[doc] = 0;
    if (n < scores.length) {
      scores[n] = s;
      docs[n] = doc;
      for (let c = n++; c > 0 && worse(scores[c]!, docs[c]!, scores[(c - 1) >> 1]!, docs[(c - 1) >> 1]!); c = (c - 1) >> 1) swap(c, (c - 1) >> 1);
    } else if (!worse(s, doc, scores[0]!, docs[0]!)) {
      scores[0] = s;
      docs[0] = doc;
      down(0, n);
    }
  }
  for (let e = n - 1; e > 0; e--) {
    swap(0, e);
    down(0, e);
  }
  return { count: n, docs, scores };
}
