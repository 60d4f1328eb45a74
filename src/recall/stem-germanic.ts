// The German and Dutch stemmers of Snowball (https://snowballstem.org/algorithms/german/stemmer.html,
// .../dutch/stemmer.html): R1 (at least three letters in) and R2, suffixes removed step by
// step, each step trying its longest matching suffix only. Tested word for word against the
// Snowball project's own JavaScript port (test/recall/stemmers.test.ts).

import { endsWithAny, longestFirst, regionAfter } from "./stem-kit.js";

const DE_VOWELS = "aeiouyäöü";
const DE_S_ENDING = "bdfghklmnrt";
const DE_ST_ENDING = "bdfghklmnt";
const DE_STEP1 = longestFirst(["em", "ern", "er", "e", "en", "es", "s"]);
const DE_STEP2 = longestFirst(["en", "er", "est", "st"]);
const DE_STEP3 = longestFirst(["end", "ung", "ig", "ik", "isch", "lich", "heit", "keit"]);

/** u and y between vowels marked (U, Y) so that they count as consonants. */
function markBetween(w: string, vowels: string, letters: string): string {
  let out = "";
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const between = i > 0 && i < w.length - 1 && vowels.includes(out[i - 1]!) && vowels.includes(w[i + 1]!);
    out += letters.includes(c) && between ? c.toUpperCase() : c;
  }
  return out;
}

/** The Snowball German stem of a lowercase word. */
export function stemGerman(word: string): string {
  let w = markBetween(word.replace(/ß/g, "ss"), DE_VOWELS, "uy");
  const r1 = Math.max(3, regionAfter(w, 0, DE_VOWELS));
  const r2 = regionAfter(w, regionAfter(w, 0, DE_VOWELS), DE_VOWELS);

  const s1 = endsWithAny(w, DE_STEP1);
  if (s1 !== null && w.length - s1.length >= r1) {
    const at = w.length - s1.length;
    if (s1 !== "s" || DE_S_ENDING.includes(w[at - 1] ?? "")) {
      w = w.slice(0, at);
      if ((s1 === "e" || s1 === "en" || s1 === "es") && w.endsWith("niss")) w = w.slice(0, -1);
    }
  }
  const s2 = endsWithAny(w, DE_STEP2);
  if (s2 !== null && w.length - s2.length >= r1) {
    const at = w.length - s2.length;
    if (s2 !== "st" || (DE_ST_ENDING.includes(w[at - 1] ?? "") && at - 1 >= 3)) w = w.slice(0, at);
  }
  const s3 = endsWithAny(w, DE_STEP3);
  if (s3 !== null && w.length - s3.length >= r2) {
    const at = w.length - s3.length;
    const before = w.slice(0, at);
    if (s3 === "end" || s3 === "ung") {
      w = before;
      if (w.endsWith("ig") && w.length - 2 >= r2 && w[w.length - 3] !== "e") w = w.slice(0, -2);
    } else if (s3 === "ig" || s3 === "ik" || s3 === "isch") {
      if (w[at - 1] !== "e") w = before;
    } else if (s3 === "lich" || s3 === "heit") {
      w = before;
      if ((w.endsWith("er") || w.endsWith("en")) && w.length - 2 >= r1) w = w.slice(0, -2);
    } else {
      w = before;
      const more = endsWithAny(w, ["lich", "ig"]);
      if (more !== null && w.length - more.length >= r2) w = w.slice(0, -more.length);
    }
  }
  return w.replace(/U/g, "u").replace(/Y/g, "y").replace(/ä/g, "a").replace(/ö/g, "o").replace(/ü/g, "u");
}

const NL_VOWELS = "aeiouyè";
const NL_ACCENTS: Record<string, string> = {
  ä: "a",
  ë: "e",
  ï: "i",
  ö: "o",
  ü: "u",
  á: "a",
  é: "e",
  í: "i",
  ó: "o",
  ú: "u",
};

const isNlVowel = (c: string | undefined) => c !== undefined && NL_VOWELS.includes(c);

/** kk, dd or tt at the end loses a letter. */
const undouble = (w: string) => (/(kk|dd|tt)$/.test(w) ? w.slice(0, -1) : w);

/** The Snowball Dutch stem of a lowercase word. */
export function stemDutch(word: string): string {
  let w = word.replace(/[äëïöüáéíóú]/g, (c) => NL_ACCENTS[c]!);
  let marked = "";
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const afterVowel = i > 0 && isNlVowel(marked[i - 1]);
    if (c === "y" && (i === 0 || afterVowel)) marked += "Y";
    else if (c === "i" && afterVowel && isNlVowel(w[i + 1])) marked += "I";
    else marked += c;
  }
  w = marked;
  const r1 = Math.max(3, regionAfter(w, 0, NL_VOWELS));
  const r2 = regionAfter(w, regionAfter(w, 0, NL_VOWELS), NL_VOWELS);
  const validEn = (at: number) => at > 0 && !isNlVowel(w[at - 1]) && !w.slice(0, at).endsWith("gem");

  // Step 1.
  const s1 = endsWithAny(w, ["heden", "ene", "en", "se", "s"]);
  if (s1 !== null && w.length - s1.length >= r1) {
    const at = w.length - s1.length;
    if (s1 === "heden") w = w.slice(0, at) + "heid";
    else if (s1 === "en" || s1 === "ene") {
      if (validEn(at)) w = undouble(w.slice(0, at));
    } else if (at > 0 && !isNlVowel(w[at - 1]) && w[at - 1] !== "j") w = w.slice(0, at);
  }
  // Step 2.
  let removedE = false;
  const step2 = () => {
    if (w.endsWith("e") && w.length - 1 >= r1 && w.length > 1 && !isNlVowel(w[w.length - 2])) {
      w = undouble(w.slice(0, -1));
      removedE = true;
    }
  };
  step2();
  // Step 3a.
  if (w.endsWith("heid") && w.length - 4 >= r2 && w[w.length - 5] !== "c") {
    w = w.slice(0, -4);
    if (w.endsWith("en") && w.length - 2 >= r1 && validEn(w.length - 2)) w = undouble(w.slice(0, -2));
  }
  // Step 3b.
  const s3 = endsWithAny(w, ["lijk", "baar", "end", "ing", "bar", "ig"]);
  if (s3 !== null && w.length - s3.length >= r2) {
    const at = w.length - s3.length;
    if (s3 === "end" || s3 === "ing") {
      w = w.slice(0, at);
      if (w.endsWith("ig") && w.length - 2 >= r2 && w[w.length - 3] !== "e") w = w.slice(0, -2);
      else w = undouble(w);
    } else if (s3 === "ig") {
      if (w[at - 1] !== "e") w = w.slice(0, at);
    } else if (s3 === "lijk") {
      w = w.slice(0, at);
      step2();
    } else if (s3 === "baar") w = w.slice(0, at);
    else if (removedE) w = w.slice(0, at);
  }
  // Step 4: a doubled vowel before a final consonant is undoubled.
  const n = w.length;
  if (
    n >= 4 &&
    !isNlVowel(w[n - 4]) &&
    /^(aa|ee|oo|uu)$/.test(w.slice(n - 3, n - 1)) &&
    !isNlVowel(w[n - 1]) &&
    w[n - 1] !== "I"
  ) {
    w = w.slice(0, n - 2) + w[n - 1];
  }
  return w.replace(/I/g, "i").replace(/Y/g, "y");
}
