// Words in more languages: a text's language told by its function words and letters (the
// scope's usual one when it shows none), its stop words and stems; scripts without spaces
// cut into character bigrams, so a question finds the sentence that holds its words.
import { describe, expect, it } from "vitest";
import { languageOf } from "../../src/recall/languages.js";
import { lexicalWords } from "../../src/recall/lexical-terms.js";
import { LexicalScope } from "../../src/recall/lexical-scope.js";
import { forEachEngine, makeEngine } from "../helpers.js";

const tokens = (s: string) => s.toLowerCase().match(/\p{L}+/gu) ?? [];

describe("languages", () => {
  it("tells a text's language by its function words and letters", () => {
    expect(languageOf(tokens("I moved to Lisbon with my sister last year"))).toBe("en");
    expect(languageOf(tokens("Meine Schwester ist nach Hamburg gezogen, und ich bin froh"))).toBe("de");
    expect(languageOf(tokens("Ma sœur a déménagé à Bordeaux pour son travail"))).toBe("fr");
    expect(languageOf(tokens("Mi hermana se mudó a Valencia el año pasado"))).toBe("es");
    expect(languageOf(tokens("Mia sorella si è trasferita a Torino per lavoro"))).toBe("it");
    expect(languageOf(tokens("A minha irmã mudou-se para o Porto"))).toBe("pt");
    expect(languageOf(tokens("Mijn zus is naar Utrecht verhuisd voor haar werk"))).toBe("nl");
    // No sign: the fallback (the scope's usual language).
    expect(languageOf(tokens("Tomasz!"), "pt")).toBe("pt");
    expect(languageOf(tokens("Quem renovou a cozinha?"), "pt")).toBe("pt");
  });

  it("stems and drops stop words in the text's language", () => {
    expect(lexicalWords("Meine Schwester ist umgezogen")).toEqual(["schwest", "umgezog"]);
    expect(lexicalWords("Ma sœur déménageait")).toEqual(["sœur", "déménag"]);
    expect(lexicalWords("The cats were adopted")).toEqual(["cat", "adopt"]);
  });

  it("cuts Chinese, Japanese and Thai into character bigrams, other scripts into words", () => {
    expect(lexicalWords("我姐姐搬到成都")).toEqual(["我姐", "姐姐", "姐搬", "搬到", "到成", "成都"]);
    expect(lexicalWords("東京2024年")).toEqual(["東京", "2024", "年"]);
    expect(lexicalWords("แมวสองตัว").length).toBe(8);
    expect(lexicalWords("Привет, мир")).toEqual(["привет", "мир"]);
  });
});

forEachEngine((kind) => {
  it("a question finds its sentence in Chinese, Japanese, Thai and German", async () => {
    const scope = LexicalScope.create(await makeEngine(kind));
    const texts = [
      "我姐姐去年因为工作搬到了成都。",
      "今天晚饭吃什么？",
      "姉は去年、仕事のために札幌に引っ越しました。",
      "最近、天気が変ですね。",
      "พี่สาวของฉันย้ายไปอยู่เชียงใหม่",
      "คืนนี้กินอะไรดี",
      "Meine Schwester ist nach Hamburg gezogen.",
      "Wie war dein Wochenende?",
    ];
    texts.forEach((text, key) => scope.add({ key, text }));
    const top = (q: string) => scope.query(q, 1, { k1: 1.2, b: 0.3 }).keys[0];
    expect(top("我姐姐搬到哪个城市了？")).toBe(0);
    expect(top("姉はどの町に引っ越しましたか？")).toBe(2);
    expect(top("พี่สาวย้ายไปไหน")).toBe(4);
    expect(top("Wohin ist meine Schwester umgezogen?")).toBe(6);
  });
});
