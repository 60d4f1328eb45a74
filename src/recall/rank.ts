import type { Hit } from "./embedding-index.js";
import { onDate, type NamedDate } from "./dates.js";
import { QUESTION, SHORT, type LexicalMatches } from "./lexical-scope.js";

// Recall's hybrid ranking: every user and assistant message of the scope is matched against
// the query by two channels, fused on normalised scores, and a message gains from its
// neighbours' match. Pure arithmetic over what the channels answer (both engines answer
// them bit for bit alike), so the ranking is the same on both engines.
//
//   lexical  BM25 (k1 1.0, b 0.2) over words (stop words out, Snowball stems in the text's
//            language), plus 1.5 x its window's BM25 and 1.2 x its segment's (the core):
//            the candidates
//   dense    the cosine of the message's vector with the query's (the built-in embedder's
//            query weighted by the scope's idf), for every candidate
//   fused    lexical / best lexical + w * dense / best dense, w 0.05 for the built-in
//            embedder, 1.0 for an app's
//   final    (fused + 0.25 * the best fused score of its parent or children + 0.2 * its
//            parent's when the parent asks a question), x 0.6 for a message of fewer than 3
//            terms, x 2 for one written on a date the query names
//
// The weights were chosen on the tuning conversations of bench/recall-eval (0-8) and on
// LoCoMo's conversations (bench/recall-locomo.ts, each lever's weight chosen on nine and
// measured on the tenth), each lever measured alone and together (bench/results/): b 0.75,
// the textbook value, lets short greetings that name a speaker outrank the turn that answers;
// the window and the segment find the turn beside the one that names the subject; a reply
// to a question is where its answer is (the question holds the query's words, the reply the
// answer: "Got any favourite styles?" - "Contemporary is my top pick"); the built-in
// embedder's vectors meet only where words do and cost points past 0.05; an app's embedder
// was weighed with a stand-in retriever of known strength (bench/recall-eval/stand-in.ts).

/** The ranking's parameters (measured: see above). */
export interface Ranking {
  /** BM25's term-frequency saturation and length normalisation. */
  k1: number;
  b: number;
  /** Weight of a message's window (itself and its neighbours scored as one document) in its lexical score. */
  window: number;
  /** Weight of its segment's score (a session or block scored as one document). */
  segment: number;
  /**
   * Weight of the dense channel (cosine over the best cosine) beside the lexical one (lexical over the best), with the
   * built-in embedder.
   */
  dense: number;
  /** The same weight with an embedder the app passes (a model that finds meaning, not only shared words). */
  embedder: number;
  /** Share of the best fused score of its parent or children a message gains. */
  neighbours: number;
  /** Share of its parent's fused score a message gains when that parent asks a question (the reply answers it). */
  reply: number;
  /** A message written on a date the query names ("in May 2023") gains this share of its score. */
  dates: number;
  /** What a message's score is multiplied by when it asks a question, and when it is short (a few words). */
  question: number;
  short: number;
  /** Lexical candidates a query starts from. */
  candidates: number;
}

export const RANKING: Readonly<Ranking> = {
  k1: 1,
  b: 0.2,
  window: 1.5,
  segment: 1.2,
  dense: 0.05,
  embedder: 1,
  neighbours: 0.25,
  reply: 0.2,
  dates: 1,
  question: 1,
  short: 0.6,
  candidates: 100,
};

/**
 * A ranked message: its scope key and its score (1 for the best lexical match with the best similarity, plus its
 * neighbours' share).
 */
export interface Ranked {
  key: number;
  score: number;
}

/** What the ranking asks the scope's channels. */
export interface RankChannels {
  /** The `k` best lexical matches, best first. */
  lexical(k: number): LexicalMatches;
  /** How many messages the lexical channel holds (a query of that many has seen them all). */
  readonly lexicalSize: number;
  /** The cosine similarity of each key's vector with the query; NaN for a key without one (or no query vector). */
  dense(keys: readonly number[]): ArrayLike<number>;
  /** The `k` messages most similar to the query by vector (a scan); null when there is no query vector. */
  denseSearch(k: number): Hit[] | null;
  /**
   * Whether the dense channel brings candidates of its own even when the lexical one found
   * enough: true for embedders that find meaning without shared words; false for the built-in
   * one, whose vectors meet only where texts share words or their parts (measured: its scan
   * added nothing past the lexical candidates, and costs 4.8 ms at 100k messages).
   */
  readonly denseFindsOwn: boolean;
  /**
   * Whether a channel holds the message (a message forgotten by a memory clear is in neither: no neighbour brings it
   * back).
   */
  holds(key: number): boolean;
  /** QUESTION | SHORT of a message's text (lexical-scope.ts). */
  flags(key: number): number;
  /** When a message was written (NaN: unknown). */
  time(key: number): number;
}

/** The scope as the ranking walks it. */
export interface RankScope {
  /** Whether a message of this key may be returned (in scope, user or assistant, not a summary). */
  eligible(key: number): boolean;
  /** Its parent and children in scope. */
  neighbours(key: number): readonly number[];
  /** A number that orders messages oldest first across the scope (a child after its parent). */
  order(key: number): number;
}

export interface RankOptions {
  /** Messages wanted: candidates are drawn until this many eligible ones scored (or every message was seen). */
  want: number;
  /**
   * Messages whose vector is less similar than this (cosine) are left out, and none comes back by a neighbour alone.
   */
  minScore?: number;
  /** The parameters (default RANKING). */
  ranking?: Readonly<Ranking>;
  /** Dates the query names (dates.ts): messages written on one gain. */
  dates?: readonly NamedDate[];
}

/**
 * The scope's messages that match the query, best first (score descending, then key
 * ascending), at least `want` of them when that many match. O(candidates * dimension) plus
 * the lexical query, however large the scope: no scan, unless the dense channel finds its own.
 */
export function rankMessages(channels: RankChannels, scope: RankScope, options: RankOptions): Ranked[] {
  const { want, minScore } = options;
  const R = options.ranking ?? RANKING;
  const lex = new Map<number, number>();
  let k = Math.max(R.candidates, 4 * want);
  let exhausted = false;
  for (;;) {
    const m = channels.lexical(k);
    lex.clear();
    let eligible = 0;
    m.keys.forEach((key, i) => {
      lex.set(key, m.scores[i]!);
      if (scope.eligible(key)) eligible++;
    });
    exhausted = m.keys.length < k || k >= channels.lexicalSize;
    if (eligible >= want || exhausted) break;
    k = Math.min(k * 4, channels.lexicalSize);
  }
  const candidates = new Set<number>();
  for (const key of lex.keys()) if (scope.eligible(key)) candidates.add(key);
  if (channels.denseFindsOwn || (exhausted && candidates.size < Math.max(R.candidates, want))) {
    for (const hit of channels.denseSearch(Math.max(R.candidates, 4 * want)) ?? [])
      if (scope.eligible(hit.key)) candidates.add(hit.key);
  }
  const keys = [...candidates];
  const cos = channels.dense(keys);
  let bestLex = 0;
  let bestCos = 0;
  keys.forEach((key, i) => {
    bestLex = Math.max(bestLex, lex.get(key) ?? 0);
    if (cos[i]! > bestCos) bestCos = cos[i]!;
  });
  const fused = new Map<number, number>();
  keys.forEach((key, i) => {
    const c = cos[i]!;
    if (minScore !== undefined && !(c >= minScore)) return;
    const f = (bestLex > 0 ? (lex.get(key) ?? 0) / bestLex : 0) + (bestCos > 0 && c > 0 ? (R.dense * c) / bestCos : 0);
    if (f > 0) fused.set(key, f);
  });
  // A message gains from the best match beside it: an answer whose question matched, a turn
  // whose neighbour names what it is about; a reply gains again from the question it answers.
  const lift = new Map<number, number>();
  const replied = new Map<number, number>();
  for (const [key, f] of fused) {
    const asks = R.reply > 0 && (channels.flags(key) & QUESTION) !== 0;
    const at = asks ? scope.order(key) : 0;
    for (const n of scope.neighbours(key)) {
      if (!scope.eligible(n) || !channels.holds(n)) continue;
      if (f > (lift.get(n) ?? 0)) lift.set(n, f);
      if (asks && scope.order(n) > at && f > (replied.get(n) ?? 0)) replied.set(n, f); // a reply to it
    }
  }
  const out: Ranked[] = [];
  const dated = options.dates !== undefined && options.dates.length > 0;
  // With minScore, only messages whose own vector passed come back.
  for (const key of new Set(
    minScore === undefined ? [...fused.keys(), ...lift.keys(), ...replied.keys()] : fused.keys(),
  )) {
    const flags = channels.flags(key);
    let prior = (flags & QUESTION ? R.question : 1) * (flags & SHORT ? R.short : 1);
    if (dated && onDate(channels.time(key), options.dates!)) prior *= 1 + R.dates;
    out.push({
      key,
      score: prior * ((fused.get(key) ?? 0) + R.neighbours * (lift.get(key) ?? 0) + R.reply * (replied.get(key) ?? 0)),
    });
  }
  return out.sort((a, b) => b.score - a.score || a.key - b.key);
}
