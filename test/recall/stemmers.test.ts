// The Snowball stemmers (src/recall/stem-*.ts) against the Snowball project's own JavaScript
// port (the snowball-stemmers package, a dev dependency), word for word: English on every word
// of the evaluation set (and the OpenAssistant trees when ../shared/data is there), the other
// languages on inflected forms written for the comparison and the multilingual set's words.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, it } from "vitest";
import { STEMMERS, type Language } from "../../src/recall/languages.js";
import { evaluationSet } from "./eval/generate.js";
import { LANGUAGES } from "./eval/multilingual.js";
import { STEMMER_WORDS } from "./stemmer-words.js";

const snowball = createRequire(import.meta.url)("snowball-stemmers") as {
  newStemmer(name: string): { stem(w: string): string };
};
const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
const LANGS: [Language, string][] = [
  ["en", "english"],
  ["de", "german"],
  ["fr", "french"],
  ["es", "spanish"],
  ["it", "italian"],
  ["pt", "portuguese"],
  ["nl", "dutch"],
];
const SET: Record<string, string> = {
  german: "German",
  french: "French",
  spanish: "Spanish",
  italian: "Italian",
  portuguese: "Portuguese",
  dutch: "Dutch",
};

it.each(LANGS)("%s stems as Snowball's own port does", (lang, name) => {
  let text = STEMMER_WORDS[name] ?? "";
  const set = LANGUAGES.find((l) => l.language === SET[name]);
  if (set) text += " " + set.facts.flat().join(" ") + " " + set.filler.flat().join(" ");
  if (lang === "en") {
    text = evaluationSet()
      .flatMap((c) => c.turns.map((t) => t.text))
      .join(" ");
    const oasst = new URL("../../../shared/data/oasst/en_100_tree.jsonl", import.meta.url);
    if (existsSync(oasst)) text += " " + readFileSync(oasst, "utf8");
  }
  const reference = snowball.newStemmer(name);
  const all = [...words(text)];
  expect(all.length).toBeGreaterThan(lang === "en" ? 1000 : 50);
  const differ = all
    .filter((w) => STEMMERS[lang](w) !== reference.stem(w))
    .map((w) => `${w}: ${STEMMERS[lang](w)} vs ${reference.stem(w)}`);
  expect(differ).toEqual([]);
});
