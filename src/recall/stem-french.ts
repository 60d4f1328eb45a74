// The French stemmer of Snowball (https://snowballstem.org/algorithms/french/stemmer.html):
// RV, R1 and R2, standard suffixes, verb suffixes (searched within RV), a residual suffix,
// then undoubling and unaccenting. Tested word for word against the Snowball project's own
// JavaScript port (test/recall/stemmers.test.ts).

import { endsWithAny, endsWithAnyFrom, longestFirst, regionAfter } from "./stem-kit.js";

const VOWELS = "aeiouyâàëéêèïîôûù";
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.includes(c);
const STEP1 = longestFirst(
  (
    "ance iqUe isme able iste eux ances iqUes ismes ables istes atrice ateur ation atrices ateurs ations logie " +
    "logies usion ution " +
    "usions utions ence ences ement ements ité ités if ive ifs ives eaux aux euse euses issement issements amment " +
    "emment ment ments"
  ).split(" "),
);
const STEP2A = longestFirst(
  (
    "îmes ît îtes i ie ies ir ira irai iraIent irais irait iras irent irez iriez irions irons iront is issaIent " +
    "issais issait issant " +
    "issante issantes issants isse issent isses issez issiez issions issons it"
  ).split(" "),
);
const STEP2B = longestFirst(
  (
    "ions é ée ées és èrent er era erai eraIent erais erait eras erez eriez erions erons eront ez iez âmes ât âtes " +
    "a ai aIent ais ait " +
    "ant ante antes ants as asse assent asses assiez assions"
  ).split(" "),
);

/** Marks u and i between vowels, y beside a vowel and u after q as consonants (U, I, Y). */
function mark(word: string): string {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    const before = out[i - 1];
    const after = word[i + 1];
    if ((c === "u" || c === "i") && isVowel(before) && isVowel(after)) out += c.toUpperCase();
    else if (c === "y" && (isVowel(before) || isVowel(after))) out += "Y";
    else if (c === "u" && before === "q") out += "U";
    else out += c;
  }
  return out;
}

/**
 * RV: after the third letter when the word starts with two vowels (or par, col, tap), else after the first vowel past
 * the first letter.
 */
function regionRV(w: string): number {
  if (w.length >= 3 && (/^(par|col|tap)/.test(w) || (isVowel(w[0]) && isVowel(w[1])))) return 3;
  for (let i = 1; i < w.length; i++) if (isVowel(w[i])) return i + 1;
  return w.length;
}

/** The Snowball French stem of a lowercase word. */
export function stemFrench(word: string): string {
  let w = mark(word);
  const rv = regionRV(w);
  const r1 = regionAfter(w, 0, VOWELS);
  const r2 = regionAfter(w, r1, VOWELS);
  const drop = (s: string, from: number) => {
    if (!w.endsWith(s) || w.length - s.length < from) return false;
    w = w.slice(0, -s.length);
    return true;
  };
  const swap = (s: string, to: string, from: number) => {
    if (!w.endsWith(s) || w.length - s.length < from) return false;
    w = w.slice(0, -s.length) + to;
    return true;
  };

  // Step 1: standard suffixes. `done`: it altered the word and verbs are not looked at.
  let done = false;
  let altered = false;
  const s1 = endsWithAny(w, STEP1);
  if (s1 !== null) {
    const at = w.length - s1.length;
    const cut = (to: string) => {
      w = w.slice(0, at) + to;
      done = true;
    };
    if (/^(ance|iqUe|isme|able|iste|eux)s?$/.test(s1)) {
      if (at >= r2) cut("");
    } else if (/^(atrice|ateur|ation)s?$/.test(s1)) {
      if (at >= r2) {
        cut("");
        if (!drop("ic", r2)) swap("ic", "iqU", 0);
      }
    } else if (s1.startsWith("logie")) {
      if (at >= r2) cut("log");
    } else if (/^u[st]ions?$/.test(s1)) {
      if (at >= r2) cut("u");
    } else if (s1.startsWith("ence")) {
      if (at >= r2) cut("ent");
    } else if (s1 === "ement" || s1 === "ements") {
      if (at >= rv) {
        cut("");
        if (drop("iv", r2)) drop("at", r2);
        else if (w.endsWith("eus")) {
          if (!drop("eus", r2)) swap("eus", "eux", r1);
        } else if (!drop("abl", r2) && !drop("iqU", r2)) {
          if (!swap("ièr", "i", rv)) swap("Ièr", "i", rv);
        }
      }
    } else if (s1 === "ité" || s1 === "ités") {
      if (at >= r2) {
        cut("");
        if (w.endsWith("abil")) {
          if (!drop("abil", r2)) swap("abil", "abl", 0);
        } else if (w.endsWith("ic")) {
          if (!drop("ic", r2)) swap("ic", "iqU", 0);
        } else drop("iv", r2);
      }
    } else if (/^i(f|ve)s?$/.test(s1)) {
      if (at >= r2) {
        cut("");
        if (drop("at", r2) && !drop("ic", r2)) swap("ic", "iqU", 0);
      }
    } else if (s1 === "eaux") cut("eau");
    else if (s1 === "aux") {
      if (at >= r1) cut("al");
    } else if (s1 === "euse" || s1 === "euses") {
      if (at >= r2) cut("");
      else if (at >= r1) cut("eux");
    } else if (s1.startsWith("issement")) {
      if (at >= r1 && !isVowel(w[at - 1])) cut("");
    } else if (s1 === "amment" || s1 === "emment") {
      if (at >= rv) w = w.slice(0, at) + (s1 === "amment" ? "ant" : "ent");
    } else if (at - 1 >= rv && isVowel(w[at - 1])) w = w.slice(0, at); // ment, ments: verbs are looked at next
  }
  altered = done;

  // Steps 2a and 2b: verb suffixes, within RV.
  if (!done) {
    const i = endsWithAnyFrom(w, STEP2A, rv);
    if (i !== null && w.length - i.length - 1 >= rv && !isVowel(w[w.length - i.length - 1])) {
      w = w.slice(0, -i.length);
      altered = true;
    } else {
      const v = endsWithAnyFrom(w, STEP2B, rv);
      if (v === "ions") altered = drop("ions", r2);
      else if (v !== null) {
        w = w.slice(0, -v.length);
        altered = true;
        if (/^(âmes|ât|âtes|a|ai|aIent|ais|ait|ant|ante|antes|ants|as|asse|assent|asses|assiez|assions)$/.test(v))
          drop("e", rv);
      }
    }
  }

  if (altered) {
    // Step 3.
    if (w.endsWith("Y")) w = w.slice(0, -1) + "i";
    else if (w.endsWith("ç")) w = w.slice(0, -1) + "c";
  } else {
    // Step 4: a residual suffix.
    if (w.endsWith("s") && !"aiouès".includes(w[w.length - 2] ?? "a")) w = w.slice(0, -1);
    const r = endsWithAnyFrom(w, ["ière", "Ière", "ier", "Ier", "ion", "e", "ë"], rv);
    if (r === "ion") {
      if (w.length - 3 >= r2 && w.length - 4 >= rv && "st".includes(w[w.length - 4] ?? "x")) w = w.slice(0, -3);
    } else if (r?.toLowerCase().startsWith("i")) w = w.slice(0, -r.length) + "i";
    else if (r === "e") w = w.slice(0, -1);
    else if (r === "ë" && w.endsWith("guë") && w.length - 3 >= rv) w = w.slice(0, -1);
  }
  // Step 5: undouble.
  if (/(enn|onn|ett|ell|eill)$/.test(w)) w = w.slice(0, -1);
  // Step 6: unaccent an é or è before the final consonants.
  let j = w.length;
  while (j > 0 && !isVowel(w[j - 1])) j--;
  if (j < w.length && j > 0 && (w[j - 1] === "é" || w[j - 1] === "è")) w = w.slice(0, j - 1) + "e" + w.slice(j);
  return w.replace(/I/g, "i").replace(/U/g, "u").replace(/Y/g, "y");
}
