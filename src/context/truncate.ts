import { CtxloomError, describe } from "../errors.js";
import { callCounter, countText } from "../tokens/chat.js";
import type { TextMeasure, TokenCounter } from "../tokens/types.js";

/** Where a text can be cut between sentences: after . ! ? or a line break, before the next word. */
const SENTENCE_END = /(?<=[.!?…。！？])\s+|\n+/g;
/** A sentence or word cut is tried only this many times below the token cut before the next fallback. */
const TRIES = 4;

/**
 * The longest prefix of `text` whose count is at most `maxTokens`, cut at a sentence
 * boundary when at least one whole sentence fits, else at a word boundary, else between
 * two characters (grapheme clusters where Intl.Segmenter exists, code points otherwise):
 * an emoji or a surrogate pair is never split. A counter that can `measure` (the
 * WebAssembly counter) reads the text once, up to what the budget can hold, and answers
 * every count of a prefix from that reading; one that can `fit` (gpt-tokenizer's, the
 * heuristic) finds the cut in one pass; other counters are binary-searched.
 */
export function truncateToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  if (maxTokens <= 0 || text.length === 0) return "";
  return text.slice(0, headEnd(text, maxTokens, counter, measureOf(counter, text, maxTokens)));
}

/** The counter's measure of `text` (up to a head of `upTo` tokens), or undefined for a counter that cannot measure. */
export function measureOf(counter: TokenCounter, text: string, upTo?: number): TextMeasure | undefined {
  if (!counter.measure) return undefined;
  const m = callCounter(counter, () => counter.measure!(text, upTo));
  if (m === null || typeof m !== "object" || !Number.isInteger(m.tokens) || m.tokens < 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The token counter ${describe(counter.name)}'s measure gave ${describe(m)}; it must return a TextMeasure.`,
    );
  }
  return m;
}

/** Where truncateToTokens cuts `text` (m: its measure, if the counter has one). */
export function headEnd(text: string, maxTokens: number, counter: TokenCounter, m: TextMeasure | undefined): number {
  if (maxTokens <= 0 || text.length === 0) return 0;
  const limit = m ? measuredIndex(counter, () => m.head(maxTokens).end, text) : fitEnd(text, maxTokens, counter);
  if (limit >= text.length) return text.length;
  const fits = (end: number) => end > 0 && tokensOf(text, 0, end, counter, m) <= maxTokens;
  const bySentence = lastFitting(text, limit, SENTENCE_END, (end) => trimmedEnd(text, end), fits);
  if (bySentence !== undefined) return bySentence;
  const byWord = lastFitting(text, limit, /\s+/g, (end) => end, fits);
  if (byWord !== undefined) return byWord;
  let cut = graphemeStart(text, limit);
  // A shorter prefix counts no more in practice; checked all the same, moving back a cluster at a time.
  while (cut > 0 && !fits(cut)) cut = graphemeStart(text, cut - 1);
  return cut;
}

/** Tokens of text.slice(start, end): from the measure when there is one. */
export function tokensOf(
  text: string,
  start: number,
  end: number,
  counter: TokenCounter,
  m: TextMeasure | undefined,
): number {
  if (!m) return countText(counter, text.slice(start, end));
  const n = callCounter(counter, () => m.count(start, end));
  if (Number.isInteger(n) && n >= 0) return n;
  throw new CtxloomError(
    "INVALID_ARGUMENT",
    `The token counter ${describe(counter.name)}'s measure counted ${describe(n)}; counts are whole and non-negative.`,
  );
}

/** An index a measure gave, checked and kept within the text. */
export function measuredIndex(counter: TokenCounter, call: () => number, text: string): number {
  const i = callCounter(counter, call);
  if (!Number.isInteger(i))
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The token counter ${describe(counter.name)}'s measure gave the index ${describe(i)}.`,
    );
  return Math.min(text.length, Math.max(0, i));
}

/** `end` moved back over whitespace (what trimEnd drops). */
function trimmedEnd(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/**
 * The end of the longest prefix of at most `maxTokens` (any cut), by the counter's own `fit` or a binary search over
 * code points.
 */
function fitEnd(text: string, maxTokens: number, counter: TokenCounter): number {
  if (counter.fit) {
    const end = callCounter(counter, () => counter.fit!(text, maxTokens));
    if (Number.isInteger(end)) return Math.min(text.length, Math.max(0, end));
  }
  // Gallop from the start, then bisect: only prefixes up to about twice what is kept are
  // counted, never the whole text (a 10 MiB memory cut to its slice costs what the slice does).
  let lo = 0; // fits
  let hi = text.length; // does not (unless the whole text fits)
  for (let len = Math.max(16, maxTokens); ; len *= 2) {
    let end = Math.min(len, text.length);
    if (end < text.length && isLowSurrogateAt(text, end)) end--;
    if (countText(counter, text.slice(0, end)) > maxTokens) {
      hi = end;
      break;
    }
    lo = end;
    if (end === text.length) return end;
  }
  while (hi - lo > 1) {
    let mid = (lo + hi) >>> 1;
    if (isLowSurrogateAt(text, mid)) mid--;
    if (mid <= lo) break;
    if (countText(counter, text.slice(0, mid)) <= maxTokens) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The last boundary of `pattern` at or before `limit` whose prefix fits (the few nearest are
 * tried), as the end `prefix` makes of it. Searched backwards from the limit in growing
 * windows: a long text is not scanned for every boundary it holds.
 */
function lastFitting(
  text: string,
  limit: number,
  pattern: RegExp,
  prefix: (end: number) => number,
  fits: (end: number) => boolean,
): number | undefined {
  const scan = new RegExp(pattern.source, "g");
  let tries = 0;
  let below = limit + 1; // boundaries at or past this were tried (a boundary right at the limit still counts)
  for (let window = 1024; below > 0; window *= 4) {
    const from = Math.max(0, below - window);
    // From a little earlier: a match is found whole (a run of spaces is one boundary), and a lookbehind sees its
    // character.
    const lead = Math.max(0, from - 64);
    const ends: number[] = [];
    scan.lastIndex = lead;
    const head = text.slice(0, below);
    for (let m = scan.exec(head); m; m = scan.exec(head)) {
      if (m.index >= from && m.index <= limit) ends.push(m.index);
      if (m[0].length === 0) scan.lastIndex++;
    }
    for (let i = ends.length - 1; i >= 0; i--) {
      if (tries++ >= TRIES) return undefined;
      const end = prefix(ends[i]!);
      if (fits(end)) return end;
    }
    below = from;
  }
  return undefined;
}

function isLowSurrogateAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return i > 0 && c >= 0xdc00 && c < 0xe000 && isHigh(text.charCodeAt(i - 1));
}

const isHigh = (c: number) => c >= 0xd800 && c < 0xdc00;

type Segmenter = { segment(text: string): { containing(index: number): { index: number } | undefined } };
const segmenter: Segmenter | undefined = (() => {
  const Ctor = (
    globalThis as { Intl?: { Segmenter?: new (locale?: string, options?: { granularity: string }) => Segmenter } }
  ).Intl?.Segmenter;
  return Ctor ? new Ctor(undefined, { granularity: "grapheme" }) : undefined;
})();

/** Joiners and marks that belong to the character before them: never cut before one (the fallback's rule). */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each joiner and mark is a member of its own
const JOINS_PREVIOUS = /[\p{M}\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;

/**
 * The start of the grapheme cluster holding `index` (so that cutting there splits none):
 * `index` itself when it is a boundary. Intl.Segmenter where it exists; else code points,
 * kept together with combining marks, variation selectors, skin tones and zero-width joiners.
 */
export function graphemeStart(text: string, index: number, useSegmenter = true): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  if (useSegmenter && segmenter) {
    // A window around the index: clusters are short, and a window keeps this O(1) on long texts.
    const from = Math.max(0, index - 256);
    const seg = segmenter.segment(text.slice(from, Math.min(text.length, index + 256))).containing(index - from);
    if (seg && (seg.index > 0 || from === 0)) return from + seg.index;
  }
  let i = index;
  for (;;) {
    if (isLowSurrogateAt(text, i)) i--;
    if (i <= 0) return 0;
    const at = String.fromCodePoint(text.codePointAt(i)!);
    const before = text.charCodeAt(i - 1) === 0x200d;
    if (!JOINS_PREVIOUS.test(at) && !before) return i;
    i--;
  }
}

/**
 * The first characters of `text` with an ellipsis, at most `maxChars` UTF-16 units in all,
 * cut at a word boundary where one is near and never inside a character or grapheme cluster.
 */
export function truncateToChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, graphemeStart(text, Math.max(0, maxChars - 1)));
  const space = cut.lastIndexOf(" ");
  return (space > maxChars * 0.6 ? cut.slice(0, space) : cut) + "…";
}
