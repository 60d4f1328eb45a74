// The English stemmer of Snowball ("Porter2", Martin Porter's revision of his 1980 algorithm):
// https://snowballstem.org/algorithms/english/stemmer.html. Its steps, in the algorithm's
// words: R1 and R2 regions, then suffixes removed or replaced step by step, each step trying
// its longest matching suffix only. Tested word for word against the Snowball project's own
// JavaScript port (test/recall/stemmers.test.ts).

import { endsWithAny, isVowelIn, regionAfter } from "./stem-kit.js";

const VOWELS = "aeiouy";
const isVowel = (c: string | undefined): boolean => c !== undefined && VOWELS.includes(c);
const DOUBLES = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];
const LI_ENDINGS = "cdeghkmnrt";

const EXCEPTIONS = new Map<string, string>(
  Object.entries({
    skis: "ski",
    skies: "sky",
    dying: "die",
    lying: "lie",
    tying: "tie",
    idly: "idl",
    gently: "gentl",
    ugly: "ugli",
    early: "earli",
    only: "onli",
    singly: "singl",
    sky: "sky",
    news: "news",
    howe: "howe",
    atlas: "atlas",
    cosmos: "cosmos",
    bias: "bias",
    andes: "andes",
  }),
);
const AFTER_1A = new Set(["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]);

const STEP2: [string, string][] = [
  ["ization", "ize"],
  ["ational", "ate"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["tional", "tion"],
  ["biliti", "ble"],
  ["lessli", "less"],
  ["entli", "ent"],
  ["ation", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["ousli", "ous"],
  ["iviti", "ive"],
  ["fulli", "ful"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["izer", "ize"],
  ["ator", "ate"],
  ["alli", "al"],
  ["bli", "ble"],
  ["ogi", "og"],
  ["li", ""],
];
const STEP3: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ative", ""],
  ["ical", "ic"],
  ["ness", ""],
  ["ful", ""],
];
const STEP4 = [
  "ement",
  "ance",
  "ence",
  "able",
  "ible",
  "ment",
  "ant",
  "ent",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ion",
  "al",
  "er",
  "ic",
];

/** Whether the word ends in a short syllable at `end` (exclusive): see the algorithm's definition. */
function shortSyllable(w: string, end: number): boolean {
  if (end === 2) return isVowel(w[0]) && !isVowel(w[1]);
  if (end < 3) return false;
  const c = w[end - 1]!;
  return !isVowel(w[end - 3]) && isVowel(w[end - 2]) && !isVowel(c) && c !== "w" && c !== "x" && c !== "Y";
}

/** The Snowball English stem of a lowercase word. */
export function stemEnglish(word: string): string {
  if (word.length <= 2) return word;
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  let w = word[0] === "y" ? "Y" + word.slice(1) : word;
  for (let i = 1; i < w.length; i++) if (w[i] === "y" && isVowel(w[i - 1])) w = w.slice(0, i) + "Y" + w.slice(i + 1);
  const r1 =
    w.startsWith("gener") || w.startsWith("arsen") ? 5 : w.startsWith("commun") ? 6 : regionAfter(w, 0, VOWELS);
  const r2 = regionAfter(w, r1, VOWELS);

  // Step 1a.
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ied") || w.endsWith("ies")) w = w.slice(0, -3) + (w.length > 4 ? "i" : "ie");
  else if (w.endsWith("us") || w.endsWith("ss")) {
    // unchanged
  } else if (w.endsWith("s") && isVowelIn(w, 0, w.length - 2, VOWELS)) w = w.slice(0, -1);
  if (AFTER_1A.has(w)) return w;

  // Step 1b.
  const b = endsWithAny(w, ["eedly", "ingly", "edly", "eed", "ing", "ed"]);
  if (b === "eed" || b === "eedly") {
    if (w.length - b.length >= r1) w = w.slice(0, -b.length) + "ee";
  } else if (b !== null && isVowelIn(w, 0, w.length - b.length, VOWELS)) {
    w = w.slice(0, -b.length);
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (endsWithAny(w, DOUBLES) !== null) w = w.slice(0, -1);
    else if (r1 >= w.length && shortSyllable(w, w.length)) w += "e";
  }

  // Step 1c.
  const last = w[w.length - 1];
  if ((last === "y" || last === "Y") && w.length > 2 && !isVowel(w[w.length - 2])) w = w.slice(0, -1) + "i";

  // Step 2.
  for (const [suffix, by] of STEP2) {
    if (!w.endsWith(suffix)) continue;
    const at = w.length - suffix.length;
    if (at >= r1) {
      if (suffix === "ogi") {
        if (w[at - 1] === "l") w = w.slice(0, at) + by;
      } else if (suffix === "li") {
        if (LI_ENDINGS.includes(w[at - 1] ?? "")) w = w.slice(0, at);
      } else w = w.slice(0, at) + by;
    }
    break;
  }

  // Step 3.
  for (const [suffix, by] of STEP3) {
    if (!w.endsWith(suffix)) continue;
    const at = w.length - suffix.length;
    if (at >= r1 && (suffix !== "ative" || at >= r2)) w = w.slice(0, at) + by;
    break;
  }

  // Step 4.
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const at = w.length - suffix.length;
    if (at >= r2 && (suffix !== "ion" || w[at - 1] === "s" || w[at - 1] === "t")) w = w.slice(0, at);
    break;
  }

  // Step 5.
  const end = w.length - 1;
  if (w[end] === "e" && (end >= r2 || (end >= r1 && !shortSyllable(w, end)))) w = w.slice(0, end);
  else if (w[end] === "l" && end >= r2 && w[end - 1] === "l") w = w.slice(0, end);
  return w.replace(/Y/g, "y");
}
