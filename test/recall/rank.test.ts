// The hybrid ranking on channels written by hand, so every score is known: normalised fusion,
// the neighbours' share, a question's reply's share, minScore, and when the dense channel
// brings candidates of its own.
import { expect, it } from "vitest";
import { ExchangeScope } from "../../src/recall/exchanges.js";
import { QUESTION } from "../../src/recall/lexical-scope.js";
import { RANKING, rankMessages, type RankChannels } from "../../src/recall/rank.js";
import type { RecallMessage } from "../../src/recall/policy.js";

/** A linear chat of `n` messages, user and assistant in turn. */
const chat = (n: number) =>
  ExchangeScope.of(
    Array.from(
      { length: n },
      (_, key): RecallMessage => ({ key, parent: key - 1, role: key % 2 ? "assistant" : "user" }),
    ),
  );

function channels(
  lex: Record<number, number>,
  cos: Record<number, number>,
  own = false,
  held?: Set<number>,
  flags: Record<number, number> = {},
): RankChannels & { searched: number } {
  const c = {
    searched: 0,
    lexical: (k: number) => {
      const keys = Object.keys(lex)
        .map(Number)
        .sort((a, b) => lex[b]! - lex[a]! || a - b)
        .slice(0, k);
      return { keys, scores: keys.map((key) => lex[key]!) };
    },
    lexicalSize: 400,
    dense: (keys: readonly number[]) => keys.map((key) => cos[key] ?? NaN),
    denseSearch: (k: number) => {
      c.searched++;
      return Object.keys(cos)
        .map(Number)
        .map((key) => ({ key, score: cos[key]! }))
        .sort((a, b) => b.score - a.score || a.key - b.key)
        .slice(0, k);
    },
    denseFindsOwn: own,
    holds: (key: number) => !held || held.has(key),
    flags: (key: number) => flags[key] ?? 0,
    time: () => NaN,
  };
  return c;
}

it("fuses lexical and dense scores, each over its best, and lifts a match's neighbours", () => {
  const scope = chat(10);
  const ranked = rankMessages(channels({ 4: 6, 8: 3 }, { 4: 0.5, 8: 0.25 }), scope, { want: 2 });
  const score = (key: number) => ranked.find((r) => r.key === key)?.score;
  const f4 = 1 + RANKING.dense * 1; // the best lexical and the best similarity among the candidates
  const f8 = 0.5 + RANKING.dense * 0.5;
  expect(score(4)).toBeCloseTo(f4, 12);
  expect(score(8)).toBeCloseTo(f8 + 0, 12); // its neighbours 7 and 9 matched nothing
  expect(score(3)).toBeCloseTo(RANKING.neighbours * f4, 12); // matched by no word: brought by its neighbour
  expect(score(5)).toBeCloseTo(RANKING.neighbours * f4, 12);
  expect(score(9)).toBeCloseTo(RANKING.neighbours * f8, 12);
  expect(ranked.map((r) => r.key)).toEqual([4, 8, 3, 5, 7, 9]); // ties of score: the lower key first
});

it("the reply to a question gains its share of the question's score; the turn before it does not, nor the reply to a statement", () => {
  // 4 asks a question, 8 states something; both match the query alike.
  const ranked = rankMessages(channels({ 4: 6, 8: 6 }, {}, false, undefined, { 4: QUESTION }), chat(10), { want: 2 });
  const score = (key: number) => ranked.find((r) => r.key === key)?.score;
  expect(score(4)).toBe(1);
  expect(score(5)).toBeCloseTo(RANKING.neighbours + RANKING.reply, 12); // it answers 4
  expect(score(3)).toBeCloseTo(RANKING.neighbours, 12); // 4 answers it: no more than a neighbour
  expect(score(9)).toBeCloseTo(RANKING.neighbours, 12); // 8 asked nothing
  expect(RANKING.reply).toBeGreaterThan(0);
  expect(ranked.map((r) => r.key)).toEqual([4, 8, 5, 3, 7, 9]);
  // Without the lever, the question's neighbours are alike.
  const off = rankMessages(channels({ 4: 6, 8: 6 }, {}, false, undefined, { 4: QUESTION }), chat(10), {
    want: 2,
    ranking: { ...RANKING, reply: 0 },
  });
  expect(off.find((r) => r.key === 5)?.score).toBe(off.find((r) => r.key === 3)?.score);
});

it("minScore leaves out what its vector does not reach, and what a neighbour alone brings", () => {
  const ranked = rankMessages(channels({ 4: 6, 8: 3 }, { 4: 0.5, 8: 0.25 }), chat(10), { want: 2, minScore: 0.3 });
  expect(ranked.map((r) => r.key)).toEqual([4]);
});

it("only eligible messages come back: in scope, user or assistant, not a summary, held by a channel", () => {
  const scope = ExchangeScope.of([
    { key: 0, parent: -1, role: "system" },
    { key: 1, parent: 0, role: "user" },
    { key: 2, parent: 1, role: "assistant", kind: "summary" },
    { key: 3, parent: 1, role: "assistant" },
    { key: 4, parent: 3, role: "tool" },
  ]);
  const ranked = rankMessages(channels({ 0: 5, 1: 4, 2: 3, 4: 2, 99: 9 }, {}, false, new Set([1, 3])), scope, {
    want: 5,
  });
  expect(ranked.map((r) => r.key)).toEqual([1, 3]); // 3 by its neighbour 1 only
});

it("the built-in embedder's channel searches on its own only when the words found too few; another embedder always", () => {
  const many = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [i, 1 + i]));
  const builtIn = channels(many, { 0: 0.9 });
  rankMessages(builtIn, chat(400), { want: 5 });
  expect(builtIn.searched).toBe(0); // 100 lexical candidates and more to come: no scan
  const few = channels({ 2: 1 }, { 6: 0.8 });
  const found = rankMessages(few, chat(400), { want: 5 });
  expect(few.searched).toBe(1);
  expect(found.map((r) => r.key)).toContain(6); // a message no word matched, found by its vector
  const custom = channels(many, { 0: 0.9 }, true);
  rankMessages(custom, chat(400), { want: 5 });
  expect(custom.searched).toBe(1);
});

it("no candidates, no ranking: a query of stop words only recalls nothing", () => {
  expect(rankMessages(channels({}, {}), chat(6), { want: 3 })).toEqual([]);
});
