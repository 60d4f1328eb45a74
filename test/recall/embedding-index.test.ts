// EmbeddingIndex on both engines: keys, removal, exclusion, and a coded error for every bad call.
import { beforeEach, expect, it } from "vitest";
import type { Engine } from "../../src/engine/index.js";
import { EmbeddingIndex } from "../../src/recall/embedding-index.js";
import { hashingEmbedder } from "../../src/recall/hashing.js";
import { embedTexts } from "../../src/recall/embedder.js";
import { expectThrowCode, forEachEngine, makeEngine } from "../helpers.js";

const unit = (dim: number, at: number, value = 1) =>
  Float32Array.from({ length: dim }, (_, j) => (j === at ? value : 0));

/** Everything observable about an index, to prove a rejected call changed nothing. */
function state(index: EmbeddingIndex) {
  const keys = index.keys().sort((a, b) => a - b);
  return { size: index.size, keys, vectors: keys.map((k) => Array.from(index.vector(k))) };
}

forEachEngine((kind) => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await makeEngine(kind);
  });

  it("finds rows by cosine similarity, best first, keyed by the caller's ids", () => {
    const index = EmbeddingIndex.create(engine, { dimension: 4 });
    index.add(
      [10, 20, 30],
      [
        [1, 0, 0, 0],
        [0.9, 0.1, 0, 0],
        [0, 0, 5, 0],
      ],
    );
    const hits = index.search([2, 0, 0, 0], { k: 2 });
    expect(hits.map((h) => h.key)).toEqual([10, 20]);
    expect(hits[0]!.score).toBeCloseTo(1, 6);
    expect(index.vector(30)).toEqual(Float32Array.from([0, 0, 1, 0])); // normalized at insert
    expect(index.search([0, 0, 1, 0], { k: 5, minScore: 0.5 }).map((h) => h.key)).toEqual([30]);
  });

  it("exclude leaves keys out and still returns k hits", () => {
    const index = EmbeddingIndex.create(engine, { dimension: 3, quantized: true });
    index.add(
      [1, 2, 3, 4],
      [
        [1, 0, 0],
        [0.99, 0.1, 0],
        [0.9, 0.3, 0],
        [0, 1, 0],
      ],
    );
    expect(index.search([1, 0, 0], { k: 2, exclude: [1, 99] }).map((h) => h.key)).toEqual([2, 3]);
    expect(index.search([1, 0, 0], { k: 2, exclude: new Set([2]), candidates: 0 }).map((h) => h.key)).toEqual([1, 3]);
  });

  it("remove moves the last row into the hole; keys stay right", () => {
    const index = EmbeddingIndex.create(engine, { dimension: 8 });
    index.reserve(1000);
    expectThrowCode(() => index.reserve(-1), "INVALID_ARGUMENT");
    expectThrowCode(() => index.reserve(2 ** 31 - 1), "OUT_OF_MEMORY");
    expect(index.size).toBe(0);
    index.add(
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4].map((i) => unit(8, i)),
    );
    index.remove([1, 4]);
    expect(index.size).toBe(3);
    for (const key of [0, 2, 3]) expect(index.search(unit(8, key), { k: 1 })).toEqual([{ key, score: 1 }]);
    index.add([1], [unit(8, 7)]);
    expect(index.search(unit(8, 7), { k: 1 })[0]!.key).toBe(1);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search(unit(8, 0))).toEqual([]);
  });

  it("bad inputs are INVALID_ARGUMENT and change nothing", () => {
    const index = EmbeddingIndex.create(engine, { dimension: 3 });
    index.add([5], [[1, 2, 3]]);
    const before = state(index);
    const bad: [string, () => unknown][] = [
      ["wrong dimension", () => index.add([6], [[1, 2]])],
      [
        "NaN",
        () =>
          index.add(
            [6, 7],
            [
              [1, 2, 3],
              [1, NaN, 3],
            ],
          ),
      ],
      ["Infinity", () => index.add([6], [[1, Infinity, 3]])],
      ["beyond f32", () => index.add([6], [[1, 1e39, 3]])],
      ["a string", () => index.add([6], [[1, "2" as unknown as number, 3]])],
      ["count", () => index.add([6, 7], [[1, 2, 3]])],
      ["packed length", () => index.add([6, 7], new Float32Array(5))],
      [
        "key taken",
        () =>
          index.add(
            [6, 5],
            [
              [1, 2, 3],
              [1, 2, 3],
            ],
          ),
      ],
      [
        "key twice",
        () =>
          index.add(
            [6, 6],
            [
              [1, 2, 3],
              [1, 2, 3],
            ],
          ),
      ],
      ["negative key", () => index.add([-1], [[1, 2, 3]])],
      ["fraction key", () => index.add([1.5], [[1, 2, 3]])],
      ["remove unknown", () => index.remove([5, 9])],
      ["vector unknown", () => index.vector(9)],
      ["query dimension", () => index.search([1, 2])],
      ["query NaN", () => index.search([1, NaN, 0])],
      ["query zero", () => index.search([0, 0, 0])],
      ["k < 0", () => index.search([1, 0, 0], { k: -1 })],
      ["k fraction", () => index.search([1, 0, 0], { k: 1.5 })],
      ["minScore range", () => index.search([1, 0, 0], { minScore: 2 })],
      ["minScore NaN", () => index.search([1, 0, 0], { minScore: NaN })],
      ["candidates unquantized", () => index.search([1, 0, 0], { candidates: 10 })],
      ["exclude", () => index.search([1, 0, 0], { exclude: 3 as unknown as number[] })],
      ["unknown option", () => index.search([1, 0, 0], { kk: 3 } as never)],
      ["create unknown option", () => EmbeddingIndex.create(engine, { dimension: 3, quantise: true } as never)],
      ["create dimension", () => EmbeddingIndex.create(engine, { dimension: 0 })],
    ];
    for (const [what, call] of bad) {
      expectThrowCode(call, "INVALID_ARGUMENT");
      expect(state(index), what).toEqual(before);
    }
    try {
      index.search([1, 0, 0], { kk: 3 } as never);
    } catch (e) {
      expect(String(e)).toContain('"k"');
    }
    index.drop();
    expectThrowCode(() => index.search([1, 0, 0]), "INVALID_ARGUMENT");
  });

  it("an embedder's vectors go in packed, and texts sharing words come back first", async () => {
    const embedder = hashingEmbedder({ dimension: 256 });
    const texts = ["The cat sat on the mat", "Stock markets fell sharply today", "My cat sleeps on a mat all day"];
    const index = EmbeddingIndex.create(engine, { dimension: 256, quantized: true });
    index.add([0, 1, 2], await embedTexts(embedder, texts));
    const [query] = await embedder.embed(["where does the cat sleep?"]);
    expect(index.search(query!, { k: 2 }).map((h) => h.key)).toEqual([2, 0]);
  });
});
