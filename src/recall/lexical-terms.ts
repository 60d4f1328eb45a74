import { checkOptions, CtxloomError, describe } from "../errors.js";
import { STEMMERS, STOP_WORDS, languageOf, type Language } from "./languages.js";
import { cutSpaceless, hasSpaceless } from "./scripts.js";

// The terms of recall's lexical channel: a text becomes its words (lowercase runs of Unicode
// letters, marks and digits; runs of scripts without spaces cut into character bigrams,
// scripts.ts), optionally without stop words and stemmed (by default, in the text's language:
// languages.ts), each hashed to a u32 so that the index (src/engine/lexical.ts) never sees a
// string. The same function serves messages and queries, so they meet on the same terms.

export interface TermOptions {
  /**
   * "none": words as they are; "plural": a plural's s removed (Harman's S-stemmer: "puppies"
   * -> "puppy", "dogs" -> "dog"); "light": also -ing, -ed and a final e ("adopted",
   * "adopting", "adopt" -> "adopt"; "moved", "moving", "move" -> "mov"); "snowball"
   * (default): the Snowball stemmer of the text's language, told by its function words
   * (English, German, French, Spanish, Italian, Portuguese, Dutch: "relocated", "relocation"
   * -> "reloc"; "umgezogen", "umziehen" -> "umgezog", "umzieh"), whose stop words then go.
   */
  stem?: "none" | "plural" | "light" | "snowball";
  /**
   * Leave out common function words ("the", "is", "what", "you"...; with "snowball", the text's language's) (default
   * true).
   */
  stopWords?: boolean;
}

/**
 * A text's distinct terms (hashes, in order of first occurrence) and how often each occurs, and the language it was
 * stemmed as.
 */
export interface Terms {
  terms: Uint32Array;
  counts: Uint32Array;
  language: Language;
}

const KNOWN = ["stem", "stopWords"] as const;
const WORD = /^[\p{L}\p{M}\p{N}]$/u;

/** Checks term options. @throws INVALID_ARGUMENT */
export function checkTermOptions(options: unknown): Required<TermOptions> {
  const o = checkOptions<TermOptions>(options, "lexical term options", KNOWN);
  const stem = o.stem ?? "snowball";
  if (stem !== "none" && stem !== "plural" && stem !== "light" && stem !== "snowball") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `lexical stem must be "none", "plural", "light" or "snowball"; got ${describe(stem)}.`,
    );
  }
  if (o.stopWords !== undefined && typeof o.stopWords !== "boolean") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `lexical stopWords must be true or false; got ${describe(o.stopWords)}.`,
    );
  }
  return { stem, stopWords: o.stopWords ?? true };
}

/** Whether a word has no digit (stemming leaves "1990s" alone). */
function isLetters(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 48 && c <= 57) return false;
  }
  return true;
}

/** Harman's S-stemmer: -ies -> -y, -es -> -e, -s removed (not after u or s), on words of 4+ letters. */
function plural(w: string): string {
  if (w.length < 4 || !w.endsWith("s") || !isLetters(w)) return w;
  if (w.endsWith("ies") && !w.endsWith("eies") && !w.endsWith("aies")) return w.slice(0, -3) + "y";
  if (w.endsWith("es") && !w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes")) return w.slice(0, -1);
  if (w.endsWith("us") || w.endsWith("ss")) return w;
  return w.slice(0, -1);
}

/**
 * The plural stem, then -ing / -ed off (3+ letters kept), a doubled final consonant undoubled, a final e off (3+
 * letters kept).
 */
function light(word: string): string {
  let w = plural(word);
  if (!isLetters(w)) return w;
  const cut = w.endsWith("ing") && w.length >= 6 ? 3 : w.endsWith("ed") && w.length >= 5 ? 2 : 0;
  if (cut > 0) {
    w = w.slice(0, -cut);
    const last = w[w.length - 1]!;
    if (last === w[w.length - 2] && "bcdfghjkmnpqrtvwxy".includes(last)) w = w.slice(0, -1);
  }
  if (w.length >= 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/**
 * Stems already computed (words repeat): cleared when it holds too many, and by an erasure
 * (forgetStems). Only words short enough that V8 copies them are kept: a longer one is a slice
 * that would keep its whole message alive.
 */
const STEMS = new Map<string, string>();
const STEM_KEPT_LENGTH = 12;

/** Forgets every stem kept (a user's erasure: their words go with them). */
export function forgetStems(): void {
  STEMS.clear();
}

function stemOf(word: string, stem: Required<TermOptions>["stem"], lang: Language): string {
  if (stem === "none") return word;
  if (stem === "plural") return plural(word);
  if (stem === "light") return light(word);
  if (word.length > STEM_KEPT_LENGTH) return isLetters(word) ? STEMMERS[lang](word) : word;
  const key = lang === "en" ? word : `${lang}:${word}`;
  let s = STEMS.get(key);
  if (s === undefined) {
    if (STEMS.size >= 65_536) STEMS.clear();
    STEMS.set(key, (s = isLetters(word) ? STEMMERS[lang](word) : word));
  }
  return s;
}

/**
 * The words of a text as the index sees them (for tests and measurements; `lexicalTerms`
 * hashes them). `fallback`: the language of a text that shows none clearly (default English).
 */
export function lexicalWords(text: string, options?: TermOptions, fallback: Language = "en"): string[] {
  return wordsOf(text, checkTermOptions(options), fallback).words;
}

function wordsOf(text: string, o: Required<TermOptions>, fallback: Language): { words: string[]; language: Language } {
  const { stem, stopWords } = o;
  const raw: string[] = [];
  const lower = text.toLowerCase();
  for (let i = 0; i < lower.length; ) {
    if (!isWordChar(lower, i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lower.length && isWordChar(lower, end)) end++;
    raw.push(lower.slice(i, end));
    i = end;
  }
  const lang = stem === "snowball" ? languageOf(raw, fallback) : "en";
  const stop = STOP_WORDS[lang];
  const out: string[] = [];
  const take = (word: string) => {
    if (!stopWords || !stop.has(word)) out.push(stemOf(word, stem, lang));
  };
  for (const word of raw) {
    if (hasSpaceless(word)) cutSpaceless(word, (part, spaceless) => (spaceless ? out.push(part) : take(part)));
    else take(word);
  }
  return { words: out, language: lang };
}

/** Whether the UTF-16 unit at `i` belongs to a letter or digit (an ASCII test first; a surrogate pair counts whole). */
function isWordChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  if (c >= 0xdc00 && c <= 0xdfff) {
    // The low half of a pair counts as its pair does; a lone half is no letter.
    const high = i > 0 ? s.charCodeAt(i - 1) : 0;
    return high >= 0xd800 && high <= 0xdbff && WORD.test(String.fromCodePoint(s.codePointAt(i - 1)!));
  }
  return WORD.test(String.fromCodePoint(s.codePointAt(i)!));
}

/** A word's term: FNV-1a over its UTF-16 units, then MurmurHash3's final mix. */
export function termHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A text's terms and counts, ready for LexicalIndex.add or query (`fallback`: see lexicalWords). @throws
 * INVALID_ARGUMENT
 */
export function lexicalTerms(text: string, options?: TermOptions, fallback: Language = "en"): Terms {
  if (typeof text !== "string")
    throw new CtxloomError("INVALID_ARGUMENT", `lexical terms need a text; got ${describe(text)}.`);
  const { words, language } = wordsOf(text, checkTermOptions(options), fallback);
  const terms = new Uint32Array(words.length);
  const counts = new Uint32Array(words.length);
  let n = 0;
  // Messages hold few distinct words: a scan of those seen beats a Map until there are many.
  const seen = words.length > 48 ? new Map<number, number>() : null;
  for (const word of words) {
    const h = termHash(word);
    let at = -1;
    if (seen) at = seen.get(h) ?? -1;
    else for (let j = 0; j < n && at < 0; j++) if (terms[j] === h) at = j;
    if (at < 0) {
      at = n++;
      terms[at] = h;
      seen?.set(h, at);
    }
    counts[at]!++;
  }
  return { terms: terms.slice(0, n), counts: counts.slice(0, n), language };
}
