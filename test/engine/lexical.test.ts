// The lexical index (assembly/lexical*.ts and its twin src/engine/lexical-js.ts) on both
// engines: BM25 answers, refusals that change nothing, saturation and merging of counts,
// removal, memory growth and exhaustion, and the core's ln against Math.log.
import { describe, expect, it } from "vitest";
import { WasmEngine, embeddedModule } from "../../src/engine/index.js";
import { LEXICAL_MAX_DOCS, lnBm25, termWeight, type LexicalIndex } from "../../src/engine/lexical.js";
import { similarityFor } from "../../src/engine/similarity.js";
import { lexicalTerms } from "../../src/recall/lexical-terms.js";
import { expectThrowCode, forEachEngine, makeEngine } from "../helpers.js";

const plain = { stem: "none", stopWords: false } as const;
const u32 = (...v: number[]) => Uint32Array.from(v);

async function lexical(kind: "wasm" | "js"): Promise<LexicalIndex> {
  return (await makeEngine(kind)).lexical;
}

function addText(l: LexicalIndex, x: number, doc: number, text: string): void {
  const t = lexicalTerms(text, plain);
  l.add(x, doc, t.terms, t.counts);
}

function ask(l: LexicalIndex, x: number, text: string, k = 10) {
  const q = lexicalTerms(text, plain);
  const r = l.query(x, q.terms, q.counts, k);
  return { docs: Array.from(r.docs), scores: Array.from(r.scores) };
}

forEachEngine((kind) => {
  describe("answers", () => {
    it("scores by BM25: the rarer term weighs more, shorter documents win, ties go to the lower id", async () => {
      const l = await lexical(kind);
      const x = l.create();
      addText(l, x, 7, "luna is my puppy");
      addText(l, x, 3, "hey mel");
      addText(l, x, 5, "hey mel how is the puppy luna doing today after the long walk in the rain");
      addText(l, x, 9, "hey mel");
      const r = ask(l, x, "luna mel");
      expect(r.docs).toEqual([7, 5, 3, 9]); // 5 holds both terms, but is four times longer
      expect(r.scores[2]).toBe(r.scores[3]); // 3 and 9 are the same text: the lower id first
      // Doc 7 by hand: luna is in 2 of 4 documents, avgdl = (4 + 2 + 16 + 2) / 4.
      const w = termWeight(1, 4, 2);
      expect(r.scores[0]).toBe(w * ((1 * 2.2) / (1 + 1.2 * (0.25 + 0.75 * (4 / (24 / 4))))));
      expect(ask(l, x, "lisbon").docs).toEqual([]);
      expect(ask(l, x, "luna mel", 3).docs).toEqual([7, 5, 3]);
      expect(ask(l, x, "luna", 0).docs).toEqual([]);
    });

    it("a term's count saturates at 255 in a document; a term given twice adds up; a count of 0 is skipped", async () => {
      const l = await lexical(kind);
      const x = l.create();
      l.add(x, 0, u32(11, 12), u32(300, 1));
      l.add(x, 1, u32(11, 12), u32(255, 1));
      l.add(x, 2, u32(11, 11, 13, 12), u32(200, 100, 0, 1)); // 11 twice: 300, saturated; 13 not indexed
      l.add(x, 3, u32(12), u32(1));
      const r = l.query(x, u32(11), u32(1), 10);
      // The same saturated count, but 0 and 2 (length 301 each: lengths count every occurrence) are longer than 1.
      expect(Array.from(r.docs)).toEqual([1, 0, 2]);
      expect(r.scores[1]).toBe(r.scores[2]);
      expect(l.query(x, u32(13), u32(1), 10).count).toBe(0);
      expect(l.terms(x)).toBe(2);
      // A query term counted twice doubles its weight.
      const once = l.query(x, u32(12), u32(1), 10).scores[0]!;
      expect(l.query(x, u32(12), u32(2), 10).scores[0]).toBe(2 * once);
    });

    it("removal forgets documents (idf and average length too) and frees their ids", async () => {
      const l = await lexical(kind);
      const x = l.create();
      const fresh = l.create();
      const texts = ["luna puppy", "hey mel", "mel puppy lisbon", "pottery class yesterday", "hey luna"];
      texts.forEach((t, i) => addText(l, x, i, t));
      expect(l.remove(x, [1, 3, 3, 42, -1])).toBe(2);
      expect(l.docs(x)).toBe(3);
      expect(l.has(x, 1)).toBe(false);
      [0, 2, 4].forEach((i) => addText(l, fresh, i, texts[i]!));
      expect(ask(l, x, "hey mel puppy pottery")).toEqual(ask(l, fresh, "hey mel puppy pottery"));
      expect(l.terms(x)).toBe(l.terms(fresh));
      addText(l, x, 3, "hey hey");
      expect(ask(l, x, "hey").docs).toEqual([3, 4]);
      expect(l.remove(x, [])).toBe(0);
      expect(l.remove(x, [0, 2, 3, 4])).toBe(4);
      expect(ask(l, x, "hey luna")).toEqual({ docs: [], scores: [] });
      expect(l.docs(x)).toBe(0);
      expect(l.terms(x)).toBe(0);
    });

    it("indexes are independent; a dropped handle is reused empty", async () => {
      const l = await lexical(kind);
      const a = l.create();
      const b = l.create();
      addText(l, a, 0, "luna");
      addText(l, b, 0, "mel");
      expect(ask(l, a, "mel").docs).toEqual([]);
      l.drop(a);
      const c = l.create();
      expect(c).toBe(a);
      expect(l.docs(c)).toBe(0);
      expect(ask(l, c, "luna").docs).toEqual([]);
      expect(ask(l, b, "mel").docs).toEqual([0]);
    });
  });

  describe("windows and segments", () => {
    it("a document's window (itself and its linked neighbours) and its segment are scored as documents", async () => {
      const l = await lexical(kind);
      const x = l.create();
      const add = (doc: number, text: string, prev: number, segment: number) => {
        const t = lexicalTerms(text, plain);
        l.add(x, doc, t.terms, t.counts, { prev, segment });
      };
      add(0, "luna puppy", -1, 0);
      add(1, "hey mel", 0, 0);
      add(2, "lisbon", 1, 1);
      add(3, "mel", -1, 1);
      const q = lexicalTerms("luna", plain);
      expect(Array.from(l.query(x, q.terms, q.counts, 10).docs)).toEqual([0]);
      const r = l.query(x, q.terms, q.counts, 10, { b: 0.5, window: 1, segment: 2 });
      // Doc 1's window (0, 1, 2) holds luna; doc 2's (1, 2) does not. Windows: lengths 4, 5, 3, 1 (avg 13 / 4).
      expect(Array.from(r.docs)).toEqual([0, 1]);
      const bm25 = (w: number, tf: number, dl: number, avg: number) =>
        w * ((tf * 2.2) / (tf + 1.2 * (0.5 + 0.5 * (dl / avg))));
      const own = bm25(termWeight(1, 4, 1), 1, 2, 6 / 4);
      const win = (dl: number) => bm25(1 * termWeight(1, 4, 2), 1, dl, 13 / 4);
      // Segments 0 (docs 0, 1: length 4) and 1 (length 2): luna is in segment 0 only.
      const seg = bm25(2 * termWeight(1, 2, 1), 1, 4, 3);
      expect(Array.from(r.scores)).toEqual([own + win(4) + seg, win(5) + seg]);
      // Removing doc 1 unlinks it: doc 0's window is itself again, and segment 0 is doc 0 alone.
      l.remove(x, [1]);
      const after = l.query(x, q.terms, q.counts, 10, { window: 1, segment: 1 });
      expect(Array.from(after.docs)).toEqual([0]);
    });

    it("a newer link after a document replaces the older one", async () => {
      const l = await lexical(kind);
      const x = l.create();
      const add = (doc: number, text: string, prev: number) => {
        const t = lexicalTerms(text, plain);
        l.add(x, doc, t.terms, t.counts, { prev });
      };
      add(0, "luna", -1);
      add(1, "hey", 0);
      add(2, "mel", 0); // a regenerated answer: 0's window is now (0, 2)
      const q = lexicalTerms("luna", plain);
      expect(Array.from(l.query(x, q.terms, q.counts, 10, { window: 1 }).docs)).toEqual([0, 2]);
    });
  });

  describe("refusals change nothing", () => {
    it("refuses a bad or present id, mismatched arrays, a bad k, k1 or b", async () => {
      const l = await lexical(kind);
      const x = l.create();
      addText(l, x, 4, "luna puppy");
      const before = ask(l, x, "luna puppy");
      for (const doc of [-1, LEXICAL_MAX_DOCS, 1.5, NaN, "3"]) {
        expectThrowCode(() => l.add(x, doc as number, u32(1), u32(1)), "INVALID_ARGUMENT");
      }
      expectThrowCode(() => addText(l, x, 4, "lisbon"), "INVALID_ARGUMENT");
      expectThrowCode(() => l.add(x, 5, u32(1, 2), u32(1)), "INVALID_ARGUMENT");
      expectThrowCode(() => l.add(x, 5, [1] as unknown as Uint32Array, u32(1)), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), -1), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 2.5), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { k1: -0.1 }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { k1: Infinity }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { k1: 1.2, b: 1.5 }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { window: -1 }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { segment: NaN }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1), 3, { windows: 1 } as never), "INVALID_ARGUMENT");
      expectThrowCode(() => l.add(x, 5, u32(1), u32(1), { prev: 1.5 }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.add(x, 5, u32(1), u32(1), { segment: LEXICAL_MAX_DOCS }), "INVALID_ARGUMENT");
      expectThrowCode(() => l.add(x, 5, u32(1), u32(1), { after: 4 } as never), "INVALID_ARGUMENT");
      expectThrowCode(() => l.query(x, u32(1), u32(1, 2), 3), "INVALID_ARGUMENT");
      expectThrowCode(() => l.remove(x, null as unknown as number[]), "INVALID_ARGUMENT");
      expectThrowCode(() => l.remove(x, [4, 0.5]), "INVALID_ARGUMENT");
      expect(l.docs(x)).toBe(1);
      expect(l.has(x, 5)).toBe(false);
      expect(ask(l, x, "luna puppy")).toEqual(before);
      expect(ask(l, x, "lisbon").docs).toEqual([]);
    });
  });
});

describe("WASM memory", () => {
  it("growth keeps trees, embeddings and earlier answers readable (views rebuilt)", async () => {
    const engine = await makeEngine("wasm");
    const t = engine.createTree();
    for (let i = 0; i < 50; i++) engine.append(t, i - 1, i + 1, i % 2 ? 2 : 1, 1, 0);
    const s = similarityFor(engine);
    const e = s.createIndex(8, false);
    s.addRows(
      e,
      Float32Array.from({ length: 8 }, (_, i) => i + 1),
      Int32Array.of(5),
    );
    const l = engine.lexical;
    const x = l.create();
    const before = engine.memoryBytes();
    for (let doc = 0; doc < 30_000; doc++) l.add(x, doc, u32(doc % 7, 100 + (doc % 1000), 5000 + doc), u32(1, 2, 1));
    expect(engine.memoryBytes()).toBeGreaterThan(before);
    expect(engine.tokens(t, 49)).toBe(50);
    expect(s.rowKey(e, 0)).toBe(5);
    const r = l.query(x, u32(5000 + 29_999, 3), u32(1, 1), 3);
    expect(Array.from(r.docs)).toEqual([29_999, 3, 10]);
    expect(l.bytes(x)).toBeGreaterThan(30_000 * 12);
  });

  it("OUT_OF_MEMORY when memory cannot grow, and the index is as before", async () => {
    const engine = await WasmEngine.create(await embeddedModule(), { maxMemoryMB: 2 });
    const l = engine.lexical;
    const x = l.create();
    let doc = 0;
    let error: unknown;
    try {
      for (; doc < 1_000_000; doc++)
        l.add(
          x,
          doc,
          Uint32Array.from({ length: 20 }, (_, i) => doc * 20 + i),
          new Uint32Array(20).fill(1),
        );
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).toBe("OUT_OF_MEMORY");
    expect(l.docs(x)).toBe(doc);
    expect(l.has(x, doc)).toBe(false);
    const terms = Uint32Array.from({ length: 20 }, (_, i) => doc * 20 + i);
    expect(l.query(x, terms, new Uint32Array(20).fill(1), 5).count).toBe(0);
    expect(Array.from(l.query(x, u32(0, 20), u32(1, 1), 5).docs)).toEqual([0, 1]);
  });
});

describe("the core's ln", () => {
  it("gives the TypeScript twin's bits, within 2 ulps of Math.log", async () => {
    const engine = await makeEngine("wasm");
    const core = (engine as WasmEngine).rawExports() as unknown as { lnBm25(x: number): number };
    const xs = [1, 1.0000001, Math.SQRT2, 1.5, 2, 2.5, 3.999, 1e3, 123456.789, 2 ** 24 + 0.5, 33554431.5];
    for (let i = 0; i < 2000; i++) xs.push(1 + ((i * 7919) % 100_000) / 997);
    for (const x of xs) {
      expect(core.lnBm25(x)).toBe(lnBm25(x));
      expect(Math.abs(lnBm25(x) - Math.log(x))).toBeLessThanOrEqual(2 * Number.EPSILON * Math.max(1, Math.log(x)));
    }
  });
});

describe("a core without the lexical index", () => {
  it("WASM_UNAVAILABLE when the lexical index is asked of a core that lacks it", async () => {
    const { WasmLexical } = await import("../../src/engine/lexical-wasm.js");
    const engine = (await makeEngine("wasm")) as WasmEngine;
    const { LEXICAL_MAX_DOCS: _docs, ...older } = engine.rawExports() as Record<string, unknown>;
    expectThrowCode(() => new WasmLexical(older as WebAssembly.Exports, () => {}), "WASM_UNAVAILABLE");
    expect(engine.lexical.docs(engine.lexical.create())).toBe(0);
  });
});
