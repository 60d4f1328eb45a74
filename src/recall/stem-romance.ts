// The Italian and Portuguese stemmers of Snowball (https://snowballstem.org/algorithms/italian/stemmer.html,
// .../portuguese/stemmer.html): RV, R1 and R2, standard suffixes, verb suffixes (searched
// within RV), residual suffixes. Tested word for word against the Snowball project's own
// JavaScript port (test/recall/stemmers.test.ts).

import { endsWithAny, endsWithAnyFrom, firstOf, longestFirst, regionAfter, romanceRV } from "./stem-kit.js";

/** A word being stemmed: its letters, regions, and suffix operations on them. */
class Word {
  w: string;
  readonly rv: number;
  readonly r1: number;
  readonly r2: number;

  constructor(w: string, vowels: string) {
    this.w = w;
    this.rv = romanceRV(w, vowels);
    this.r1 = regionAfter(w, 0, vowels);
    this.r2 = regionAfter(w, this.r1, vowels);
  }

  /** Removes suffix `s` if the word ends with it at or after `from`; whether it did. */
  drop(s: string, from: number): boolean {
    if (!this.w.endsWith(s) || this.w.length - s.length < from) return false;
    this.w = this.w.slice(0, -s.length);
    return true;
  }
}

const IT_VOWELS = "aeiouàèìòù";
const IT_PRONOUNS = longestFirst(
  (
    "ci gli la le li lo mi ne si ti vi sene gliela gliele glieli glielo gliene mela mele meli melo mene tela tele " +
    "teli telo tene " +
    "cela cele celi celo cene vela vele veli velo vene"
  ).split(" "),
);
const IT_STEP1 = longestFirst(
  (
    "anza anze ico ici ica ice iche ichi ismo ismi abile abili ibile ibili ista iste isti istà istè istì oso osi " +
    "osa ose mente atrice " +
    "atrici ante anti azione azioni atore atori logia logie uzione uzioni usione usioni enza enze amento amenti " +
    "imento imenti amente " +
    "ità ivo ivi iva ive"
  ).split(" "),
);
const IT_STEP2 = longestFirst(
  (
    "ammo ando ano are arono asse assero assi assimo ata ate ati ato ava avamo avano avate avi avo emmo enda ende " +
    "endi endo erà erai " +
    "eranno ere erebbe erebbero erei eremmo eremo ereste eresti erete erò erono essero ete eva evamo evano evate " +
    "evi evo iamo immo irà " +
    "irai iranno ire irebbe irebbero irei iremmo iremo ireste iresti irete irò irono isca iscano isce isci isco " +
    "iscono issero ita ite " +
    "iti ito iva ivamo ivano ivate ivi ivo ono uta ute uti uto ar ir"
  ).split(" "),
);
const GRAVE: Record<string, string> = { á: "à", é: "è", í: "ì", ó: "ò", ú: "ù" };

/** The Snowball Italian stem of a lowercase word. */
export function stemItalian(word: string): string {
  let pre = word.replace(/[áéíóú]/g, (c) => GRAVE[c]!).replace(/qu/g, "qU");
  let marked = "";
  for (let i = 0; i < pre.length; i++) {
    const c = pre[i]!;
    const between = i > 0 && IT_VOWELS.includes(marked[i - 1]!) && IT_VOWELS.includes(pre[i + 1] ?? "");
    marked += (c === "u" || c === "i") && between ? c.toUpperCase() : c;
  }
  pre = marked;
  const x = new Word(pre, IT_VOWELS);
  const pronoun = endsWithAny(x.w, IT_PRONOUNS);
  if (pronoun !== null) {
    const stem = x.w.slice(0, -pronoun.length);
    const verb = endsWithAny(stem, ["ando", "endo", "ar", "er", "ir"]);
    if (verb !== null && stem.length - verb.length >= x.rv) x.w = verb.length === 4 ? stem : stem + "e";
  }
  let removed = false;
  const s1 = endsWithAny(x.w, IT_STEP1);
  if (s1 !== null) {
    const at = x.w.length - s1.length;
    const cut = (to: string) => {
      x.w = x.w.slice(0, at) + to;
      removed = true;
    };
    if (s1 === "amente") {
      if (at >= x.r1) {
        cut("");
        if (x.drop("iv", x.r2)) x.drop("at", x.r2);
        else firstOf(["os", "ic", "abil"], (s) => x.drop(s, x.r2));
      }
    } else if (s1.startsWith("amen") || s1.startsWith("imen")) {
      if (at >= x.rv) cut("");
    } else if (at >= x.r2) {
      if (s1 === "logia" || s1 === "logie") cut("log");
      else if (/^u[sz]ion/.test(s1)) cut("u");
      else if (s1 === "enza" || s1 === "enze") cut("ente");
      else {
        cut("");
        if (/^a(zion|tor)/.test(s1)) x.drop("ic", x.r2);
        else if (s1 === "ità") firstOf(["abil", "ic", "iv"], (s) => x.drop(s, x.r2));
        else if (/^iv[oiae]$/.test(s1) && x.drop("at", x.r2)) x.drop("ic", x.r2);
      }
    }
  }
  if (!removed) {
    const v = endsWithAnyFrom(x.w, IT_STEP2, x.rv);
    if (v !== null) x.w = x.w.slice(0, -v.length);
  }
  if (endsWithAnyFrom(x.w, ["a", "e", "i", "o", "à", "è", "ì", "ò"], x.rv) !== null) {
    x.w = x.w.slice(0, -1);
    x.drop("i", x.rv);
  }
  if (endsWithAnyFrom(x.w, ["ch", "gh"], x.rv) !== null) x.w = x.w.slice(0, -1);
  return x.w.replace(/I/g, "i").replace(/U/g, "u");
}

const PT_VOWELS = "aeiouáéíóúâêô";
const PT_STEP1 = longestFirst(
  (
    "eza ezas ico ica icos icas ismo ismos ável ível ista istas oso osa osos osas amento amentos imento imentos " +
    "adora ador aça~o " +
    "adoras adores aço~es ante antes ância logia logias uça~o uço~es ência ências amente mente idade idades iva ivo " +
    "ivas ivos ira iras"
  ).split(" "),
);
const PT_STEP2 = longestFirst(
  (
    "ada ida ia aria eria iria ará ara erá era irá ava asse esse isse aste este iste ei arei erei irei am iam ariam " +
    "eriam iriam aram " +
    "eram iram avam em arem erem irem assem essem issem ado ido ando endo indo ara~o era~o ira~o ar er ir as adas " +
    "idas ias arias erias " +
    "irias arás aras erás eras irás avas es ardes erdes irdes ares eres ires asses esses isses astes estes istes is " +
    "ais eis íeis aríeis " +
    "eríeis iríeis áreis areis éreis ereis íreis ireis ásseis ésseis ísseis áveis ados idos ámos amos íamos aríamos " +
    "eríamos iríamos " +
    "áramos éramos íramos ávamos emos aremos eremos iremos ássemos êssemos íssemos imos armos ermos irmos eu iu ou"
  ).split(" "),
);

/** The Snowball Portuguese stem of a lowercase word. */
export function stemPortuguese(word: string): string {
  const x = new Word(word.replace(/ã/g, "a~").replace(/õ/g, "o~"), PT_VOWELS);
  let changed = false;
  const s1 = endsWithAny(x.w, PT_STEP1);
  if (s1 !== null) {
    const at = x.w.length - s1.length;
    const cut = (to: string) => {
      x.w = x.w.slice(0, at) + to;
      changed = true;
    };
    if (s1 === "amente") {
      if (at >= x.r1) {
        cut("");
        if (x.drop("iv", x.r2)) x.drop("at", x.r2);
        else firstOf(["os", "ic", "ad"], (s) => x.drop(s, x.r2));
      }
    } else if (s1 === "ira" || s1 === "iras") {
      if (at >= x.rv && x.w[at - 1] === "e") cut("ir");
    } else if (at >= x.r2) {
      if (s1.startsWith("logia")) cut("log");
      else if (s1.startsWith("uç")) cut("u");
      else if (s1.startsWith("ência")) cut("ente");
      else {
        cut("");
        if (s1 === "mente") firstOf(["ante", "avel", "ível"], (s) => x.drop(s, x.r2));
        else if (s1.startsWith("idade")) firstOf(["abil", "ic", "iv"], (s) => x.drop(s, x.r2));
        else if (/^iv[ao]s?$/.test(s1)) x.drop("at", x.r2);
      }
    }
  }
  if (!changed) {
    const v = endsWithAnyFrom(x.w, PT_STEP2, x.rv);
    if (v !== null) {
      x.w = x.w.slice(0, -v.length);
      changed = true;
    }
  }
  if (changed) {
    if (x.w.endsWith("ci") && x.w.length - 1 >= x.rv) x.w = x.w.slice(0, -1);
  } else {
    const r = endsWithAnyFrom(x.w, ["os", "a", "i", "o", "á", "í", "ó"], x.rv);
    if (r !== null) x.w = x.w.slice(0, -r.length);
  }
  const e = endsWithAnyFrom(x.w, ["e", "é", "ê"], x.rv);
  if (e !== null) {
    x.w = x.w.slice(0, -1);
    if ((x.w.endsWith("gu") || x.w.endsWith("ci")) && x.w.length - 1 >= x.rv) x.w = x.w.slice(0, -1);
  } else if (x.w.endsWith("ç")) x.w = x.w.slice(0, -1) + "c";
  return x.w.replace(/a~/g, "ã").replace(/o~/g, "õ");
}
