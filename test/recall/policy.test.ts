// The recall policy on both engines, with vectors chosen by hand so every pick is known: a
// query's ranking is the prompts' cosine with it (positive ones), as the hybrid ranking hands
// the policy its matches best first.
import { beforeEach, expect, it } from "vitest";
import type { Engine } from "../../src/engine/index.js";
import { EmbeddingIndex } from "../../src/recall/embedding-index.js";
import { RECALL_DEFAULTS, recallExchanges, type RecallMessage, type RecallOptions } from "../../src/recall/policy.js";
import type { Ranked } from "../../src/recall/rank.js";
import { RecallIndex } from "../../src/recall/memory.js";
import type { Embedder } from "../../src/recall/embedder.js";
import { expectRejectCode, expectThrowCode, forEachEngine, makeEngine } from "../helpers.js";

const DIM = 16;
/** A unit vector leaning on axis `a` (and a little on axis `b`, to make near ties). */
const dir = (a: number, b = a, lean = 0) =>
  Float32Array.from({ length: DIM }, (_, j) => (j === a ? 1 : 0) + (j === b ? lean : 0));

/**
 * system 0; then exchanges, each `user, assistant`, except exchange 4 which runs a tool unit:
 * user, assistant (tool calls), tool, tool, assistant. Keys count up in list order.
 */
function conversation(exchanges = 10) {
  const messages: RecallMessage[] = [{ key: 0, parent: -1, role: "system" }];
  const starts: number[] = [];
  const answers: number[] = [];
  let key = 1;
  const push = (m: Omit<RecallMessage, "key" | "parent">) => {
    messages.push({ key, parent: key - 1, ...m });
    return key++;
  };
  for (let e = 0; e < exchanges; e++) {
    starts.push(push({ role: "user" }));
    if (e === 4) {
      const call = push({ role: "assistant", unit: undefined });
      messages[messages.length - 1]!.unit = call;
      push({ role: "tool", unit: call });
      push({ role: "tool", unit: call });
    }
    answers.push(push({ role: "assistant" }));
  }
  return { messages, starts, answers };
}

forEachEngine((kind) => {
  let engine: Engine;
  let prompts: EmbeddingIndex;
  let answers: EmbeddingIndex;
  const convo = conversation();
  const rank = (query: Float32Array | null): Ranked[] =>
    query ? prompts.search(query, { k: 100 }).filter((h) => h.score > 0) : [];
  const run = (query: Float32Array | null, options?: RecallOptions) =>
    recallExchanges({ messages: convo.messages, ranked: rank(query), answers }, options);
  const startsOf = (r: ReturnType<typeof run>) => r.exchanges.map((e) => [convo.starts.indexOf(e.start), e.reason]);

  beforeEach(async () => {
    engine = await makeEngine(kind);
    prompts = EmbeddingIndex.create(engine, { dimension: DIM });
    answers = EmbeddingIndex.create(engine, { dimension: DIM });
    // Prompt e points along axis e; answer e along axis e too, except answers 2 and 7, which
    // resemble each other (axis 12), and answer 3, which resembles answer 8 (axis 13).
    prompts.add(
      convo.starts,
      convo.starts.map((_, e) => dir(e)),
    );
    const answerDir = (e: number) =>
      e === 2 || e === 7 ? dir(12, e, 0.3) : e === 3 || e === 8 ? dir(13, e, 0.2) : dir(e);
    answers.add(
      convo.answers,
      convo.answers.map((_, e) => answerDir(e)),
    );
  });

  it("the exchanges of the best matches (best first), the answers like theirs, the last N", () => {
    const r = run(dir(2, 3, 0.9), { prompts: 2, answersPerPrompt: 1, recent: 1 });
    expect(startsOf(r)).toEqual([
      [2, "prompt"],
      [3, "prompt"],
      [7, "similar"],
      [8, "similar"],
      [9, "recent"],
    ]);
    const two = r.exchanges[0]!;
    expect(two.keys).toEqual([convo.starts[2], convo.answers[2]]); // whole: the prompt and its answer
    expect(two.score).toBeCloseTo(1 / Math.hypot(1, 0.9), 6);
    expect(r.exchanges[2]!.via).toBe(convo.answers[2]);
    expect(r.exchanges[4]!.score).toBeNull();
    expect(r.messages.map((m) => m.key)).toEqual(r.exchanges.flatMap((e) => e.keys)); // exchange after exchange
    // A better match later in the ranking's list comes first all the same: the order is the ranking's.
    const flipped = recallExchanges(
      {
        messages: convo.messages,
        ranked: [
          { key: convo.answers[6]!, score: 3 },
          { key: convo.starts[1]!, score: 2 },
        ],
        answers,
      },
      { recent: 0 },
    );
    expect(startsOf(flipped)).toEqual([
      [6, "prompt"],
      [1, "prompt"],
    ]); // an answer's match brings its exchange
  });

  it("defaults: the exchanges of the 5 best matches, no similar answers, no recent exchanges", () => {
    expect(RECALL_DEFAULTS).toEqual({ prompts: 5, answersPerPrompt: 0, recent: 0 });
    const ranked = convo.starts.map((key, e) => ({ key, score: 10 - e }));
    const r = recallExchanges({ messages: convo.messages, ranked, answers });
    expect(startsOf(r)).toEqual([0, 1, 2, 3, 4].map((e) => [e, "prompt"]));
  });

  it("a tool unit comes back whole with its exchange", () => {
    const r = run(dir(4), { prompts: 1, answersPerPrompt: 0, recent: 0 });
    const four = convo.messages.filter((m) => m.key >= convo.starts[4]! && m.key < convo.starts[5]!).map((m) => m.key);
    expect(r.exchanges).toHaveLength(1);
    expect(r.exchanges[0]!.keys).toEqual(four);
    expect(four).toHaveLength(5);
  });

  it("exchanges touching the window are left out, and the next best takes their place", () => {
    const window = [convo.answers[2]!, ...convo.starts.slice(8), ...convo.answers.slice(8)];
    const r = run(dir(2, 3, 0.9), { prompts: 2, answersPerPrompt: 0, recent: 3, exclude: window });
    expect(startsOf(r)).toEqual([
      [3, "prompt"],
      [7, "recent"],
    ]); // 2 is in the window; 8 and 9 too
    const r2 = run(dir(2, 3, 0.9), { prompts: 2, answersPerPrompt: 0, recent: 0, exclude: window });
    expect(startsOf(r2)).toEqual([[3, "prompt"]]); // nothing else matched
  });

  it("minScore drops weak similar answers; k = 0 turns a part off", () => {
    const similar = (minScore: number) =>
      startsOf(run(dir(2, 3, 0.9), { prompts: 2, answersPerPrompt: 3, recent: 0, minScore }));
    expect(similar(0.9)).toEqual([
      [2, "prompt"],
      [3, "prompt"],
      [7, "similar"],
      [8, "similar"],
    ]); // cosines 0.917 and 0.962
    expect(similar(0.95)).toEqual([
      [2, "prompt"],
      [3, "prompt"],
      [8, "similar"],
    ]);
    expect(run(dir(2), { prompts: 0, answersPerPrompt: 3, recent: 0 }).exchanges).toEqual([]);
    expect(startsOf(run(null, { recent: 2 }))).toEqual([
      [9, "recent"],
      [8, "recent"],
    ]); // newest first
  });

  it("summaries are never recalled, nor messages outside the scope", () => {
    const messages: RecallMessage[] = [
      ...convo.messages,
      { key: 500, parent: convo.answers[9]!, role: "assistant", kind: "summary" },
    ];
    answers.add([500, 900], [dir(2), dir(2)]); // 900: indexed but not in this scope (another branch)
    const ranked = [{ key: 500, score: 5 }, { key: 900, score: 4 }, ...rank(dir(2))]; // a summary, a key of another scope
    const r = recallExchanges({ messages, ranked, answers }, { prompts: 1, answersPerPrompt: 3, recent: 0 });
    const keys = r.messages.map((m) => m.key);
    expect(keys).not.toContain(500);
    expect(keys).not.toContain(900);
    expect(startsOf(r)).toContainEqual([2, "prompt"]);
    expect(startsOf(r)).toContainEqual([7, "similar"]);
  });

  it("bad options, input or messages are INVALID_ARGUMENT", () => {
    const bad: (() => unknown)[] = [
      () => run(dir(1), { prompts: -1 }),
      () => run(dir(1), { answersPerPrompt: 1.5 }),
      () => run(dir(1), { recent: -2 }),
      () => run(dir(1), { minScore: 3 }),
      () => run(dir(1), { exclude: 4 as never }),
      () => run(dir(1), { promts: 2 } as never),
      () => recallExchanges(null as never),
      () => recallExchanges({ messages: convo.messages, ranked: 3 as never }),
      () => recallExchanges({ messages: 7 as never, ranked: [] }),
      () => recallExchanges({ messages: [{ key: 1, parent: 0, role: "user" }], ranked: [] }),
      () =>
        recallExchanges({
          messages: [
            { key: 1, parent: -1, role: "user" },
            { key: 1, parent: -1, role: "user" },
          ],
          ranked: [],
        }),
      () => recallExchanges({ messages: [{ key: 1, parent: -1, role: "robot" as never }], ranked: [] }),
      () => recallExchanges({ messages: [{ key: 1, parent: -1, role: "tool", unit: 1 }], ranked: [] }),
    ];
    for (const call of bad) expectThrowCode(call, "INVALID_ARGUMENT");
  });

  it("RecallIndex: embeds as messages arrive, recalls by text, changes nothing on failure", async () => {
    const memory = RecallIndex.create(engine, { quantized: true });
    const texts = [
      "I adopted a cat named Pixel.",
      "Lovely, Pixel is a great name.",
      "What's a good pasta recipe?",
      "Try carbonara.",
      "Thanks!",
      "Any time.",
    ];
    const messages: RecallMessage[] = texts.map((_, i) => ({
      key: i,
      parent: i - 1,
      role: i % 2 ? "assistant" : "user",
    }));
    await memory.add(texts.map((content, key) => ({ key, role: key % 2 ? "assistant" : "user", content })));
    const r = await memory.recall("what was my cat called?", messages, { prompts: 1, answersPerPrompt: 0, recent: 0 });
    expect(r.exchanges.map((e) => e.keys)).toEqual([[0, 1]]);
    const recentOnly = await memory.recall("what is it?", messages, { recent: 1 }); // stop words only: no direction
    expect(recentOnly.exchanges.map((e) => e.reason)).toEqual(["recent"]);
    await expectRejectCode(() => memory.recall("", messages), "INVALID_ARGUMENT");
    await expectRejectCode(() => memory.add([{ key: 0, role: "user", content: "again" }]), "INVALID_ARGUMENT");
    const broken: Embedder = {
      name: "short",
      dimension: 384,
      embed: async (t) => t.slice(1).map(() => new Float32Array(384)),
    };
    const other = RecallIndex.create(engine, { embedder: broken });
    await expectRejectCode(
      () =>
        other.add([
          { key: 1, role: "user", content: "a" },
          { key: 2, role: "assistant", content: "b" },
        ]),
      "EMBEDDER_FAILED",
    );
    expect(other.prompts.size + other.answers.size).toBe(0);
    memory.forget([0, 1]);
    expect(memory.has(0)).toBe(false);
    expectThrowCode(() => RecallIndex.create(engine, { embeder: broken } as never), "INVALID_ARGUMENT");
  });
});
