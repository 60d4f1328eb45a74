import { checkOptions, CtxloomError, describe } from "../errors.js";

// The terms of recall's lexical channel: a text becomes its words (lowercase runs of Unicode
// letters and digits), optionally without stop words and stemmed, each hashed to a u32 so
// that the index (src/engine/lexical.ts) never sees a string. The same function serves
// messages and queries, so they meet on the same terms.

export interface TermOptions {
  /**
   * "none": words as they are; "plural": a plural's s removed (Harman's S-stemmer: "puppies"
   * -> "puppy", "dogs" -> "dog"); "light" (default): also -ing, -ed and a final e ("adopted",
   * "adopting", "adopt" -> "adopt"; "moved", "moving", "move" -> "mov").
   */
  stem?: "none" | "plural" | "light";
  /** Leave out common English function words ("the", "is", "what", "you"...) (default true). */
  stopWords?: boolean;
}

/** A text's distinct terms (hashes, in order of first occurrence) and how often each occurs. */
export interface Terms {
  terms: Uint32Array;
  counts: Uint32Array;
}

const KNOWN = ["stem", "stopWords"] as const;
const WORD = /[\p{L}\p{N}]+/gu;

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
  const stem = o.stem ?? "light";
  if (stem !== "none" && stem !== "plural" && stem !== "light") {
    throw new CtxloomError("INVALID_ARGUMENT", `lexical stem must be "none", "plural" or "light"; got ${describe(stem)}.`);
  }
  if (o.stopWords !== undefined && typeof o.stopWords !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `lexical stopWords must be true or false; got ${describe(o.stopWords)}.`);
  }
  return { stem, stopWords: o.stopWords ?? true };
}

const isLetters = (w: string) => !/\d/.test(w);

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
    if (last === w[w.length - 2] && !"lsz".includes(last) && /[bcdfghjkmnpqrtvwxy]/.test(last)) w = w.slice(0, -1);
  }
  if (w.length >= 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** The words of a text as the index sees them (for tests and measurements; `lexicalTerms` hashes them). */
export function lexicalWords(text: string, options?: TermOptions): string[] {
  const { stem, stopWords } = checkTermOptions(options);
  const out: string[] = [];
  for (const [match] of text.toLowerCase().matchAll(WORD)) {
    if (stopWords && STOP.has(match)) continue;
    out.push(stem === "none" ? match : stem === "plural" ? plural(match) : light(match));
  }
  return out;
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
  const counts = new Map<number, number>();
  for (const word of lexicalWords(text, options)) {
    const h = termHash(word);
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  return { terms: Uint32Array.from(counts.keys()), counts: Uint32Array.from(counts.values()) };
}
