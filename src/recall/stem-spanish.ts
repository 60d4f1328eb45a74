// The Spanish stemmer of Snowball (https://snowballstem.org/algorithms/spanish/stemmer.html):
// RV, R1 and R2, an attached pronoun, standard suffixes, verb suffixes, residual suffixes, each
// step trying its longest matching suffix only. Tested word for word against the Snowball
// project's own JavaScript port (test/recall/stemmers.test.ts).

import { endsWithAny, endsWithAnyFrom, firstOf, longestFirst, regionAfter, romanceRV } from "./stem-kit.js";

const VOWELS = "aeiouáéíóúü";
const PRONOUNS = longestFirst([
  "me",
  "se",
  "sela",
  "selo",
  "selas",
  "selos",
  "la",
  "le",
  "lo",
  "las",
  "les",
  "los",
  "nos",
]);
const BEFORE_PRONOUN = longestFirst(["iéndo", "ándo", "ár", "ér", "ír", "ando", "iendo", "ar", "er", "ir", "yendo"]);
const UNACCENT: Record<string, string> = { iéndo: "iendo", ándo: "ando", ár: "ar", ér: "er", ír: "ir" };
const STEP1 = longestFirst([
  "anza",
  "anzas",
  "ico",
  "ica",
  "icos",
  "icas",
  "ismo",
  "ismos",
  "able",
  "ables",
  "ible",
  "ibles",
  "ista",
  "istas",
  "oso",
  "osa",
  "osos",
  "osas",
  "amiento",
  "amientos",
  "imiento",
  "imientos",
  "adora",
  "ador",
  "ación",
  "adoras",
  "adores",
  "aciones",
  "ante",
  "antes",
  "ancia",
  "ancias",
  "logía",
  "logías",
  "ución",
  "uciones",
  "encia",
  "encias",
  "amente",
  "mente",
  "idad",
  "idades",
  "iva",
  "ivo",
  "ivas",
  "ivos",
]);
const ADOR = new Set(["adora", "ador", "ación", "adoras", "adores", "aciones", "ante", "antes", "ancia", "ancias"]);
const STEP2A = longestFirst(["ya", "ye", "yan", "yen", "yeron", "yendo", "yo", "yó", "yas", "yes", "yais", "yamos"]);
const STEP2B = longestFirst(
  (
    "en es éis emos arían arías arán arás aríais aría aréis aríamos aremos ará aré erían erías erán erás eríais " +
    "ería eréis eríamos eremos " +
    "erá eré irían irías irán irás iríais iría iréis iríamos iremos irá iré aba ada ida ía ara iera ad ed id ase " +
    "iese aste iste an aban ían " +
    "aran ieran asen iesen aron ieron ado ido ando iendo ió ar er ir as abas adas idas ías aras ieras ases ieses ís " +
    "áis abais íais arais " +
    "ierais aseis ieseis asteis isteis ados idos amos ábamos íamos imos áramos iéramos iésemos ásemos"
  ).split(" "),
);
const ACUTE: Record<string, string> = { á: "a", é: "e", í: "i", ó: "o", ú: "u" };

/** The Snowball Spanish stem of a lowercase word. */
export function stemSpanish(word: string): string {
  let w = word;
  const rv = romanceRV(w, VOWELS);
  const r1 = regionAfter(w, 0, VOWELS);
  const r2 = regionAfter(w, r1, VOWELS);

  // Step 0: an attached pronoun after a gerund or infinitive.
  const pronoun = endsWithAny(w, PRONOUNS);
  if (pronoun !== null) {
    const stem = w.slice(0, -pronoun.length);
    const verb = endsWithAny(stem, BEFORE_PRONOUN);
    if (verb !== null && stem.length - verb.length >= rv) {
      const at = stem.length - verb.length;
      if (UNACCENT[verb] !== undefined) w = stem.slice(0, at) + UNACCENT[verb];
      else if (verb !== "yendo" || stem[at - 1] === "u") w = stem;
    }
  }

  // Step 1: standard suffixes.
  let removed = false;
  const s1 = endsWithAny(w, STEP1);
  if (s1 !== null) {
    const at = w.length - s1.length;
    const cut = (to: string) => {
      w = w.slice(0, at) + to;
      removed = true;
    };
    const drop = (s: string, from: number) => {
      if (w.endsWith(s) && w.length - s.length >= from) {
        w = w.slice(0, -s.length);
        return true;
      }
      return false;
    };
    if (s1 === "amente") {
      if (at >= r1) {
        cut("");
        if (drop("iv", r2)) drop("at", r2);
        else firstOf(["os", "ic", "ad"], (s) => drop(s, r2));
      }
    } else if (at >= r2) {
      if (s1 === "logía" || s1 === "logías") cut("log");
      else if (s1 === "ución" || s1 === "uciones") cut("u");
      else if (s1 === "encia" || s1 === "encias") cut("ente");
      else {
        cut("");
        if (ADOR.has(s1)) drop("ic", r2);
        else if (s1 === "mente") firstOf(["ante", "able", "ible"], (s) => drop(s, r2));
        else if (s1 === "idad" || s1 === "idades") firstOf(["abil", "ic", "iv"], (s) => drop(s, r2));
        else if (s1.startsWith("iv")) drop("at", r2);
      }
    }
  }

  // Steps 2a and 2b: verb suffixes.
  if (!removed) {
    const y = endsWithAnyFrom(w, STEP2A, rv);
    if (y !== null && w[w.length - y.length - 1] === "u") w = w.slice(0, -y.length);
    else {
      const v = endsWithAnyFrom(w, STEP2B, rv);
      if (v !== null) {
        w = w.slice(0, -v.length);
        if ((v === "en" || v === "es" || v === "éis" || v === "emos") && w.endsWith("gu")) w = w.slice(0, -1);
      }
    }
  }

  // Step 3: residual suffixes.
  const r = endsWithAny(w, ["os", "a", "o", "á", "í", "ó", "e", "é"]);
  if (r !== null && w.length - r.length >= rv) {
    w = w.slice(0, -r.length);
    if ((r === "e" || r === "é") && w.endsWith("gu") && w.length - 1 >= rv) w = w.slice(0, -1);
  }
  return w.replace(/[áéíóú]/g, (c) => ACUTE[c]!);
}
