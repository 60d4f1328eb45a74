// The lexical index on random conversations (fast-check, seeded; the seed is printed): the
// WASM core and its TypeScript twin return the same documents with the same score bits after
// any sequence of adds (linked after another document, in a segment), removals and queries
// (with window and segment weights), and both equal a brute-force score recomputed from
// scratch over the documents indexed at that moment: BM25 of each document, of its window
// (itself and its linked neighbours) and of its segment.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsEngine, WasmEngine, embeddedModule } from "../../src/engine/index.js";
import { LEXICAL_MAX_TF, termWeight, type LexicalIndex } from "../../src/engine/lexical.js";
import { lexicalTerms } from "../../src/recall/lexical-terms.js";

const SEED = Number(process.env.CTXLOOM_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`lexical-properties: fast-check seed ${SEED} (rerun with CTXLOOM_SEED=${SEED})`);

/** Small vocabularies, so that queries share terms with many messages and scores tie often. */
const WORDS = [
  "luna",
  "puppy",
  "caroline",
  "hey",
  "mel",
  "lisbon",
  "pottery",
  "class",
  "moved",
  "job",
  "nurse",
  "yesterday",
  "great",
  "dog",
];

const message = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(" "));
const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("add" as const),
      text: message,
      id: fc.oneof(fc.nat(300), fc.nat(5000)),
      prev: fc.oneof(fc.constant(-1), fc.nat(300)),
      segment: fc.oneof(fc.constant(-1), fc.nat(6), fc.nat(3000)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant("remove" as const), ids: fc.array(fc.nat(300), { maxLength: 6 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("query" as const),
      text: message,
      k: fc.nat(12),
      k1: fc.constantFrom(0, 0.5, 1.2, 2),
      b: fc.constantFrom(0, 0.3, 0.75, 1),
      window: fc.constantFrom(0, 0, 0.5, 1),
      segment: fc.constantFrom(0, 0, 0.3, 2),
    }),
  },
);

interface Doc {
  terms: Uint32Array;
  counts: Uint32Array;
  length: number;
  segment: number;
}

/** The model's links: a document's neighbours before and after (both ends of a link), kept with the index's rules. */
class Links {
  readonly prev = new Map<number, number>();
  readonly next = new Map<number, number>();
  add(doc: number, prev: number, live: Map<number, Doc>): void {
    if (prev < 0 || !live.has(prev) || prev === doc) return;
    const old = this.next.get(prev);
    if (old !== undefined) this.prev.delete(old); // the newest link wins
    this.next.set(prev, doc);
    this.prev.set(doc, prev);
  }
  remove(doc: number): void {
    const p = this.prev.get(doc);
    if (p !== undefined) this.next.delete(p);
    const n = this.next.get(doc);
    if (n !== undefined) this.prev.delete(n);
    this.prev.delete(doc);
    this.next.delete(doc);
  }
  window(doc: number): number[] {
    return [doc, this.prev.get(doc), this.next.get(doc)].filter((d): d is number => d !== undefined);
  }
}

const tfOf = (d: Doc, term: number) =>
  d.terms.includes(term) ? Math.min(d.counts[d.terms.indexOf(term)]!, LEXICAL_MAX_TF) : 0;
const bm25 = (w: number, tf: number, dl: number, avg: number, k1: number, b: number) =>
  w * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * (dl / avg))));

/** Scores from scratch over the live documents, with the core's operation order: the expected bits. */
function bruteForce(
  docs: Map<number, Doc>,
  links: Links,
  terms: Uint32Array,
  counts: Uint32Array,
  o: { k: number; k1: number; b: number; window: number; segment: number },
) {
  const { k, k1, b } = o;
  let total = 0;
  for (const d of docs.values()) total += d.length;
  const avgdl = total / docs.size;
  const wlen = (id: number) => links.window(id).reduce((s, y) => s + docs.get(y)!.length, 0);
  const avgwl = [...docs.keys()].reduce((s, id) => s + wlen(id), 0) / docs.size;
  const segments = new Map<number, number[]>();
  for (const [id, d] of docs) if (d.segment >= 0) segments.set(d.segment, [...(segments.get(d.segment) ?? []), id]);
  const segLen = (g: number) => segments.get(g)!.reduce((s, y) => s + docs.get(y)!.length, 0);
  const avgsl = segments.size > 0 ? [...segments.keys()].reduce((s, g) => s + segLen(g), 0) / segments.size : 1;
  const scores = new Map<number, number>();
  const segScores = new Map<number, number>();
  const add = (id: number, v: number) => scores.set(id, (scores.get(id) ?? 0) + v);
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    const holders = [...docs].filter(([, d]) => tfOf(d, t) > 0);
    if (counts[i] === 0 || holders.length === 0) continue;
    const w = termWeight(counts[i]!, docs.size, holders.length);
    const wins = [...docs.keys()].filter((id) => links.window(id).some((y) => tfOf(docs.get(y)!, t) > 0));
    const ww = o.window * termWeight(counts[i]!, docs.size, wins.length);
    for (const id of [...docs.keys()].sort((x, y) => x - y)) {
      const d = docs.get(id)!;
      if (tfOf(d, t) > 0) add(id, bm25(w, tfOf(d, t), d.length, avgdl, k1, b));
      if (o.window > 0 && wins.includes(id)) {
        const wtf = links.window(id).reduce((s, y) => s + tfOf(docs.get(y)!, t), 0);
        add(id, bm25(ww, wtf, wlen(id), avgwl, k1, b));
      }
    }
    if (o.segment > 0 && segments.size > 0) {
      const held = [...segments.keys()].filter((g) => segments.get(g)!.some((y) => tfOf(docs.get(y)!, t) > 0));
      const ws = o.segment * termWeight(counts[i]!, segments.size, held.length);
      for (const g of held) {
        const stf = segments.get(g)!.reduce((s, y) => s + tfOf(docs.get(y)!, t), 0);
        segScores.set(g, (segScores.get(g) ?? 0) + bm25(ws, stf, segLen(g), avgsl, k1, b));
      }
    }
  }
  const final = [...scores].map(([id, s]): [number, number] => {
    const g = docs.get(id)!.segment;
    return [id, g >= 0 ? s + (segScores.get(g) ?? 0) : s];
  });
  const all = final.sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, k);
  return { docs: all.map(([id]) => id), bits: bits(all.map(([, s]) => s)) };
}

const bits = (scores: ArrayLike<number>): string[] =>
  Array.from(new BigUint64Array(Float64Array.from(scores).buffer), (v) => v.toString(16));

describe("lexical index, random operation sequences", () => {
  it("both engines and the brute-force reference agree bit for bit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        const lexicals: LexicalIndex[] = [
          (await WasmEngine.create(await embeddedModule())).lexical,
          new JsEngine().lexical,
        ];
        const xs = lexicals.map((l) => l.create());
        const live = new Map<number, Doc>();
        const links = new Links();
        for (const o of ops) {
          if (o.t === "add") {
            const t = lexicalTerms(o.text, { stem: "none", stopWords: false });
            const outcome = lexicals.map((l, i) => {
              try {
                l.add(xs[i]!, o.id, t.terms, t.counts, { prev: o.prev, segment: o.segment });
                return "added";
              } catch (e) {
                return (e as { code?: string }).code;
              }
            });
            expect(outcome[0]).toBe(outcome[1]);
            expect(outcome[0]).toBe(live.has(o.id) ? "INVALID_ARGUMENT" : "added");
            if (!live.has(o.id)) {
              links.add(o.id, o.prev, live);
              live.set(o.id, { ...t, length: t.counts.reduce((a, c) => a + c, 0), segment: o.segment });
            }
          } else if (o.t === "remove") {
            const removed = lexicals.map((l, i) => l.remove(xs[i]!, o.ids));
            const expected = new Set(o.ids.filter((id) => live.has(id))).size;
            for (const id of o.ids) {
              if (live.has(id)) links.remove(id);
              live.delete(id);
            }
            expect(removed).toEqual([expected, expected]);
          } else {
            const q = lexicalTerms(o.text, { stem: "none", stopWords: false });
            const answers = lexicals.map((l, i) => {
              const r = l.query(xs[i]!, q.terms, q.counts, o.k, {
                k1: o.k1,
                b: o.b,
                window: o.window,
                segment: o.segment,
              });
              return { docs: Array.from(r.docs), bits: bits(r.scores) };
            });
            expect(answers[0]).toEqual(answers[1]);
            expect(answers[0]).toEqual(
              live.size === 0 || o.k === 0 ? { docs: [], bits: [] } : bruteForce(live, links, q.terms, q.counts, o),
            );
          }
          expect(lexicals.map((l, i) => l.docs(xs[i]!))).toEqual([live.size, live.size]);
          expect(lexicals[0]!.terms(xs[0]!)).toBe(lexicals[1]!.terms(xs[1]!));
        }
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});
