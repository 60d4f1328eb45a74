// The similarity index on both engines: SIMD (WASM), its scalar twin (TS) and a brute-force
// reference (score every row, sort everything) return the same top-k, bit for bit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CtxloomError } from "../../src/errors.js";
import { JsEngine, WasmEngine, embeddedModule } from "../../src/engine/index.js";
import { similarityFor, type SimilarityIndex, type WasmSimilarity } from "../../src/engine/similarity.js";
import { dotF32, normalizeInto, quantizeInto, stride8Of, strideOf } from "../../src/engine/similarity-js.js";
import { ENGINES, makeEngine } from "../helpers.js";
import { rng } from "../recall/eval-set.js";

function randomRows(seed: number, rows: number, dim: number, pick?: () => number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(rows * dim);
  for (let i = 0; i < out.length; i++) out[i] = pick ? pick() : r() * 2 - 1;
  return out;
}

/** Score bits, so +0 and -0 or one ulp apart never pass as equal. */
const bits = (scores: Float32Array): number[] => Array.from(new Uint32Array(Float32Array.from(scores).buffer));

/** Brute force: normalize every row, score all, sort by (score desc, key asc), keep k. */
function reference(
  vectors: Float32Array,
  keys: Int32Array,
  dim: number,
  query: Float32Array,
  k: number,
  minScore = -Infinity,
) {
  const stride = strideOf(dim);
  const rows = new Float32Array(keys.length * stride);
  for (let i = 0; i < keys.length; i++) normalizeInto(rows, i * stride, vectors, i * dim, dim, stride);
  const q = new Float32Array(stride);
  normalizeInto(q, 0, query, 0, dim, stride);
  const all = Array.from(keys, (key, i) => ({ key, score: dotF32(rows, i * stride, q, 0, stride) }))
    .filter((h) => h.score >= Math.fround(minScore))
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, k);
  return { keys: all.map((h) => h.key), bits: bits(Float32Array.from(all, (h) => h.score)) };
}

/** Brute force of the int8 path: every row's int8 score, the best `c` kept (sorted), re-ranked by the exact f32 score. */
function referenceInt8(
  vectors: Float32Array,
  keys: Int32Array,
  dim: number,
  query: Float32Array,
  k: number,
  c: number,
  minScore = -Infinity,
) {
  const [stride, stride8] = [strideOf(dim), stride8Of(dim)];
  const row = new Float32Array(stride);
  const codes = new Int8Array(stride8);
  const q = new Float32Array(stride);
  const q8 = new Int8Array(stride8);
  normalizeInto(q, 0, query, 0, dim, stride);
  quantizeInto(q8, 0, q, 0, dim, stride8);
  const all = Array.from(keys, (key, i) => {
    normalizeInto(row, 0, vectors, i * dim, dim, stride);
    const scale = quantizeInto(codes, 0, row, 0, dim, stride8);
    const d = codes.reduce((a, v, j) => a + v * q8[j]!, 0);
    return { key, approx: Math.fround(Math.fround(d) * scale), score: dotF32(row, 0, q, 0, stride) };
  });
  const picked = all
    .sort((a, b) => b.approx - a.approx || a.key - b.key)
    .slice(0, c)
    .filter((h) => h.score >= Math.fround(minScore))
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, k);
  return { keys: picked.map((h) => h.key), bits: bits(Float32Array.from(picked, (h) => h.score)) };
}

function shuffledKeys(seed: number, n: number): Int32Array {
  const r = rng(seed);
  const keys = Int32Array.from({ length: n }, (_, i) => i * 3 + 7);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  return keys;
}

async function indexes(): Promise<SimilarityIndex[]> {
  return Promise.all(ENGINES.map(async (kind) => similarityFor(await makeEngine(kind))));
}

const answer = (s: SimilarityIndex, x: number, q: Float32Array, k: number, c = 0, min = -Infinity) => {
  const hits = s.search(x, q, k, c, min);
  return { keys: Array.from(hits.keys), bits: bits(hits.scores) };
};

describe("top-k: SIMD, scalar and brute force agree bit for bit", () => {
  it.each([1, 3, 16, 17, 64, 100, 384])("random rows of dimension %i", async (dim) => {
    const sims = await indexes();
    const n = 300;
    const vectors = randomRows(dim, n, dim);
    const keys = shuffledKeys(dim, n);
    const handles = sims.map((s) => s.createIndex(dim, false));
    sims.forEach((s, i) => s.addRows(handles[i]!, vectors, keys));
    for (let q = 0; q < 5; q++) {
      const query = randomRows(1000 + q, 1, dim);
      for (const k of [0, 1, 10, n + 5]) {
        const want = reference(vectors, keys, dim, query, k);
        sims.forEach((s, i) => expect(answer(s, handles[i]!, query, k), `${s.kind} k=${k}`).toEqual(want));
      }
      const want = reference(vectors, keys, dim, query, 50, 0.1);
      sims.forEach((s, i) => expect(answer(s, handles[i]!, query, 50, 0, 0.1)).toEqual(want));
    }
  });

  it.each([1, 16, 33, 384])(
    "int8 candidates + exact re-rank, dimension %i: equal to brute force, whatever the row count modulo 4",
    async (dim) => {
      const sims = await indexes();
      const n = 203;
      const vectors = randomRows(dim + 1, n, dim);
      const keys = shuffledKeys(dim + 2, n);
      const handles = sims.map((s) => s.createIndex(dim, true));
      sims.forEach((s, i) => s.addRows(handles[i]!, vectors, keys));
      // Removals move the last rows into holes: the last block of four keeps stale codes past the count.
      let live = Array.from({ length: n }, (_, i) => i);
      for (const at of [5, 0, 150, 77, 3]) {
        const moved = sims.map((s, i) => s.removeRow(handles[i]!, at));
        expect(moved[0]).toBe(moved[1]);
        live[at] = live[live.length - 1]!;
        live = live.slice(0, -1);
        const rows = Float32Array.from(live.flatMap((i) => Array.from(vectors.subarray(i * dim, (i + 1) * dim))));
        const liveKeys = Int32Array.from(live, (i) => keys[i]!);
        const query = randomRows(at + 500, 1, dim);
        for (const [k, c] of [
          [1, 1],
          [10, 7],
          [10, 40],
          [25, live.length - 1],
        ] as const) {
          const want = referenceInt8(rows, liveKeys, dim, query, k, c);
          sims.forEach((s, i) => expect(answer(s, handles[i]!, query, k, c), `${s.kind} k=${k} c=${c}`).toEqual(want));
        }
        const want = referenceInt8(rows, liveKeys, dim, query, 10, 40, 0.05);
        sims.forEach((s, i) => expect(answer(s, handles[i]!, query, 10, 40, 0.05)).toEqual(want));
      }
    },
  );

  it("ties go to the lower key, whatever the row order", async () => {
    const sims = await indexes();
    const dim = 8;
    const base = randomRows(5, 4, dim);
    const vectors = new Float32Array(40 * dim);
    for (let i = 0; i < 40; i++) vectors.set(base.subarray((i % 4) * dim, ((i % 4) + 1) * dim), i * dim);
    const keys = shuffledKeys(9, 40);
    for (const s of sims) {
      const x = s.createIndex(dim, true);
      s.addRows(x, vectors, keys);
      const hits = answer(s, x, base.subarray(0, dim), 10);
      expect(hits).toEqual(reference(vectors, keys, dim, base.subarray(0, dim), 10));
      const same = keys.filter((_, i) => i % 4 === 0).sort();
      expect(hits.keys).toEqual(Array.from(same.slice(0, 10)));
      expect(answer(s, x, base.subarray(0, dim), 10, 12)).toEqual(hits); // the int8 path breaks ties the same way
    }
  });

  it("extreme values: huge, subnormal, zero rows and a one-hot query", async () => {
    const sims = await indexes();
    const dim = 20;
    const picks = [3.4e38, -3.4e38, 1e-45, -1e-45, 1e-40, 0, 1, -1, 65504, 1e-20];
    const r = rng(77);
    const vectors = randomRows(1, 200, dim, () => picks[Math.floor(r() * picks.length)]!);
    vectors.fill(0, 0, dim); // a zero row scores 0
    vectors.fill(3.4e38, dim, 2 * dim);
    const keys = shuffledKeys(3, 200);
    const queries = [
      randomRows(2, 1, dim, () => picks[Math.floor(r() * picks.length)]!),
      new Float32Array(dim).fill(1e-45),
    ];
    queries.push(Float32Array.from({ length: dim }, (_, j) => (j === 3 ? 1 : 0)));
    for (const query of queries) {
      const want = reference(vectors, keys, dim, query, 25);
      const approximate = sims.map((s) => {
        const x = s.createIndex(dim, true);
        s.addRows(x, vectors, keys);
        expect(answer(s, x, query, 25)).toEqual(want);
        const hits = answer(s, x, query, 25, 60);
        s.dropIndex(x);
        return hits;
      });
      expect(approximate[0]).toEqual(approximate[1]);
    }
  });

  it("scores are cosine similarities (within f32 rounding of an f64 computation)", async () => {
    const dim = 37;
    const vectors = randomRows(11, 50, dim);
    const query = randomRows(12, 1, dim);
    const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((a, x) => a + x * x, 0));
    for (const s of await indexes()) {
      const x = s.createIndex(dim, false);
      s.addRows(
        x,
        vectors,
        Int32Array.from({ length: 50 }, (_, i) => i),
      );
      const hits = s.search(x, query, 50, 0, -Infinity);
      for (let i = 0; i < hits.count; i++) {
        const row = vectors.subarray(hits.keys[i]! * dim, (hits.keys[i]! + 1) * dim);
        const cos = row.reduce((a, v, j) => a + v * query[j]!, 0) / norm(row) / norm(query);
        expect(Math.abs(hits.scores[i]! - cos)).toBeLessThan(1e-5);
      }
    }
  });
});

describe("operations in any order: both engines stay identical", () => {
  it("random adds, removals, clears and searches (fast-check)", async () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant("add" as const), n: fc.integer({ min: 1, max: 40 }), seed: fc.nat() }),
      fc.record({ t: fc.constant("remove" as const), at: fc.nat() }),
      fc.record({ t: fc.constant("clear" as const) }),
      fc.record({
        t: fc.constant("search" as const),
        k: fc.integer({ min: 0, max: 30 }),
        c: fc.integer({ min: 0, max: 60 }),
        seed: fc.nat(),
        min: fc.constantFrom(-Infinity, -0.2, 0, 0.3),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70 }),
        fc.boolean(),
        fc.array(op, { maxLength: 30 }),
        async (dim, quantized, ops) => {
          const sims = await indexes();
          const xs = sims.map((s) => s.createIndex(dim, quantized));
          let next = 0;
          for (const o of ops) {
            const out = sims.map((s, i) => {
              const x = xs[i]!;
              if (o.t === "search" && s.rowCount(x) > 0) {
                // The rows listed score as the search scores them (the re-ranking of recall's candidates).
                const q = randomRows(o.seed, 1, dim);
                const rows = Int32Array.from({ length: 1 + (o.k % 5) }, (_, j) => (o.seed + 7 * j) % s.rowCount(x));
                const all = answer(s, x, q, s.rowCount(x)); // copied: the next call reuses the result's memory
                const byKey = new Map(all.keys.map((key, j) => [key, all.bits[j]!]));
                expect(bits(s.scoreRows(x, q, rows))).toEqual(Array.from(rows, (r) => byKey.get(s.rowKey(x, r))));
              }
              if (o.t === "add")
                s.addRows(
                  x,
                  randomRows(o.seed, o.n, dim),
                  Int32Array.from({ length: o.n }, (_, j) => next + j),
                );
              else if (o.t === "remove") return s.rowCount(x) === 0 ? null : s.removeRow(x, o.at % s.rowCount(x));
              else if (o.t === "clear") s.clearIndex(x);
              else return answer(s, x, randomRows(o.seed, 1, dim), o.k, o.c, o.min);
              return s.rowCount(x);
            });
            if (o.t === "add") next += o.n;
            expect(out[0]).toEqual(out[1]);
          }
          const rows = sims.map((s, i) => Array.from({ length: s.rowCount(xs[i]!) }, (_, r) => s.rowKey(xs[i]!, r)));
          expect(rows[0]).toEqual(rows[1]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("scoring listed rows (recall's re-ranking of candidates)", () => {
  it.each([1, 16, 33, 384])(
    "gives each row the score of the brute-force reference, bit for bit, on both engines: dimension %i",
    async (dim) => {
      const sims = await indexes();
      const n = 57;
      const vectors = randomRows(dim, n, dim);
      const keys = Int32Array.from({ length: n }, (_, i) => 1000 - i);
      const query = randomRows(dim + 1, 1, dim);
      const want = reference(vectors, keys, dim, query, n);
      const byKey = new Map(want.keys.map((key, i) => [key, want.bits[i]!]));
      const rows = Int32Array.of(56, 0, 3, 3, 41, 12);
      for (const s of sims) {
        const x = s.createIndex(dim, dim % 2 === 1);
        s.addRows(x, vectors, keys);
        expect(bits(s.scoreRows(x, query, rows)), s.kind).toEqual(Array.from(rows, (r) => byKey.get(keys[r]!)!));
        expect(s.scoreRows(x, query, new Int32Array(0)).length).toBe(0);
      }
    },
  );
});

describe("the read pass (the benchmark's floor)", () => {
  it.each([0, 1, 5, 203])("reads every word of the matrix once: %i rows", async (n) => {
    const s = similarityFor(await makeEngine("wasm")) as WasmSimilarity;
    const dim = 20; // padded to 32 floats: the padding reads as zeros
    const x = s.createIndex(dim, true);
    s.addRows(
      x,
      randomRows(n + 3, n, dim),
      Int32Array.from({ length: n }, (_, i) => i),
    );
    const lanes = [0, 0, 0, 0];
    const row = new Float32Array(32);
    const words = new Int32Array(row.buffer);
    for (let r = 0; r < n; r++) {
      s.readRow(x, r, row.subarray(0, dim));
      words.forEach((w, j) => (lanes[j & 3] = (lanes[j & 3]! + w) | 0));
    }
    expect(s.readPass(x)).toBe(lanes[0]! ^ lanes[1]! ^ lanes[2]! ^ lanes[3]!);
  });
});

describe("memory", () => {
  it("growth keeps the engine's trees readable (views rebuilt) and the rows intact", async () => {
    const engine = await makeEngine("wasm");
    const t = engine.createTree();
    for (let i = 0; i < 50; i++) engine.append(t, i - 1, i + 1, i % 2 ? 2 : 1, 1, 0);
    const s = similarityFor(engine);
    const x = s.createIndex(96, true);
    const before = engine.memoryBytes();
    const vectors = randomRows(8, 20_000, 96);
    s.addRows(
      x,
      vectors,
      Int32Array.from({ length: 20_000 }, (_, i) => i),
    );
    expect(engine.memoryBytes()).toBeGreaterThan(before);
    expect(engine.tokens(t, 49)).toBe(50);
    expect(engine.size(t)).toBe(50);
    engine.append(t, 49, 7, 1, 1, 0);
    expect(s.rowKey(x, 19_999)).toBe(19_999);
    const js = similarityFor(new JsEngine());
    const y = js.createIndex(96, true);
    js.addRows(
      y,
      vectors,
      Int32Array.from({ length: 20_000 }, (_, i) => i),
    );
    const q = randomRows(9, 1, 96);
    expect(answer(s, x, q, 10)).toEqual(answer(js, y, q, 10));
    expect(answer(s, x, q, 10, 100)).toEqual(answer(js, y, q, 10, 100));
    // The other way round: the engine grows memory under the index's views.
    const pages = engine.memoryBytes();
    const big = engine.createTree();
    engine.reserve(big, 1 << 20);
    expect(engine.memoryBytes()).toBeGreaterThan(pages);
    expect(s.rowKey(x, 19_999)).toBe(19_999);
    expect(answer(s, x, q, 10)).toEqual(answer(js, y, q, 10));
  });

  it.each(ENGINES)(
    "%s: an index past what memory can hold is OUT_OF_MEMORY, and the index still works",
    async (kind) => {
      const s = similarityFor(await makeEngine(kind));
      const x = s.createIndex(65_536, false);
      for (const rows of [1 << 20, 1 << 26, 2 ** 31 - 1]) {
        let error: unknown;
        try {
          s.reserveRows(x, rows);
        } catch (e) {
          error = e;
        }
        expect((error as CtxloomError).code).toBe("OUT_OF_MEMORY");
      }
      s.addRows(x, randomRows(4, 2, 65_536), Int32Array.of(1, 2));
      expect(s.rowCount(x)).toBe(2);
    },
  );

  it("a grow that fails is OUT_OF_MEMORY and adds nothing", async () => {
    const engine = await WasmEngine.create(await embeddedModule(), { maxMemoryMB: 8 });
    const s = similarityFor(engine);
    const x = s.createIndex(384, false);
    s.addRows(
      x,
      randomRows(1, 10, 384),
      Int32Array.from({ length: 10 }, (_, i) => i),
    );
    let error: unknown;
    try {
      s.addRows(
        x,
        randomRows(2, 10_000, 384),
        Int32Array.from({ length: 10_000 }, (_, i) => 100 + i),
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CtxloomError);
    expect((error as CtxloomError).code).toBe("OUT_OF_MEMORY");
    expect(s.rowCount(x)).toBe(10);
    expect(answer(s, x, randomRows(3, 1, 384), 3).keys).toHaveLength(3);
  });
});
