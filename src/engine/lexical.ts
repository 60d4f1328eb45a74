import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";

/**
 * Inverted indexes over hashed terms with BM25 scoring, one per recall scope (recall's
 * lexical channel), on the WASM core (assembly/lexical*.ts) or its TypeScript twin
 * (lexical-js.ts). Texts never reach it: the caller tokenizes a message and hands over its
 * distinct term hashes (u32) and their counts (see src/recall/lexical-terms.ts). Both
 * engines compute every score with the same f64 operations in the same order, so their
 * answers are bitwise identical; ties of score go to the lower document id.
 *
 * Documents are small non-negative integer ids (a scope's keys, below LEXICAL_MAX_DOCS):
 * the index keeps a length per id up to the largest seen. A term's count in one document
 * saturates at LEXICAL_MAX_TF.
 */
export interface LexicalIndex {
  readonly kind: "wasm" | "js";
  /** A new empty index. Throws OUT_OF_MEMORY. O(1). */
  create(): number;
  /** Frees an index; its handle may be reused. */
  drop(index: number): void;
  /**
   * Indexes document `doc` with `terms[i]` occurring `counts[i]` times (a count of 0 is
   * skipped; a term given twice counts twice). Updated on append: the next query sees it.
   * `place.prev` links it after that document (its neighbour before: a turn and the one it
   * answers), which loses the link to a document linked after it before (the newest link
   * wins); `place.segment` puts it in a segment (a session, a block of turns), scored as one
   * document. Throws INVALID_ARGUMENT when `doc` is out of range or already indexed, or the
   * arrays differ in length; OUT_OF_MEMORY. Nothing changes when it throws. O(terms) expected.
   */
  add(index: number, doc: number, terms: Uint32Array, counts: Uint32Array, place?: LexicalPlace): void;
  /**
   * Removes documents (ids not indexed are skipped); returns how many were. One sweep over the index's postings,
   * O(postings), however many ids.
   */
  remove(index: number, docs: ArrayLike<number>): number;
  /**
   * The `k` documents scoring best for the query's terms (`counts[i]`: how often `terms[i]`
   * occurs in the query), best first: score descending, then id ascending. A document's score
   * is its BM25 (see LexicalScoring), plus `window` times the BM25 of its window (itself and
   * its linked neighbours, scored as one document), plus `segment` times its segment's BM25
   * (segments scored as documents). Documents sharing no term with the query, alone or in
   * their window, are not returned. O(postings of the query's terms). Throws
   * INVALID_ARGUMENT, OUT_OF_MEMORY.
   */
  query(index: number, terms: Uint32Array, counts: Uint32Array, k: number, scoring?: LexicalScoring): LexicalHits;
  has(index: number, doc: number): boolean;
  /** Documents indexed. O(1). */
  docs(index: number): number;
  /** Distinct terms held by at least one document. O(terms). */
  terms(index: number): number;
  /** Bytes the index holds in linear memory (WASM), -1 for the TypeScript twin. O(terms). */
  bytes(index: number): number;
}

/** Where a document sits: the document before it (its neighbour) and its segment. */
export interface LexicalPlace {
  /** The document it follows (-1 or absent: none; a document not indexed links nothing). */
  prev?: number;
  /** Its segment, a small integer below LEXICAL_MAX_DOCS (-1 or absent: none). */
  segment?: number;
}

/** How a query scores: BM25's k1 and b, and the weights of the window and segment scores. */
export interface LexicalScoring {
  /** BM25's term-frequency saturation, >= 0 (default 1.2). */
  k1?: number;
  /** BM25's length normalisation, 0 to 1 (default 0.75). */
  b?: number;
  /** Weight of the window's score, >= 0 (default 0: off). */
  window?: number;
  /** Weight of the segment's score, >= 0 (default 0: off). */
  segment?: number;
}

/** A query's answer: views valid until the next call on the same LexicalIndex. */
export interface LexicalHits {
  count: number;
  docs: Int32Array;
  scores: Float64Array;
}

/** Document ids are below this (a posting packs the id in 24 bits). */
export const LEXICAL_MAX_DOCS = 1 << 24;
/** A term's count in one document saturates here (BM25's saturation makes the rest a fraction of a percent). */
export const LEXICAL_MAX_TF = 255;
/** Largest k a query may ask for. */
export const LEXICAL_MAX_K = 1 << 20;
/** Okapi BM25's usual parameters. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

function invalid(message: string): CtxloomError {
  return new CtxloomError("INVALID_ARGUMENT", message);
}

function checkTerms(terms: unknown, counts: unknown, what: string): void {
  if (!(terms instanceof Uint32Array) || !(counts instanceof Uint32Array)) {
    throw invalid(`${what} takes terms and counts as Uint32Arrays; got ${describe(terms)} and ${describe(counts)}.`);
  }
  if (terms.length !== counts.length)
    throw invalid(`${what}: ${terms.length} terms but ${counts.length} counts; give one count per term.`);
}

/**
 * Checks `add`'s arguments but presence (each engine knows its own); the place with its defaults. @throws
 * INVALID_ARGUMENT
 */
export function checkLexicalAdd(doc: unknown, terms: unknown, counts: unknown, place: unknown): Required<LexicalPlace> {
  checkInteger(doc, "A lexical document id", 0, LEXICAL_MAX_DOCS - 1);
  checkTerms(terms, counts, "lexical add");
  const p = checkOptions<LexicalPlace>(place, "lexical add place", ["prev", "segment"]);
  if (p.prev !== undefined) checkInteger(p.prev, "lexical add prev", -1, LEXICAL_MAX_DOCS - 1);
  if (p.segment !== undefined) checkInteger(p.segment, "lexical add segment", -1, LEXICAL_MAX_DOCS - 1);
  return { prev: p.prev ?? -1, segment: p.segment ?? -1 };
}

/** The refusal of a document already indexed. */
export function alreadyIndexed(doc: number): CtxloomError {
  return invalid(`Document ${doc} is already in the lexical index; remove it first to index it again.`);
}

/** Checks `query`'s arguments; the scoring with its defaults. @throws INVALID_ARGUMENT */
export function checkLexicalQuery(
  terms: unknown,
  counts: unknown,
  k: unknown,
  scoring: unknown,
): Required<LexicalScoring> {
  checkTerms(terms, counts, "lexical query");
  checkInteger(k, "lexical query k", 0, LEXICAL_MAX_K);
  const o = checkOptions<LexicalScoring>(scoring, "lexical query scoring", ["k1", "b", "window", "segment"]);
  const { k1 = BM25_K1, b = BM25_B, window = 0, segment = 0 } = o;
  if (typeof k1 !== "number" || !(k1 >= 0) || !Number.isFinite(k1))
    throw invalid(`BM25 k1 must be a finite number >= 0; got ${describe(k1)}.`);
  if (typeof b !== "number" || !(b >= 0 && b <= 1))
    throw invalid(`BM25 b must be a number from 0 to 1; got ${describe(b)}.`);
  for (const [name, v] of [
    ["window", window],
    ["segment", segment],
  ] as const) {
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v))
      throw invalid(`The lexical ${name} weight must be a finite number >= 0; got ${describe(v)}.`);
  }
  return { k1, b, window, segment };
}

/** Checks `remove`'s ids (integers; any value, absent ones are skipped). @throws INVALID_ARGUMENT */
export function checkLexicalRemove(docs: unknown): void {
  if (docs === null || typeof docs !== "object" || typeof (docs as ArrayLike<number>).length !== "number") {
    throw invalid(`lexical remove takes an array of document ids; got ${describe(docs)}.`);
  }
  const list = docs as ArrayLike<unknown>;
  for (let i = 0; i < list.length; i++) checkInteger(list[i], "A lexical document id", -(2 ** 31), 2 ** 31 - 1);
}

/**
 * ln(x) for x >= 1 with + - * / only, as the core computes it (assembly/lexical-query.ts):
 * x = m * 2^e by exact halvings, m in (sqrt(2)/2, sqrt(2)], then the series of atanh.
 * Within a few ulps of Math.log, and the same bits on every runtime.
 */
export function lnBm25(x: number): number {
  let e = 0;
  while (x >= 2) {
    x *= 0.5;
    e += 1;
  }
  if (x > 1.4142135623730951) {
    x *= 0.5;
    e += 1;
  }
  const s = (x - 1) / (x + 1);
  const z = s * s;
  let p = 0.043478260869565216; // 1/23
  for (const c of SERIES) p = p * z + c;
  return e * 0.6931471805599453 + 2 * s * p;
}

/** 1/21, 1/19, ..., 1/3, 1: the series' coefficients after 1/23, as the core writes them. */
const SERIES = [
  0.047619047619047616, 0.05263157894736842, 0.058823529411764705, 0.06666666666666667, 0.07692307692307693,
  0.09090909090909091, 0.1111111111111111, 0.14285714285714285, 0.2, 0.3333333333333333, 1,
];

/** BM25's weight of a query term: qtf * idf, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), as the core computes it. */
export const termWeight = (qtf: number, docs: number, df: number): number =>
  qtf * lnBm25(1 + (docs - df + 0.5) / (df + 0.5));
