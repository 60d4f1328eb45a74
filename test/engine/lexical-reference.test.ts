// The core's lexical index against the plain-JS BM25 the bench also uses (test/recall/eval/bm25.ts,
// written from the textbook formula): on the same words, the same top 10 for every question
// of a conversation. And on whole generated conversations (fast-check picks which, seeded;
// the seed is printed), both engines give every question the same documents and score bits.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bm25, plainWords } from "../recall/eval/bm25.js";
import { generateConversation } from "../recall/eval/generate.js";
import type { LexicalIndex } from "../../src/engine/lexical.js";
import { lexicalTerms } from "../../src/recall/lexical-terms.js";
import { ENGINES, makeEngine } from "../helpers.js";

const SEED = Number(process.env.CTXLOOM_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`lexical-reference: fast-check seed ${SEED} (rerun with CTXLOOM_SEED=${SEED})`);

const plain = { stem: "none", stopWords: false } as const;

function indexTurns(l: LexicalIndex, texts: readonly string[], options: typeof plain | undefined = plain): number {
  const x = l.create();
  texts.forEach((text, id) => {
    const t = lexicalTerms(text, options);
    l.add(x, id, t.terms, t.counts);
  });
  return x;
}

describe("lexical core = the bench's BM25 reference", () => {
  it.each(ENGINES)(
    "%s: the same top 10 for every question over the first 200 turns of a conversation",
    async (kind) => {
      const c = generateConversation(4);
      const texts = c.turns.slice(0, 200).map((t) => t.text);
      const bm25 = new Bm25({ k1: 1.2, b: 0.75 });
      texts.forEach((text, id) => bm25.add(id, plainWords(text)));
      const l = (await makeEngine(kind)).lexical;
      const x = indexTurns(l, texts);
      let compared = 0;
      for (const q of c.questions) {
        const expected = bm25.search(plainWords(q.question), 10);
        const t = lexicalTerms(q.question, plain);
        const got = l.query(x, t.terms, t.counts, 10);
        expect(Array.from(got.docs), q.question).toEqual(expected.map((h) => h.id));
        got.scores.forEach((s, i) =>
          expect(Math.abs(s - expected[i]!.score)).toBeLessThan(1e-12 * Math.max(1, expected[i]!.score)),
        );
        compared += expected.length;
      }
      expect(compared).toBeGreaterThan(500);
    },
  );
});

describe("both engines on generated conversations", () => {
  it("every question: the same documents, the same score bits (fast-check picks the conversations)", async () => {
    const [wasm, js] = await Promise.all(ENGINES.map((kind) => makeEngine(kind)));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 40 }), async (index, k) => {
        const c = generateConversation(index);
        const texts = c.turns.map((t) => t.text);
        const lexicals = [wasm!.lexical, js!.lexical];
        const xs = lexicals.map((l) => indexTurns(l, texts, undefined)); // the default terms: light stems, stop words out
        for (const q of c.questions) {
          const t = lexicalTerms(q.question);
          const [a, b] = lexicals.map((l, i) => {
            const r = l.query(xs[i]!, t.terms, t.counts, k);
            return {
              docs: Array.from(r.docs),
              bits: Array.from(new BigUint64Array(Float64Array.from(r.scores).buffer)),
            };
          });
          expect(a).toEqual(b);
        }
        lexicals.forEach((l, i) => l.drop(xs[i]!));
      }),
      { numRuns: 8, seed: SEED },
    );
  });
});
