// Summary nodes (docs/summaries.md) on both engines: fixed cases, refusals that change
// nothing, differential properties against each other and against a brute-force model
// (test/engine/summary-model.ts), and node counts that show walks and selections stay O(W).
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Engine } from "../../src/engine/index.js";
import { FLAG_SUMMARY, FLAG_TOOL_CALLS, FLAG_UNIT_END } from "../../src/engine/types.js";
import { ENGINES, dumpTree, expectThrowCode, forEachEngine, makeEngine, walkIds } from "../helpers.js";
import { countingEngine } from "./counting.js";
import {
  ASSISTANT,
  CRITICAL,
  HIGH,
  LOW,
  NORMAL,
  SYSTEM,
  TOOL,
  USER,
  plain,
  priorityOf,
  step,
  type Step,
} from "./reference.js";
import { SummaryModel } from "./summary-model.js";
import { SUMMARY_OVERLAP } from "../../src/engine/layout.js";

const summarized = (e: Engine, t: number, head: number, max = 1e9, fromBelow = false): number[] => {
  const n = e.walkSummarized(t, head, max, fromBelow);
  return Array.from(e.ids.subarray(0, n));
};

/** A chain of n messages, user and assistant in turn, 10 tokens each, NORMAL. */
function chain(e: Engine, n: number): number {
  const t = e.createTree();
  for (let i = 0; i < n; i++) e.append(t, i - 1, 10, i % 2 ? ASSISTANT : USER, NORMAL, 0);
  return t;
}

/** Everything observable about a tree: the tree view, every walk both ways, and a few selections. */
function observe(e: Engine, t: number) {
  const size = e.size(t);
  const heads = Array.from({ length: size }, (_, i) => i);
  return {
    tree: dumpTree(e, t),
    walks: heads.map((h) => walkIds(e, t, h, 1e9)),
    summarized: heads.map((h) => summarized(e, t, h)),
    selections: heads.map((h) => [plain(e.select(t, h, 25, 0)), plain(e.select(t, h, 1000, 3))]),
  };
}

forEachEngine((kind) => {
  describe("summary nodes: fixed cases", () => {
    let e: Engine;
    beforeAll(async () => {
      e = await makeEngine(kind);
    });

    it("a summary stands for its run on summarized walks; plain walks keep every original", () => {
      const t = chain(e, 7); // 0..6
      const s = e.attachSummary(t, 1, 4, 3, HIGH);
      expect(s).toBe(7);
      expect(e.size(t)).toBe(8);
      expect(summarized(e, t, 6)).toEqual([0, s, 5, 6]);
      expect(walkIds(e, t, 6, 100)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      // the head is the run's last, a user message: its own turn is never summarized (the run is
      // on the path whole, as a branch going on below 4 with a newer user turn sees it)
      expect(summarized(e, t, 4)).toEqual([0, 1, 2, 3, 4]);
      expect(summarized(e, t, 4, 1e9, true)).toEqual([0, s]);
      expect(summarized(e, t, 6, 2)).toEqual([5, 6]);
      expect(summarized(e, t, 6, 3)).toEqual([s, 5, 6]);
      // the node itself
      expect([e.parent(t, s), e.depth(t, s), e.tokens(t, s), e.role(t, s), e.priority(t, s), e.flags(t, s)]).toEqual([
        0,
        1,
        3,
        0,
        HIGH,
        FLAG_SUMMARY,
      ]);
      expect([e.summaryFirst(t, s), e.summaryLast(t, s), e.summaryFirst(t, 3), e.summaryLast(t, 3)]).toEqual([
        1, 4, -1, -1,
      ]);
      // not in the tree view
      expect(e.children(t, 0)).toEqual([1]);
      expect(e.children(t, -1)).toEqual([0]);
      expect(e.children(t, s)).toEqual([]);
      expect(e.leaves(t)).toEqual([6]);
      // a walk that starts at the summary node goes on above its run
      expect(summarized(e, t, s)).toEqual([0, s]);
      expect(walkIds(e, t, s, 100)).toEqual([0, s]);
    });

    it("a head inside the run (checkout into the middle) sees the originals; branches below last share the summary", () => {
      const t = chain(e, 7);
      const s = e.attachSummary(t, 1, 4, 3, NORMAL);
      expect(summarized(e, t, 3)).toEqual([0, 1, 2, 3]);
      expect(summarized(e, t, 1)).toEqual([0, 1]);
      const inside = e.append(t, 2, 10, USER, NORMAL, 0); // a branch off the middle of the run
      expect(summarized(e, t, inside)).toEqual([0, 1, 2, inside]);
      const below = e.append(t, 4, 10, USER, NORMAL, 0); // a sibling of 5, below last
      expect(summarized(e, t, below)).toEqual([0, s, below]);
      expect(e.children(t, 4)).toEqual([5, below]);
      expect(e.leaves(t)).toEqual([6, inside, below]);
    });

    it("nodes already below last are re-linked: selection from them goes through the summary", () => {
      const t = e.createTree();
      e.append(t, -1, 5, SYSTEM, CRITICAL, 0); // 0
      for (let i = 1; i <= 8; i++) e.append(t, i - 1, 10, i % 2 ? USER : ASSISTANT, i === 2 ? HIGH : NORMAL, 0); // 1..8
      e.append(t, 5, 10, USER, NORMAL, 0); // 9: a branch below 5
      const s = e.attachSummary(t, 1, 5, 7, NORMAL); // 10: covers the HIGH message 2
      expect(summarized(e, t, 8)).toEqual([0, s, 6, 7, 8]);
      expect(summarized(e, t, 9)).toEqual([0, s, 9]);
      // everything fits: the path in path order (the summary's id is the newest)
      expect(plain(e.select(t, 8, 1000, 0))).toEqual({
        fits: true,
        ids: [0, s, 6, 7, 8],
        keptTokens: 42,
        forcedTokens: 15,
        evicted: 0,
      });
      // the covered HIGH message is no candidate; the summary is dropped as one entry, and its five messages are left out
      expect(plain(e.select(t, 8, 35, 0))).toEqual({
        fits: true,
        ids: [0, 6, 7, 8],
        keptTokens: 35,
        forcedTokens: 15,
        evicted: 5,
      });
      // maxMessages counts the summary as one: the newest 2 entries are s and 9 (the CRITICAL 0 is forced from outside)
      expect(plain(e.select(t, 9, 1000, 2))).toEqual({
        fits: true,
        ids: [0, s, 9],
        keptTokens: 22,
        forcedTokens: 15,
        evicted: 0,
      });
    });

    it("the forced user turn is the branch's newest user message: a summary that would hide it, or what follows it, does not apply", () => {
      const t = e.createTree();
      e.append(t, -1, 10, USER, NORMAL, 0); // 0
      e.append(t, 0, 10, ASSISTANT, NORMAL, 0); // 1
      e.append(t, 1, 10, USER, NORMAL, 0); // 2
      e.append(t, 2, 10, ASSISTANT, NORMAL, 0); // 3
      e.append(t, 3, 10, ASSISTANT, NORMAL, 0); // 4
      expect(e.select(t, 4, 10, 0).forcedTokens).toBe(10); // 2 is forced
      const s = e.attachSummary(t, 2, 3, 4, LOW); // a run holding the head's newest user turn
      expect(summarized(e, t, 4)).toEqual([0, 1, 2, 3, 4]);
      expect(plain(e.select(t, 4, 10, 0))).toEqual({
        fits: true,
        ids: [2],
        keptTokens: 10,
        forcedTokens: 10,
        evicted: 4,
      });
      expect(plain(e.select(t, 4, 100, 0))).toEqual({
        fits: true,
        ids: [0, 1, 2, 3, 4],
        keptTokens: 50,
        forcedTokens: 10,
        evicted: 0,
      });
      // a new user turn below the run: the summary applies again
      const next = e.append(t, 4, 10, USER, NORMAL, 0); // 6
      expect(summarized(e, t, next)).toEqual([0, 1, s, 4, next]);
      expect(plain(e.select(t, next, 10, 0))).toEqual({
        fits: true,
        ids: [next],
        keptTokens: 10,
        forcedTokens: 10,
        evicted: 5,
      });

      // a run of what follows the turn only (the user message 8 above it) does not apply either
      const u = e.createTree();
      for (const role of [USER, ASSISTANT, USER, ASSISTANT, ASSISTANT, ASSISTANT])
        e.append(u, e.size(u) - 1, 10, role, NORMAL, 0); // 0..5
      const after = e.attachSummary(u, 3, 4, 4, NORMAL); // covers 3 and 4, after the user message 2
      expect(summarized(e, u, 5)).toEqual([0, 1, 2, 3, 4, 5]);
      const older = e.attachSummary(u, 0, 1, 4, NORMAL); // one above the turn still does
      expect(summarized(e, u, 5)).toEqual([older, 2, 3, 4, 5]);
      expect(plain(e.select(u, 5, 25, 0))).toEqual({
        fits: true,
        ids: [2, 5],
        keptTokens: 20,
        forcedTokens: 10,
        evicted: 4,
      }); // 0 and 1 in the summary left out, 3 and 4
      expect(summarized(e, u, 5, 1e9, true)).toEqual([older, 2, after, 5]);
      const again = e.append(u, 5, 10, USER, NORMAL, 0);
      expect(summarized(e, u, again)).toEqual([older, 2, after, 5, again]);
    });

    it("a checkout into a summarized run: the turn is sent as itself, forced, or the selection does not fit", () => {
      // 0..7 user and assistant in turn; a summary of 1..5 made for the branch whose newest user turn is 6
      const t = chain(e, 8);
      const s = e.attachSummary(t, 1, 5, 3, HIGH);
      expect(summarized(e, t, 7)).toEqual([0, s, 6, 7]);
      // checkout 5, then an answer below it: the turn (4, 5, 8) is inside the summary's run or after it
      const answer = e.append(t, 5, 10, ASSISTANT, NORMAL, 0); // 9
      expect(summarized(e, t, 5)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(summarized(e, t, answer)).toEqual([0, 1, 2, 3, 4, 5, answer]);
      expect(summarized(e, t, answer, 2)).toEqual([5, answer]);
      // the summary no longer fits a small budget: the user turn 4 is forced, never just the answer
      expect(plain(e.select(t, answer, 20, 0))).toEqual({
        fits: true,
        ids: [4, answer],
        keptTokens: 20,
        forcedTokens: 10,
        evicted: 5,
      });
      expect(plain(e.select(t, answer, 9, 0))).toMatchObject({ fits: false, forcedTokens: 10 });
      expect(plain(e.select(t, answer, 1000, 3))).toEqual({
        fits: true,
        ids: [4, 5, answer],
        keptTokens: 30,
        forcedTokens: 10,
        evicted: 4,
      });
      // a tool unit inside the turn is kept whole or not at all
      const call = e.append(t, answer, 10, ASSISTANT, NORMAL, FLAG_TOOL_CALLS);
      const result = e.append(t, call, 10, TOOL, NORMAL, FLAG_UNIT_END);
      expect(plain(e.select(t, result, 30, 0)).ids).toEqual([4, call, result]);
      expect(plain(e.select(t, result, 25, 0)).ids).toEqual([4]);
      // a user turn below: the summary applies again, to this branch and those below it
      const ask = e.append(t, result, 10, USER, NORMAL, 0);
      expect(summarized(e, t, ask)).toEqual([0, s, answer, call, result, ask]);
      const reply = e.append(t, ask, 10, ASSISTANT, NORMAL, 0);
      expect(plain(e.select(t, reply, 1000, 0)).ids).toEqual([0, s, answer, call, result, ask, reply]);
    });

    it("summaries of summaries: a run may hold earlier runs whole, and then stands in for them", () => {
      const t = chain(e, 8); // 0..7
      const inner = e.attachSummary(t, 2, 4, 1, NORMAL); // 8
      expect(summarized(e, t, 7)).toEqual([0, 1, inner, 5, 6, 7]);
      const outer = e.attachSummary(t, 1, 5, 2, NORMAL); // 9
      expect(summarized(e, t, 7)).toEqual([0, outer, 6, 7]);
      expect(summarized(e, t, 4)).toEqual([0, 1, 2, 3, 4]); // the head 4 is a user message: neither run hides it
      expect(summarized(e, t, 4, 1e9, true)).toEqual([0, 1, inner]); // inside the outer run, the inner run is whole on the path
      expect(summarized(e, t, 3)).toEqual([0, 1, 2, 3]);
      const below = e.append(t, 4, 10, USER, NORMAL, 0); // a user turn below the inner run, inside the outer one
      expect(summarized(e, t, below)).toEqual([0, 1, inner, below]);
      const again = e.attachSummary(t, 1, 5, 3, HIGH); // the same run again: it holds the earlier one whole
      expect(summarized(e, t, 7)).toEqual([0, again, 6, 7]);
      const all = e.attachSummary(t, 0, 6, 4, NORMAL); // it holds 7's newest user turn, 6: not for 7
      expect(summarized(e, t, 7)).toEqual([0, again, 6, 7]);
      expect(summarized(e, t, 7, 1e9, true)).toEqual([all, 7]);
      expect(walkIds(e, t, 7, 100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it("refusals throw INVALID_ARGUMENT and change nothing", () => {
      const t = e.createTree();
      e.append(t, -1, 10, USER, NORMAL, 0); // 0
      e.append(t, 0, 10, ASSISTANT, NORMAL, 0); // 1
      e.append(t, 1, 10, USER, NORMAL, 0); // 2
      e.append(t, 2, 10, ASSISTANT, NORMAL, 0); // 3
      e.append(t, 1, 10, USER, NORMAL, 0); // 4: a sibling of 2
      e.append(t, 4, 10, ASSISTANT, NORMAL, FLAG_TOOL_CALLS); // 5: calls
      e.append(t, 5, 10, TOOL, NORMAL, 0); // 6: a result, one call still open
      e.append(t, 6, 10, TOOL, NORMAL, FLAG_UNIT_END); // 7: the unit's end
      e.append(t, 7, 10, USER, NORMAL, 0); // 8
      const s = e.attachSummary(t, 1, 3, 5, NORMAL); // 9: covers 1, 2, 3
      const before = observe(e, t);
      const refused = (first: number, last: number) =>
        expectThrowCode(() => e.attachSummary(t, first, last, 5, NORMAL), "INVALID_ARGUMENT");
      refused(2, 4); // 2 is not an ancestor of 4
      refused(3, 2); // first below last
      expect(observe(e, t)).toEqual(before);
      refused(s, 3); // a summary node as first
      refused(0, s); // or as last
      refused(0, 4); // holds 1 (covered by s) without s's whole run, on a sibling branch
      refused(2, 3); // inside s's run
      refused(0, 2); // holds part of s's run
      refused(6, 8); // starts at a tool result
      refused(4, 5); // ends at an assistant message whose calls are answered below
      refused(4, 6); // ends at a tool result that leaves a call open
      expect(observe(e, t)).toEqual(before);
      expect(() => e.attachSummary(t, 4, 7, 5, NORMAL)).not.toThrow(); // the whole unit
    });
  });
});

// ---- differential: random operations with summaries interleaved, both engines and the model ----

type Op =
  | { t: "append"; s: Step }
  | { t: "attach"; pick: number; span: number; how: number; tokens: number; prio: number }
  | { t: "walk"; head: number; max: number }
  | { t: "select"; head: number; budget: number; max: number };

const big = fc.oneof(fc.nat({ max: 40 }), fc.constantFrom(2 ** 30, 2 ** 29, 2 ** 30 - 1));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: step.chain((s) => big.map((tokens) => ({ t: "append" as const, s: { ...s, tokens } }))) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("attach" as const),
      pick: fc.nat(),
      span: fc.nat({ max: 30 }),
      how: fc.nat({ max: 99 }),
      tokens: big,
      prio: fc.nat({ max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant("walk" as const), head: fc.nat(), max: fc.integer({ min: 1, max: 60 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("select" as const),
      head: fc.nat(),
      budget: fc.oneof(fc.nat({ max: 300 }), fc.constant(2 ** 31 - 1), fc.integer({ min: 2 ** 29, max: 2 ** 31 - 1 })),
      max: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })),
    }),
  },
);

/** Runs ops on the model and on every engine, checking each result; returns what happened, for the counts. */
function runOps(
  engines: Engine[],
  ops: Op[],
): { attached: number; refused: number; overlaps: number; summarizedWalks: number; coveredTurns: number } {
  const m = new SummaryModel();
  const trees = engines.map((e) => e.createTree());
  const originals: number[] = [];
  const open: number[] = []; // per id: calls of its unit still unanswered after it
  let lastOriginal = -1;
  const stats = { attached: 0, refused: 0, overlaps: 0, summarizedWalks: 0, coveredTurns: 0 };
  /** Whether a summary on the head's path (as a branch below it sees it) does not apply to the head itself: one hangs inside its turn. */
  const covered = (head: number) => m.summarizedPath(head).join() !== m.summarizedPath(head, true).join();
  try {
    for (const o of ops) {
      if (o.t === "append") {
        const s = o.s;
        const parent =
          originals.length === 0 || s.back >= 97
            ? -1
            : s.back < 80
              ? lastOriginal
              : originals[s.back % originals.length]!;
        const pending = parent >= 0 ? open[parent]! : 0;
        let node: [number, number, number];
        let left = 0;
        if (pending > 0 && s.kind < 75) {
          left = pending - 1;
          node = [TOOL, m.nodes[parent]!.priority, left === 0 ? FLAG_UNIT_END : 0];
        } else if (s.kind < 40) node = [USER, priorityOf(s.prio), 0];
        else if (s.kind < 70) node = [ASSISTANT, priorityOf(s.prio), 0];
        else if (s.kind < 90) {
          left = s.calls;
          node = [ASSISTANT, priorityOf(s.prio), FLAG_TOOL_CALLS];
        } else node = [SYSTEM, s.prio < 70 ? CRITICAL : priorityOf(s.prio), 0];
        const id = m.append(parent, s.tokens, ...node);
        engines.forEach((e, i) => expect(e.append(trees[i]!, parent, s.tokens, ...node)).toBe(id));
        originals.push(id);
        open[id] = left;
        lastOriginal = id;
      } else if (o.t === "attach") {
        if (originals.length === 0) continue;
        let first: number;
        let last: number;
        const summaries = [...m.runs.keys()];
        if (o.how < 50 || summaries.length === 0) {
          // a random run: any original, and an ancestor of it
          last = originals[o.pick % originals.length]!;
          const up = m.path(last);
          first = up[Math.max(0, up.length - 1 - o.span)]!;
        } else {
          // around an earlier summary: its run widened upwards, and maybe downwards
          const run = m.runs.get(summaries[o.pick % summaries.length]!)!;
          const up = m.path(run.first);
          first = up[Math.max(0, up.length - 1 - (o.span % 3))]!;
          last = run.last;
          if (o.how >= 75) {
            const below = originals.filter((x) => m.path(x).includes(run.last));
            last = below[o.span % below.length]!;
          }
        }
        if (o.how % 10 === 9) [first, last] = [last, first]; // now and then, the wrong way round
        const expected = m.attach(first, last, o.tokens, o.prio);
        const messages = engines.map((e, i) => {
          try {
            expect(e.attachSummary(trees[i]!, first, last, o.tokens, o.prio)).toBe(expected);
            return null;
          } catch (error) {
            expect((error as { code?: string }).code, String(error)).toBe("INVALID_ARGUMENT");
            return (error as Error).message;
          }
        });
        if (expected >= 0) stats.attached++;
        else {
          stats.refused++;
          if (expected === SUMMARY_OVERLAP) stats.overlaps++;
          for (const message of messages) expect(message).toBe(messages[0]);
          expect(messages[0]).not.toBeNull();
        }
      } else if (o.t === "walk") {
        const head = o.head % m.nodes.length || 0;
        if (m.nodes.length === 0) continue;
        const plainPath = m.path(head).slice(-o.max);
        const sumPath = m.summarizedPath(head).slice(-o.max);
        const belowPath = m.summarizedPath(head, true).slice(-o.max);
        if (sumPath.some((x) => m.isSummary(x))) stats.summarizedWalks++;
        if (covered(head)) stats.coveredTurns++;
        engines.forEach((e, i) => {
          expect(walkIds(e, trees[i]!, head, o.max)).toEqual(plainPath);
          e.resetVisited();
          expect(summarized(e, trees[i]!, head, o.max)).toEqual(sumPath);
          expect(e.visited).toBe(sumPath.length);
          expect(summarized(e, trees[i]!, head, o.max, true)).toEqual(belowPath);
        });
      } else {
        if (m.nodes.length === 0) continue;
        const head = o.head % m.nodes.length;
        const expected = m.select(head, o.budget, o.max);
        if (covered(head)) stats.coveredTurns++;
        engines.forEach((e, i) => expect(plain(e.select(trees[i]!, head, o.budget, o.max))).toEqual(expected));
      }
    }
    // the tree view, on every engine, is the model's: summaries are nobody's children
    const view = { roots: m.children(-1), leaves: m.leaves(), children: m.nodes.map((_, id) => m.children(id)) };
    engines.forEach((e, i) => {
      const d = dumpTree(e, trees[i]!);
      expect({ roots: d.roots, leaves: d.leaves, children: d.nodes.map((n) => n.children) }).toEqual(view);
    });
  } finally {
    engines.forEach((e, i) => e.dropTree(trees[i]!));
  }
  return stats;
}

describe("summaries: both engines against the brute-force model on random operations", () => {
  const engines: Engine[] = [];
  beforeAll(async () => {
    for (const kind of ENGINES) engines.push(await countingEngine(kind));
  });

  it("same ids, refusals, plain and summarized walks, selections and tree view", () => {
    const total = { attached: 0, refused: 0, overlaps: 0, summarizedWalks: 0, coveredTurns: 0 };
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 120 }), (ops) => {
        const s = runOps(engines, ops);
        total.attached += s.attached;
        total.refused += s.refused;
        total.overlaps += s.overlaps;
        total.summarizedWalks += s.summarizedWalks;
        total.coveredTurns += s.coveredTurns;
      }),
      { numRuns: 300 },
    );
    // the runs did attach, refuse and walk through summaries, many times each
    expect(total.attached).toBeGreaterThan(600);
    expect(total.refused).toBeGreaterThan(400);
    expect(total.overlaps).toBeGreaterThan(150);
    expect(total.summarizedWalks).toBeGreaterThan(600);
    // and from heads whose own turn a summary on the path would hide (a checkout into a run)
    expect(total.coveredTurns, JSON.stringify(total)).toBeGreaterThan(300);
  });
});

// ---- cost: O(W) after a summary, counted with the counting engines, never timed ----

const N = 100_000;

forEachEngine((kind) => {
  describe("summary cost on a 100,000-message chain (a summary over the oldest 99,000)", () => {
    let e: Engine;
    let t: number;
    let s: number;
    beforeAll(async () => {
      e = await countingEngine(kind);
      t = chain(e, N);
      s = e.attachSummary(t, 1, 99_000, 500, NORMAL);
    });

    it("a summarized walk of 100 visits 100 nodes; one of the whole path visits its 1,001 entries", () => {
      e.resetVisited();
      expect(summarized(e, t, N - 1, 100)).toEqual(Array.from({ length: 100 }, (_, i) => N - 100 + i));
      expect(e.visited).toBe(100);
      e.resetVisited();
      const all = summarized(e, t, N - 1);
      expect(all.slice(0, 3)).toEqual([0, s, 99_001]);
      expect(all.length).toBe(1 + 1 + 999);
      expect(e.visited).toBe(all.length);
    });

    it("selections visit O(kept): visited <= 4 * kept + 10", () => {
      for (const [budget, max] of [
        [1000, 100],
        [100_000, 0],
        [2 ** 31 - 1, 0],
        [600, 0],
      ] as const) {
        e.resetVisited();
        const sel = e.select(t, N - 1, budget, max);
        expect(sel.fits).toBe(true);
        expect(e.visited, `budget ${budget}, maxMessages ${max}`).toBeLessThanOrEqual(4 * sel.ids.length + 10);
      }
      const whole = e.select(t, N - 1, 2 ** 31 - 1, 0);
      expect(whole.ids.length).toBe(1001);
      expect(whole.ids[1]).toBe(s);
      expect(whole.evicted).toBe(0);
    });

    it("from a head whose turn the summary would hide (99,001 answers 99,000, the run's last): originals, O(W) still", () => {
      e.resetVisited();
      expect(summarized(e, t, 99_001, 100)).toEqual(Array.from({ length: 100 }, (_, i) => 98_902 + i));
      expect(e.visited).toBe(100);
      for (const [budget, max] of [
        [1000, 100],
        [1000, 0],
        [600, 0],
      ] as const) {
        e.resetVisited();
        const sel = e.select(t, 99_001, budget, max);
        expect(sel.fits).toBe(true);
        expect(Array.from(sel.ids)).toContain(99_000); // the turn's user message, forced
        expect(sel.ids).not.toContain(s);
        expect(e.visited, `budget ${budget}, maxMessages ${max}`).toBeLessThanOrEqual(4 * sel.ids.length + 10);
      }
    });

    it("a summary of that summary crosses it in one step; walks after it stay O(W)", () => {
      const outer = e.attachSummary(t, 0, 99_500, 800, NORMAL);
      e.resetVisited();
      expect(summarized(e, t, N - 1, 1000)[0]).toBe(outer);
      expect(e.visited).toBe(500);
      expect(walkIds(e, t, 99_000, 3)).toEqual([98_998, 98_999, 99_000]); // the originals stay
    });
  });
});

describe("attachSummary when memory cannot grow (WASM: the JS engine has no cap)", () => {
  it("throws OUT_OF_MEMORY and changes nothing", async () => {
    const small = await makeEngine("wasm", { maxMemoryMB: 1 });
    const t = small.createTree();
    let n = 0;
    expectThrowCode(() => {
      for (; n < 1_000_000; n++) small.append(t, n - 1, 1, n % 2 ? ASSISTANT : USER, NORMAL, 0);
    }, "OUT_OF_MEMORY");
    expectThrowCode(() => small.attachSummary(t, 0, n - 3, 5, NORMAL), "OUT_OF_MEMORY");
    expect(small.size(t)).toBe(n);
    expect(summarized(small, t, n - 1, 3)).toEqual([n - 3, n - 2, n - 1]);
    expect(small.leaves(t)).toEqual([n - 1]);
  });
});
