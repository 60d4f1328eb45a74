// The languages recall's lexical channel knows by their words: each with its stop words and
// its Snowball stemmer. A text's language is the one whose function words (and letters) it
// uses most: function words are the surest sign of a language in a few words, and every text
// needs them; a text that shows none clearly takes the scope's usual language. Texts in scripts without spaces
// (Chinese, Japanese, Thai) are cut by scripts.ts, whatever the language found here.

import { stemEnglish } from "./stem-english.js";
import { stemDutch, stemGerman } from "./stem-germanic.js";
import { stemSpanish } from "./stem-spanish.js";
import { stemFrench } from "./stem-french.js";
import { stemItalian, stemPortuguese } from "./stem-romance.js";

export type Language = "en" | "de" | "fr" | "es" | "it" | "pt" | "nl";

const words = (s: string) => new Set(s.split(" "));

/** Function words, lowercase, as the tokenizer cuts them (letters and digits: "don't" is "don" and "t"). */
export const STOP_WORDS: Record<Language, ReadonlySet<string>> = {
  en: words(
    "a about above after again against all am an and any are as at be because been before being below between both " +
      "but by " +
      "can could d did do does doing down during each few for from further had has have having he her here hers " +
      "herself him " +
      "himself his how i if in into is it its itself just ll m me more most my myself no nor not now of off on once " +
      "only or " +
      "other our ours ourselves out over own re s same she should so some such t than that the their theirs them " +
      "themselves " +
      "then there these they this those through to too under until up ve very was we were what when where which " +
      "while who " +
      "whom why will with would you your yours yourself yourselves",
  ),
  de: words(
    "aber alle allem als also am an auch auf aus bei bin bis bist da damit dann das dass dein deine dem den der des " +
      "dich die " +
      "dir du durch ein eine einem einen einer eines er es etwas euch euer für hab habe haben hat hatte ich ihr ihm " +
      "ihn ihre im " +
      "in ist ja jetzt kann kein keine man mein meine mich mir mit nach nicht noch nur ob oder schon sehr sein " +
      "seine sich sie " +
      "sind so über um und uns unser unter vom von vor war waren was weil welche wenn wer wie wir wird wo zu zum zur",
  ),
  fr: words(
    "a ai au aux avec avez avons c ce ces cet cette d dans de des du elle elles en est et été être eu il ils j je l " +
      "la le les " +
      "leur lui m ma mais me mes moi mon n ne nos notre nous on ont ou où par pas pour qu que qui s sa se ses si " +
      "son sont " +
      "sur t ta te tes toi ton tu un une vos votre vous y",
  ),
  es: words(
    "a al algo como con cuando de del donde el ella ellos en era es esa ese eso esta está estaba este esto fue ha " +
      "han hay " +
      "la las le les lo los me mi mis mucho muy más nada ni no nos o para pero por que qué se ser si sin sobre su " +
      "sus también " +
      "te tengo tiene tu tú un una uno y ya yo",
  ),
  it: words(
    "a ad al alla alle anche che chi ci come con da dal dalla dei del della delle di e è ed era gli ha hai ho i il " +
      "in io " +
      "la le lei li lo loro lui ma mi mia mio ne nel nella noi non per più quando questa questo se si sono su sua " +
      "suo ti tu " +
      "un una uno vi voi",
  ),
  pt: words(
    "a ao aos as até com como da das de dela dele do dos e é ela ele eles em entre era essa esse está estou " +
      "eu foi há " +
      "isso isto já lhe mais mas me meu minha muito na nas no nos não o os ou para pela pelo por que se sem seu sua " +
      "são " +
      "também te tem tenho um uma você",
  ),
  nl: words(
    "aan al als ben bij dat de deze die dit doen door dus een en er had heb heeft het hij hoe ik in is je jij kan " +
      "kunnen " +
      "maar me met mijn naar niet nog nu of om onder ons ook op over te tot u uit van veel voor was wat we wel werd " +
      "wie wij " +
      "wordt zal ze zei zich zij zijn zo",
  ),
};

export const STEMMERS: Record<Language, (word: string) => string> = {
  en: stemEnglish,
  de: stemGerman,
  fr: stemFrench,
  es: stemSpanish,
  it: stemItalian,
  pt: stemPortuguese,
  nl: stemDutch,
};

const ORDER: readonly Language[] = ["en", "de", "fr", "es", "it", "pt", "nl"];

/**
 * Each stop word's languages (by their index in ORDER): each counts 1 / their number ("a" is English, French, Spanish,
 * Italian and Portuguese).
 */
const LANGS_OF = new Map<string, number[]>();
ORDER.forEach((lang, i) => {
  for (const w of STOP_WORDS[lang]) LANGS_OF.set(w, [...(LANGS_OF.get(w) ?? []), i]);
});

/** Letters only some of these languages write, and which (indexes in ORDER). */
const LETTERS = new Map<string, number[]>(
  Object.entries({
    ß: ["de"],
    ä: ["de"],
    ö: ["de"],
    ü: ["de"],
    ñ: ["es"],
    ã: ["pt"],
    õ: ["pt"],
    ç: ["fr", "pt"],
    œ: ["fr"],
    ê: ["fr", "pt"],
    è: ["fr", "it"],
    à: ["fr", "it"],
    ò: ["it"],
    ì: ["it"],
    ù: ["fr", "it"],
    ô: ["fr", "pt"],
    â: ["fr", "pt"],
  } as Record<string, Language[]>).map(([c, langs]) => [c, langs.map((l) => ORDER.indexOf(l))]),
);

const score = new Float64Array(ORDER.length);

function credit(langs: readonly number[]): void {
  for (const i of langs) score[i]! += 1 / langs.length;
}

/**
 * The language a text's words show: each stop word counts 1 / the number of languages that
 * have it, each letter only some write counts likewise, and a language must score at least
 * 1 to be sure; else (a few words, no sign) `fallback`. O(words).
 */
export function languageOf(words: readonly string[], fallback: Language = "en"): Language {
  score.fill(0);
  for (const w of words) {
    const langs = LANGS_OF.get(w);
    if (langs !== undefined) credit(langs);
    for (let i = 0; i < w.length; i++) {
      if (w.charCodeAt(i) < 0xdf) continue;
      const letter = LETTERS.get(w[i]!);
      if (letter !== undefined) credit(letter);
    }
  }
  let best: Language = fallback;
  let most = 0.999;
  ORDER.forEach((lang, i) => {
    const v = score[i]!;
    if (v > most || (v === most && lang === fallback)) {
      most = v;
      best = lang;
    }
  });
  return best;
}
