// The built-in hashing embedder and the checks every embedder's output goes through.
import { describe, expect, it } from "vitest";
import { embedTexts, checkEmbedder, recallTimeoutOf, type Embedder } from "../../src/recall/embedder.js";
import { hashingEmbedder, hashInto } from "../../src/recall/hashing.js";
import { expectRejectCode, expectThrowCode } from "../helpers.js";

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("hashingEmbedder", () => {
  it("is deterministic, normalized and of the asked dimension", async () => {
    const e = hashingEmbedder({ dimension: 512 });
    expect(e.dimension).toBe(512);
    expect(e.name).toBe("hashing-512");
    const [a, b] = (await e.embed(["Hello, world! Hello again.", "Hello, world! Hello again."])) as Float32Array[];
    expect(a).toHaveLength(512);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
    expect(hashingEmbedder().dimension).toBe(384);
  });

  it("pins its numbers (a change of hashing is a change of every stored index)", () => {
    const v = new Float32Array(16);
    hashInto("Recall planted facts", v);
    expect(Array.from(v, (x) => Math.round(x * 1e4))).toEqual([
      0, 0, -1140, 1140, -2279, -3419, -1140, 0, 4558, 2279, 0, -4558, -4558, -2279, 1140, -2279,
    ]);
  });

  it("case, punctuation and word stems bring texts together; unrelated texts stay apart", async () => {
    const e = hashingEmbedder();
    const [fact, question, other] = (await e.embed([
      "My daughter's name is Clementine and she loves painting.",
      "what is the name of my DAUGHTER?",
      "The quarterly revenue report is due on Friday.",
    ])) as Float32Array[];
    expect(cosine(fact!, question!)).toBeGreaterThan(0.25);
    expect(cosine(fact!, question!)).toBeGreaterThan(cosine(other!, question!) + 0.2);
    const [walks, walked] = (await e.embed(["walking", "walked"])) as Float32Array[];
    expect(cosine(walks!, walked!)).toBeGreaterThan(0.2); // shared character n-grams
  });

  it("an empty or stop-word-only text is the zero vector; non-Latin scripts work", async () => {
    const e = hashingEmbedder({ dimension: 64 });
    const [empty, stop, cyr, cyr2] = (await e.embed([
      "",
      "what is the",
      "Москва столица России",
      "столица России",
    ])) as Float32Array[];
    expect(empty!.every((x) => x === 0)).toBe(true);
    expect(stop!.every((x) => x === 0)).toBe(true);
    expect(cosine(cyr!, cyr2!)).toBeGreaterThan(0.6);
    const [kept] = (await hashingEmbedder({ dimension: 64, stopWords: false }).embed([
      "what is the",
    ])) as Float32Array[];
    expect(kept!.some((x) => x !== 0)).toBe(true);
  });

  it("refuses bad options and honours an aborted signal", async () => {
    expectThrowCode(() => hashingEmbedder({ dimension: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => hashingEmbedder({ dimension: 1.5 }), "INVALID_ARGUMENT");
    expectThrowCode(() => hashingEmbedder({ dimensions: 384 } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => hashingEmbedder({ stopWords: "no" } as never), "INVALID_ARGUMENT");
    const controller = new AbortController();
    controller.abort();
    await expectRejectCode(() => embedTexts(hashingEmbedder(), ["x"], controller.signal), "EMBEDDER_FAILED");
  });
});

describe("embedTexts checks what an embedder returns", () => {
  const fake = (out: unknown, dimension = 3): Embedder => ({
    name: "fake",
    dimension,
    embed: async () => out as number[][],
  });

  it("packs good vectors (number arrays or Float32Arrays) row after row", async () => {
    expect(Array.from(await embedTexts(fake([[1, 2, 3], Float32Array.from([4, 5, 6])]), ["a", "b"]))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(await embedTexts(fake([]), [])).toHaveLength(0);
  });

  it.each([
    ["wrong count", [[1, 2, 3]]],
    [
      "too many",
      [
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
      ],
    ],
    [
      "wrong dimension",
      [
        [1, 2, 3],
        [1, 2],
      ],
    ],
    [
      "NaN",
      [
        [1, 2, 3],
        [1, NaN, 3],
      ],
    ],
    [
      "Infinity",
      [
        [1, 2, 3],
        [-Infinity, 2, 3],
      ],
    ],
    [
      "beyond f32",
      [
        [1, 2, 3],
        [1e39, 2, 3],
      ],
    ],
    [
      "a string inside",
      [
        [1, 2, 3],
        [1, "2", 3],
      ],
    ],
    ["not an array", { data: [] }],
    ["a row that is not an array", [[1, 2, 3], "1,2,3"]],
  ])("%s -> EMBEDDER_FAILED", async (_what, out) => {
    await expectRejectCode(() => embedTexts(fake(out), ["a", "b"]), "EMBEDDER_FAILED");
  });

  it("an embedder that throws -> EMBEDDER_FAILED with the cause", async () => {
    const boom: Embedder = {
      name: "boom",
      dimension: 3,
      embed: async () => {
        throw new TypeError("network down");
      },
    };
    await expectRejectCode(() => embedTexts(boom, ["a"]), "EMBEDDER_FAILED");
    await embedTexts(boom, ["a"]).catch((e) => expect(String(e.cause)).toContain("network down"));
  });

  it("a call that does not answer is given up after timeoutMs, or when the caller aborts: EMBEDDER_FAILED, its signal aborted", async () => {
    const signals: AbortSignal[] = [];
    const never: Embedder = {
      name: "never",
      dimension: 3,
      timeoutMs: 20,
      embed: (_texts, signal) => (signals.push(signal!), new Promise(() => {})),
    };
    await expectRejectCode(() => embedTexts(never, ["a"]), "EMBEDDER_FAILED");
    await embedTexts(never, ["a"]).catch((e) => expect(e.message).toContain("did not answer within 20 ms"));
    const caller = new AbortController();
    const aborted = embedTexts({ ...never, timeoutMs: 2 ** 30 }, ["a"], caller.signal);
    await Promise.resolve();
    caller.abort(new Error("shutting down"));
    await expectRejectCode(() => aborted, "EMBEDDER_FAILED");
    expect(signals).toHaveLength(3);
    expect(signals.every((s) => s.aborted)).toBe(true);
    // An answer in time is used, and its signal is left alone.
    expect(Array.from(await embedTexts({ ...fake([[1, 2, 3]]), timeoutMs: 1000 }, ["a"]))).toEqual([1, 2, 3]);
  });

  it("a request waits recallTimeoutMs: 2,000 by default, timeoutMs when that is shorter, or what is given", () => {
    const e = (o: Partial<Embedder>): Embedder => ({ name: "x", dimension: 3, embed: async () => [], ...o });
    expect(recallTimeoutOf(e({}))).toBe(2_000);
    expect(recallTimeoutOf(e({ timeoutMs: 30_000 }))).toBe(2_000);
    expect(recallTimeoutOf(e({ timeoutMs: 300 }))).toBe(300);
    expect(recallTimeoutOf(e({ timeoutMs: 300, recallTimeoutMs: 5_000 }))).toBe(5_000);
    expect(recallTimeoutOf(e({ recallTimeoutMs: 150 }))).toBe(150);
  });

  it("a malformed embedder or texts -> INVALID_ARGUMENT", async () => {
    for (const timeoutMs of [0, -5, 1.5, "100", 2 ** 31, NaN]) {
      expectThrowCode(
        () => checkEmbedder({ name: "x", dimension: 3, timeoutMs, embed: async () => [] }),
        "INVALID_ARGUMENT",
      );
      expectThrowCode(
        () => checkEmbedder({ name: "x", dimension: 3, recallTimeoutMs: timeoutMs, embed: async () => [] }),
        "INVALID_ARGUMENT",
      );
    }
    expectThrowCode(() => checkEmbedder({ name: "x", dimension: 0, embed: async () => [] }), "INVALID_ARGUMENT");
    expectThrowCode(() => checkEmbedder({ dimension: 3 }), "INVALID_ARGUMENT");
    await expectRejectCode(() => embedTexts(fake([]), [1 as unknown as string]), "INVALID_ARGUMENT");
  });
});
