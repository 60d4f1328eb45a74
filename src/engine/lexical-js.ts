import { CtxloomError } from "../errors.js";
import {
  LEXICAL_MAX_TF,
  alreadyIndexed,
  checkLexicalAdd,
  checkLexicalQuery,
  checkLexicalRemove,
  type LexicalHits,
  type LexicalIndex,
  type LexicalPlace,
  type LexicalScoring,
} from "./lexical.js";
import { scoreQuery, type JsLexicalState, type Scratch } from "./lexical-js-query.js";

// The TypeScript twin of assembly/lexical.ts and lexical-query.ts: a Map from term hash to
// its postings, a length, links and a segment per document id, and the same BM25 arithmetic
// in the same order (f64 is JavaScript's number), so the scores are bitwise those of the core.

function grown<T extends Uint32Array | Int32Array>(from: T, size: number, fill: number): T {
  const to = new (from.constructor as new (n: number) => T)(size);
  to.set(from);
  if (fill !== 0) to.fill(fill, from.length);
  return to;
}

/** A table size covering id `n`: a power of two, at least 1024. */
const cover = (n: number) => Math.max(1024, 2 ** Math.ceil(Math.log2(n + 1)));

/** The lexical index in plain TypeScript: the same operations and answers as the WASM core. */
export class JsLexical implements LexicalIndex {
  readonly kind = "js" as const;
  #indexes: (JsLexicalState | undefined)[] = [];
  #free: number[] = [];
  readonly #scratch: Scratch = {
    acc: new Float64Array(0),
    touched: new Int32Array(0),
    tf: new Uint32Array(0),
    stamp: new Int32Array(0),
    segTf: new Uint32Array(0),
    segAcc: new Float64Array(0),
    segTouched: new Int32Array(0),
    windows: new Int32Array(0),
  };

  create(): number {
    const index = this.#free.pop() ?? this.#indexes.length;
    this.#indexes[index] = {
      terms: new Map(),
      lens: new Uint32Array(0),
      prev: new Int32Array(0),
      next: new Int32Array(0),
      seg: new Int32Array(0),
      live: 0,
      total: 0,
      links: 0,
      segLens: new Uint32Array(0),
      segMembers: new Uint32Array(0),
      segLive: 0,
      segTotal: 0,
    };
    return index;
  }

  drop(index: number): void {
    this.#indexes[index] = undefined;
    this.#free.push(index);
  }

  #x(index: number): JsLexicalState {
    return this.#indexes[index]!;
  }

  add(index: number, doc: number, terms: Uint32Array, counts: Uint32Array, place?: LexicalPlace): void {
    const { prev, segment } = checkLexicalAdd(doc, terms, counts, place);
    const x = this.#x(index);
    if (this.has(index, doc)) throw alreadyIndexed(doc);
    try {
      if (doc >= x.lens.length) {
        const size = cover(doc);
        x.lens = grown(x.lens, size, 0);
        x.prev = grown(x.prev, size, -1);
        x.next = grown(x.next, size, -1);
        x.seg = grown(x.seg, size, -1);
      }
      if (segment >= x.segLens.length) {
        x.segLens = grown(x.segLens, cover(segment), 0);
        x.segMembers = grown(x.segMembers, cover(segment), 0);
      }
    } catch (cause) {
      throw new CtxloomError(
        "OUT_OF_MEMORY",
        `Could not grow a lexical index to document ${doc}; drop indexes you no longer need.`,
        { cause },
      );
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
    x.prev[doc] = -1;
    x.next[doc] = -1;
    if (prev >= 0 && this.has(index, prev) && prev !== doc) {
      const old = x.next[prev]!;
      if (old >= 0) {
        // The newest link wins: the document linked after `prev` before loses it.
        x.prev[old] = -1;
        x.links -= x.lens[prev]! - 1 + (x.lens[old]! - 1);
      }
      x.next[prev] = doc;
      x.prev[doc] = prev;
      x.links += x.lens[prev]! - 1 + len;
    }
    x.seg[doc] = segment;
    if (segment >= 0) {
      if (x.segMembers[segment] === 0) x.segLive++;
      x.segMembers[segment]!++;
      x.segLens[segment] = Math.min(x.segLens[segment]! + len, 0xffffffff);
      x.segTotal += len;
    }
  }

  remove(index: number, docs: ArrayLike<number>): number {
    checkLexicalRemove(docs);
    const x = this.#x(index);
    let removed = 0;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (!this.has(index, doc)) continue;
      const len = x.lens[doc]! - 1;
      const p = x.prev[doc]!;
      if (p >= 0) {
        x.next[p] = -1;
        x.links -= x.lens[p]! - 1 + len;
      }
      const n = x.next[doc]!;
      if (n >= 0) {
        x.prev[n] = -1;
        x.links -= len + (x.lens[n]! - 1);
      }
      const s = x.seg[doc]!;
      if (s >= 0) {
        x.segMembers[s]!--;
        if (x.segMembers[s] === 0) x.segLive--;
        x.segLens[s] = x.segLens[s]! - len;
        x.segTotal -= len;
      }
      x.total -= len;
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

  query(index: number, terms: Uint32Array, counts: Uint32Array, k: number, scoring?: LexicalScoring): LexicalHits {
    const s = checkLexicalQuery(terms, counts, k, scoring);
    return scoreQuery(this.#x(index), this.#scratch, terms, counts, k, s);
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
