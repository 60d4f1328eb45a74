import { checkOptions, CtxloomError, describe } from "../errors.js";
import { stemEnglish } from "./stem-english.js";

// The terms of recall's lexical channel: a text becomes its words (lowercase runs of Unicode
// letters and digits), optionally without stop words and stemmed, each hashed to a u32 so
// that the index (src/engine/lexical.ts) never sees a string. The same function serves
// messages and queries, so they meet on the same terms.

export interface TermOptions {
  /**
   * "none": words as they are; "plural": a plural's s removed (Harman's S-stemmer: "puppies"
   * -> "puppy", "dogs" -> "dog"); "light": also -ing, -ed and a final e ("adopted",
   * "adopting", "adopt" -> "adopt"; "moved", "moving", "move" -> "mov"); "snowball": the
   * Snowball stemmer (default: "relocated", "relocation" -> "reloc"; "generously" -> "generous").
   */
  stem?: "none" | "plural" | "light" | "snowball";
  /** Leave out common English function words ("the", "is", "what", "you"...) (default true). */
  stopWords?: boolean;
}

/** A text's distinct terms (hashes, in order of first occurrence) and how often each occurs. */
export interface Terms {
  terms: Uint32Array;
  counts: Uint32Array;
}

const KNOWN = ["stem", "stopWords"] as const;
const WORD = /^[\p{L}\p{N}]$/u;

const STOP = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could d did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just ll m me more most my myself no nor not now of off on once only or " +
    "other our ours ourselves out over own re s same she should so some such t than that the their theirs them themselves " +
    "then there these they this those through to too under until up ve very was we were what when where which while who " +
    "whom why will with would you your yours yourself yourselves"
  ).split(" "),
);

/** Checks term options. @throws INVALID_ARGUMENT */
export function checkTermOptions(options: unknown): Required<TermOptions> {
  const o = checkOptions<TermOptions>(options, "lexical term options", KNOWN);
  const stem = o.stem ?? "snowball";
  if (stem !== "none" && stem !== "plural" && stem !== "light" && stem !== "snowball") {
    throw new CtxloomError("INVALID_ARGUMENT", `lexical stem must be "none", "plural", "light" or "snowball"; got ${describe(stem)}.`);
  }
  if (o.stopWords !== undefined && typeof o.stopWords !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `lexical stopWords must be true or false; got ${describe(o.stopWords)}.`);
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

/** The plural stem, then -ing / -ed off (3+ letters kept), a doubled final consonant undoubled, a final e off (3+ letters kept). */
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

/** Stems already computed (words repeat): cleared when it holds too many. */
const STEMS = new Map<string, string>();

function stemOf(word: string, stem: Required<TermOptions>["stem"]): string {
  if (stem === "none") return word;
  if (stem === "plural") return plural(word);
  if (stem === "light") return light(word);
  let s = STEMS.get(word);
  if (s === undefined) {
    if (STEMS.size >= 65_536) STEMS.clear();
    STEMS.set(word, (s = isLetters(word) ? stemEnglish(word) : word));
  }
  return s;
}

/** The words of a text as the index sees them (for tests and measurements; `lexicalTerms` hashes them). */
export function lexicalWords(text: string, options?: TermOptions): string[] {
  const { stem, stopWords } = checkTermOptions(options);
  const out: string[] = [];
  const lower = text.toLowerCase();
  for (let i = 0; i < lower.length; ) {
    if (!isWordChar(lower, i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lower.length && isWordChar(lower, end)) end++;
    const word = lower.slice(i, end);
    i = end;
    if (stopWords && STOP.has(word)) continue;
    out.push(stemOf(word, stem));
  }
  return out;
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

/** A text's terms and counts, ready for LexicalIndex.add or query. @throws INVALID_ARGUMENT */
export function lexicalTerms(text: string, options?: TermOptions): Terms {
  if (typeof text !== "string") throw new CtxloomError("INVALID_ARGUMENT", `lexical terms need a text; got ${describe(text)}.`);
  const words = lexicalWords(text, options);
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
  return { terms: terms.slice(0, n), counts: counts.slice(0, n) };
}
