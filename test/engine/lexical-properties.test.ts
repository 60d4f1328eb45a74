// The lexical index on random conversations (fast-check, seeded; the seed is printed): the
// WASM core and its TypeScript twin return the same documents with the same score bits after
// any sequence of adds, removals and queries, and both equal a brute-force BM25 recomputed
// from scratch over the documents indexed at that moment.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsEngine, WasmEngine, embeddedModule } from "../../src/engine/index.js";
import { LEXICAL_MAX_TF, termWeight, type LexicalIndex } from "../../src/engine/lexical.js";
import { lexicalTerms } from "../../src/recall/lexical-terms.js";

const SEED = Number(process.env.CTXLOOM_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`lexical-properties: fast-check seed ${SEED} (rerun with CTXLOOM_SEED=${SEED})`);

/** Small vocabularies, so that queries share terms with many messages and scores tie often. */
const WORDS = ["luna", "puppy", "caroline", "hey", "mel", "lisbon", "pottery", "class", "moved", "job", "nurse", "yesterday", "great", "dog"];

const message = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(" "));
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant("add" as const), text: message, id: fc.oneof(fc.nat(300), fc.nat(5000)) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("remove" as const), ids: fc.array(fc.nat(300), { maxLength: 6 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("query" as const), text: message, k: fc.nat(12), k1: fc.constantFrom(0, 0.5, 1.2, 2), b: fc.constantFrom(0, 0.3, 0.75, 1) }) },
);

interface Doc { terms: Uint32Array; counts: Uint32Array; length: number }

/** BM25 from scratch over the live documents, with the core's operation order: the expected bits. */
function bruteForce(docs: Map<number, Doc>, terms: Uint32Array, counts: Uint32Array, k: number, k1: number, b: number) {
  let total = 0;
  for (const d of docs.values()) total += d.length;
  const avgdl = total / docs.size;
  const scores = new Map<number, number>();
  for (let i = 0; i < terms.length; i++) {
    const holders = [...docs].filter(([, d]) => d.terms.includes(terms[i]!));
    if (counts[i] === 0 || holders.length === 0) continue;
    const w = termWeight(counts[i]!, docs.size, holders.length);
    for (const [id, d] of holders) {
      const tf = Math.min(d.counts[d.terms.indexOf(terms[i]!)]!, LEXICAL_MAX_TF);
      scores.set(id, (scores.get(id) ?? 0) + w * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * (d.length / avgdl)))));
    }
  }
  const all = [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, k);
  return { docs: all.map(([id]) => id), bits: bits(all.map(([, s]) => s)) };
}

const bits = (scores: ArrayLike<number>): string[] => Array.from(new BigUint64Array(Float64Array.from(scores).buffer), (v) => v.toString(16));

describe("lexical index, random operation sequences", () => {
  it("both engines and the brute-force reference agree bit for bit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        const lexicals: LexicalIndex[] = [(await WasmEngine.create(await embeddedModule())).lexical, new JsEngine().lexical];
        const xs = lexicals.map((l) => l.create());
        const live = new Map<number, Doc>();
        for (const o of ops) {
          if (o.t === "add") {
            const t = lexicalTerms(o.text, { stem: "none", stopWords: false });
            const outcome = lexicals.map((l, i) => {
              try {
                l.add(xs[i]!, o.id, t.terms, t.counts);
                return "added";
              } catch (e) {
                return (e as { code?: string }).code;
              }
            });
            expect(outcome[0]).toBe(outcome[1]);
            expect(outcome[0]).toBe(live.has(o.id) ? "INVALID_ARGUMENT" : "added");
            if (!live.has(o.id)) live.set(o.id, { ...t, length: t.counts.reduce((a, c) => a + c, 0) });
          } else if (o.t === "remove") {
            const removed = lexicals.map((l, i) => l.remove(xs[i]!, o.ids));
            const expected = new Set(o.ids.filter((id) => live.has(id))).size;
            for (const id of o.ids) live.delete(id);
            expect(removed).toEqual([expected, expected]);
          } else {
            const q = lexicalTerms(o.text, { stem: "none", stopWords: false });
            const answers = lexicals.map((l, i) => {
              const r = l.query(xs[i]!, q.terms, q.counts, o.k, o.k1, o.b);
              return { docs: Array.from(r.docs), bits: bits(r.scores) };
            });
            expect(answers[0]).toEqual(answers[1]);
            expect(answers[0]).toEqual(live.size === 0 || o.k === 0 ? { docs: [], bits: [] } : bruteForce(live, q.terms, q.counts, o.k, o.k1, o.b));
          }
          expect(lexicals.map((l, i) => l.docs(xs[i]!))).toEqual([live.size, live.size]);
          expect(lexicals[0]!.terms(xs[0]!)).toBe(lexicals[1]!.terms(xs[1]!));
        }
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});
