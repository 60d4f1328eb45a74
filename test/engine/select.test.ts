// Budgeted selection (issue 3, seed 004's priorities on seed 000's tree): engine.select on both
// engines, held to a brute-force reference of the rules in assembly/select.ts's header, written
// here over plain arrays and the whole root -> head path (no chains, no linked lists):
//
//   forced:  every CRITICAL message of the branch (not in an incomplete tool unit), and the
//            newest user message of the branch, both from anywhere on it; fits = forced <= budget.
//   levels:  HIGH, then NORMAL, then LOW; each walks the horizon newest first and keeps its own
//            messages (whole tool units) while they fit. It stops at its first message that does
//            not fit, and at the first more important message that an earlier level dropped.
//   units:   an assistant message with tool calls and the tool results after it; a unit whose
//            newest result does not answer the last call is incomplete and never kept. A unit
//            that the maxMessages horizon cuts is outside it, and so is everything older.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Engine, EngineKind } from "../../src/engine/index.js";
import { FLAG_TOOL_CALLS, FLAG_UNIT_END, type Selection } from "../../src/engine/types.js";
import { ENGINES, forEachEngine, makeEngine } from "../helpers.js";
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
  buildTree,
  pathIds,
  plain,
  reference,
  step,
  unitsOf,
  type Node,
} from "./reference.js";

/**
 * The stated guarantees, checked directly on a selection (independently of the reference):
 * budget, order, branch, CRITICAL, newest user turn, priority order, tool units, no leading tool result.
 */
function checkInvariants(nodes: Node[], head: number, budget: number, maxMessages: number, s: Selection): void {
  const ids = pathIds(nodes, head);
  const path = ids.map((id) => nodes[id]!);
  const n = path.length;
  const lo = maxMessages > 0 && maxMessages <= n - 1 ? n - maxMessages : 0;
  const units = unitsOf(path);
  const kept = Array.from(s.ids);
  if (!s.fits) {
    expect(kept).toEqual([]);
    expect(s.forcedTokens).toBeGreaterThan(budget);
    return;
  }
  expect(s.keptTokens).toBeLessThanOrEqual(budget);
  expect(s.forcedTokens).toBeLessThanOrEqual(s.keptTokens);
  // ascending, on the branch, tokens add up
  for (let i = 1; i < kept.length; i++) expect(kept[i]!).toBeGreaterThan(kept[i - 1]!);
  const index = new Map(ids.map((id, i) => [id, i]));
  for (const id of kept) expect(index.has(id), `kept ${id} is not on the branch`).toBe(true);
  expect(kept.reduce((sum, id) => sum + nodes[id]!.tokens, 0)).toBe(s.keptTokens);
  const keptIdx = new Set(kept.map((id) => index.get(id)!));
  // every CRITICAL message of the branch (outside incomplete units)
  path.forEach((m, i) => {
    if (m.priority === CRITICAL && (units[i] === null || units[i]!.complete))
      expect(keptIdx.has(i), `CRITICAL ${ids[i]} dropped`).toBe(true);
  });
  // the newest user message of the branch
  let user = -1;
  for (let i = n - 1; i >= 0; i--)
    if (path[i]!.role === USER) {
      user = i;
      break;
    }
  if (user >= 0) expect(keptIdx.has(user), `newest user turn ${ids[user]} dropped`).toBe(true);
  // tool units whole; incomplete ones never
  for (const i of keptIdx) {
    const u = units[i];
    if (!u) continue;
    expect(u.complete, `message ${ids[i]} of an incomplete tool unit kept`).toBe(true);
    for (let k = u.start; k <= u.end; k++) expect(keptIdx.has(k), `tool unit of ${ids[i]} kept in part`).toBe(true);
  }
  // never starts with a tool result
  if (kept.length > 0) expect(nodes[kept[0]!]!.role).not.toBe(TOOL);
  // priority order: a dropped (considerable) message d outranks or ties only newer kept messages
  for (let d = lo; d < n; d++) {
    if (keptIdx.has(d) || (units[d] && !units[d]!.complete)) continue;
    for (const m of keptIdx) {
      if (m === user || path[m]!.priority === CRITICAL) continue;
      if (path[m]!.priority <= path[d]!.priority) {
        expect(
          m,
          `kept ${ids[m]} (priority ${path[m]!.priority}) is older than dropped ${ids[d]} (priority ${path[d]!.priority})`,
        ).toBeGreaterThan(d);
      }
    }
  }
}

// ---- random trees shaped like chats: tool results follow their call and share its priority ----

function load(e: Engine, nodes: Node[]): number {
  const t = e.createTree();
  for (const m of nodes) e.append(t, m.parent, m.tokens, m.role, m.priority, m.flags);
  return t;
}

describe("select: both engines against the reference on random chat-shaped trees", () => {
  const engines: Record<EngineKind, Engine> = {} as Record<EngineKind, Engine>;
  beforeAll(async () => {
    for (const kind of ENGINES) engines[kind] = await makeEngine(kind);
  });

  it("identical ids, keptTokens, forcedTokens, evicted and fits; every guarantee holds", () => {
    let fitted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 70 }),
        fc.array(
          fc.record({
            head: fc.nat(),
            budget: fc.nat({ max: 700 }),
            max: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
          }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        (steps, calls) => {
          const nodes = buildTree(steps);
          const trees = Object.fromEntries(ENGINES.map((k) => [k, load(engines[k], nodes)])) as Record<
            EngineKind,
            number
          >;
          try {
            for (const c of calls) {
              const head = c.head % 3 === 0 ? nodes.length - 1 : c.head % nodes.length;
              const ref = reference(nodes, head, c.budget, c.max);
              const results = ENGINES.map((k) => plain(engines[k].select(trees[k], head, c.budget, c.max)));
              expect(results[0]).toEqual(results[1]); // wasm === js, field for field
              expect(results[0]).toEqual(ref);
              // The same selection with its ids left in the engine (read before the next call).
              for (const k of ENGINES)
                expect(plain(engines[k].selectView(trees[k], head, c.budget, c.max))).toEqual(ref);
              for (const k of ENGINES)
                checkInvariants(nodes, head, c.budget, c.max, engines[k].select(trees[k], head, c.budget, c.max));
              if (ref.fits) fitted++;
              else refused++;
            }
          } finally {
            for (const k of ENGINES) engines[k].dropTree(trees[k]);
          }
        },
      ),
      { numRuns: 400 },
    );
    expect(fitted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(5);
  });

  it("linear chats with long histories and tight budgets (many evictions) agree too", () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 100, maxLength: 400 }),
        fc.nat({ max: 400 }),
        fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 })),
        (steps, budget, max) => {
          const nodes = buildTree(steps.map((s) => ({ ...s, back: Math.min(s.back, 79) }))); // one chain
          const head = nodes.length - 1;
          const ref = reference(nodes, head, budget, max);
          for (const k of ENGINES) {
            const t = load(engines[k], nodes);
            expect(plain(engines[k].select(t, head, budget, max))).toEqual(ref);
            engines[k].dropTree(t);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("select: the WASM tight loop over plain messages against the general loop", () => {
  // assembly/select.ts walks runs of plain messages (no tool call nor result, no summary, of the
  // level being walked, not the forced user turn) in a tight loop when there is no maxMessages
  // horizon and no covered turn; the JS engine walks every entry through its general loop. Plain
  // chats at every budget take that loop for most of their entries, leave it at each message of
  // another kind, and stop in it where a message does not fit: both engines must agree with each
  // other and with the reference, field for field. Side branches make the chains step over ids
  // (a chain's next entry is then not the node made just before it).
  const engines: Record<EngineKind, Engine> = {} as Record<EngineKind, Engine>;
  beforeAll(async () => {
    for (const kind of ENGINES) engines[kind] = await makeEngine(kind);
  });

  /** A chat of `n` messages on one branch, with a sibling left behind every `side` messages. */
  type Kind = Pick<Node, "role" | "priority" | "flags">;
  function plainChat(n: number, side: number, kinds: (i: number) => Kind): { nodes: Node[]; head: number } {
    const nodes: Node[] = [];
    let head = -1;
    for (let i = 0; i < n; i++) {
      const branches = side > 0 && i % side === side - 1 && head >= 0;
      if (branches) nodes.push({ parent: head, tokens: 3, role: ASSISTANT, priority: NORMAL, flags: 0 }); // left behind
      nodes.push({ parent: head, tokens: 1 + ((i * 7) % 11), ...kinds(i) });
      head = nodes.length - 1;
    }
    return { nodes, head };
  }

  const levels = [LOW, NORMAL, HIGH, NORMAL, NORMAL, HIGH, LOW, NORMAL];
  const shapes: [string, (i: number) => Kind][] = [
    ["all NORMAL", (i) => ({ role: i % 2 === 0 ? USER : ASSISTANT, priority: NORMAL, flags: 0 })],
    [
      "LOW, NORMAL and HIGH mixed",
      (i) => ({ role: i % 2 === 0 ? USER : ASSISTANT, priority: levels[i % levels.length]!, flags: 0 }),
    ],
    [
      "mixed, with CRITICAL system messages and tool units among them",
      (i) =>
        i % 13 === 3
          ? { role: ASSISTANT, priority: levels[i % levels.length]!, flags: FLAG_TOOL_CALLS }
          : i % 13 === 4
            ? { role: TOOL, priority: levels[(i - 1) % levels.length]!, flags: FLAG_UNIT_END }
            : i % 17 === 5
              ? { role: SYSTEM, priority: CRITICAL, flags: 0 }
              : { role: i % 2 === 0 ? USER : ASSISTANT, priority: levels[i % levels.length]!, flags: 0 },
    ],
  ];

  for (const [name, kinds] of shapes) {
    for (const side of [0, 4]) {
      it(`${name}${side ? ", with side branches" : ""}: every budget, the head a user turn or an answer`, () => {
        const { nodes, head } = plainChat(160, side, kinds);
        const total = nodes.reduce((sum, m) => sum + m.tokens, 0);
        for (const at of [head, nodes[head]!.parent]) {
          const trees = Object.fromEntries(ENGINES.map((k) => [k, load(engines[k], nodes)])) as Record<
            EngineKind,
            number
          >;
          try {
            for (let budget = 0; budget <= total + 5; budget += 3) {
              const ref = reference(nodes, at, budget, 0);
              for (const k of ENGINES)
                expect(plain(engines[k].select(trees[k], at, budget, 0)), `${k}, budget ${budget}`).toEqual(ref);
            }
          } finally {
            for (const k of ENGINES) engines[k].dropTree(trees[k]);
          }
        }
      });
    }
  }
});

describe("select: token counts near the 2^30 cap (sums past 2^31)", () => {
  const engines: Record<EngineKind, Engine> = {} as Record<EngineKind, Engine>;
  beforeAll(async () => {
    for (const kind of ENGINES) engines[kind] = await makeEngine(kind);
  });

  const big = step.chain((s) =>
    fc
      .oneof(
        fc.constantFrom(2 ** 30, 2 ** 30 - 1, 2 ** 29, 2 ** 29 + 1, 0),
        fc.integer({ min: 2 ** 27, max: 2 ** 30 }),
        fc.nat({ max: 40 }),
      )
      .map((tokens) => ({ ...s, tokens })),
  );
  it("both engines equal the exact reference, field for field", () => {
    let fitted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(big, { minLength: 1, maxLength: 40 }),
        fc.array(
          fc.record({
            head: fc.nat(),
            budget: fc.oneof(fc.constant(2 ** 31 - 1), fc.constant(2 ** 30), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
            max: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (steps, calls) => {
          const nodes = buildTree(steps);
          const trees = Object.fromEntries(ENGINES.map((k) => [k, load(engines[k], nodes)])) as Record<
            EngineKind,
            number
          >;
          try {
            for (const c of calls) {
              const head = c.head % 3 === 0 ? nodes.length - 1 : c.head % nodes.length;
              const ref = reference(nodes, head, c.budget, c.max);
              for (const k of ENGINES) expect(plain(engines[k].select(trees[k], head, c.budget, c.max))).toEqual(ref);
              for (const k of ENGINES)
                expect(plain(engines[k].selectView(trees[k], head, c.budget, c.max))).toEqual(ref);
              if (ref.fits) fitted++;
              else refused++;
            }
          } finally {
            for (const k of ENGINES) engines[k].dropTree(trees[k]);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(fitted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });
});

describe("swapTokens: a view's counts for a selection, then the tree's own back", () => {
  const engines: Record<EngineKind, Engine> = {} as Record<EngineKind, Engine>;
  beforeAll(async () => {
    for (const kind of ENGINES) engines[kind] = await makeEngine(kind);
  });

  it("both engines select on the swapped counts as the reference does on a tree holding them, and restore every count (near the 2^30 cap too)", () => {
    const tokens = fc.oneof(fc.constantFrom(2 ** 30, 2 ** 30 - 1, 2 ** 29, 0, 1), fc.nat({ max: 60 }));
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 50 }),
        fc.array(fc.record({ at: fc.nat(), tokens }), { maxLength: 20 }),
        fc.record({
          head: fc.nat(),
          budget: fc.oneof(fc.constant(2 ** 31 - 1), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.nat({ max: 300 })),
          max: fc.nat({ max: 20 }),
        }),
        (steps, view, c) => {
          const nodes = buildTree(steps);
          const messages = nodes.map((_, i) => i);
          const chosen = [...new Map(view.map((v) => [messages[v.at % messages.length]!, v.tokens])).entries()];
          const viewed = nodes.map((n, i) => ({ ...n, tokens: chosen.find(([id]) => id === i)?.[1] ?? n.tokens }));
          const head = c.head % nodes.length;
          const ref = reference(viewed, head, c.budget, c.max);
          for (const k of ENGINES) {
            const e = engines[k];
            const t = load(e, nodes);
            const ids = Int32Array.from(chosen, ([id]) => id);
            const counts = Int32Array.from(chosen, ([, n]) => n);
            e.swapTokens(t, ids, counts);
            expect(plain(e.select(t, head, c.budget, c.max)), k).toEqual(ref);
            for (const [id, n] of chosen) expect(e.tokens(t, id)).toBe(n);
            e.swapTokens(t, ids, counts);
            expect(
              nodes.map((_, i) => e.tokens(t, i)),
              k,
            ).toEqual(nodes.map((n) => n.tokens));
            expect(Array.from(counts)).toEqual(chosen.map(([, n]) => n));
            e.dropTree(t);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---- fixed cases, on each engine ----

/** A linear chain; returns the tree. Messages: [tokens, role, priority, flags]. */
function chain(e: Engine, messages: [number, number, number, number?][]): number {
  const t = e.createTree();
  messages.forEach(([tokens, role, priority, flags = 0], i) => e.append(t, i - 1, tokens, role, priority, flags));
  return t;
}

const sel = (e: Engine, t: number, head: number, budget: number, max = 0) => plain(e.select(t, head, budget, max));

forEachEngine((kind) => {
  describe("select: fixed cases", () => {
    let e: Engine;
    beforeAll(async () => {
      e = await makeEngine(kind);
    });

    it("everything fits: the whole branch, oldest first", () => {
      const t = chain(e, [
        [5, SYSTEM, CRITICAL],
        [4, USER, NORMAL],
        [6, ASSISTANT, NORMAL],
        [3, USER, NORMAL],
      ]);
      expect(sel(e, t, 3, 100)).toEqual({ fits: true, ids: [0, 1, 2, 3], keptTokens: 18, forcedTokens: 8, evicted: 0 });
    });

    it("ids come out oldest first whether collected in one newest-first run or from several levels", () => {
      // One level (all NORMAL, the head a user turn): collected newest first, reversed.
      const plainChain = chain(
        e,
        Array.from({ length: 301 }, (_, i): [number, number, number] => [
          1 + (i % 7),
          i % 2 === 0 ? USER : ASSISTANT,
          NORMAL,
        ]),
      );
      expect(sel(e, plainChain, 300, 10_000).ids).toEqual(Array.from({ length: 301 }, (_, i) => i));
      // The head an answer: the user turn before it is collected first (forced), then the rest
      // newest first; the user turn moves to its place (the usual shape: merged in O(n)).
      expect(sel(e, plainChain, 299, 10_000).ids).toEqual(Array.from({ length: 300 }, (_, i) => i));
      expect(sel(e, plainChain, 299, 200).ids).toEqual([...sel(e, plainChain, 299, 200).ids].sort((a, b) => a - b));
      // Every level and CRITICAL messages on one branch: collected out of order, sorted.
      const levels = [LOW, NORMAL, HIGH, CRITICAL];
      const mixed = chain(
        e,
        Array.from({ length: 301 }, (_, i): [number, number, number] => [
          1 + (i % 5),
          i % 2 === 0 ? USER : ASSISTANT,
          i === 300 ? NORMAL : levels[(i * 7) % 4]!,
        ]),
      );
      const all = sel(e, mixed, 300, 10_000).ids;
      expect(all).toEqual(Array.from({ length: 301 }, (_, i) => i));
      const some = sel(e, mixed, 300, 400).ids;
      expect(some.length).toBeGreaterThan(50);
      expect(some.length).toBeLessThan(301);
      expect(some).toEqual([...some].sort((a, b) => a - b));
    });

    it("selectView's ids are the engine's until its next call; select's are the caller's", () => {
      const t = chain(
        e,
        Array.from({ length: 40 }, (_, i): [number, number, number] => [
          1 + (i % 5),
          i % 2 === 0 ? USER : ASSISTANT,
          NORMAL,
        ]),
      );
      const view = e.selectView(t, 39, 1_000, 0);
      expect(Array.from(view.ids)).toEqual(Array.from(e.select(t, 39, 1_000, 0).ids));
      expect(Array.from(e.selectView(t, 39, 1_000, 0).ids)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    });

    it("a selection's ids are the caller's: later engine calls leave them as they were (a context keeps them)", () => {
      const t = chain(
        e,
        Array.from({ length: 40 }, (_, i): [number, number, number] => [
          1 + (i % 5),
          i % 2 === 0 ? USER : ASSISTANT,
          NORMAL,
        ]),
      );
      const first = e.select(t, 39, 1_000, 0);
      const kept = Array.from(first.ids);
      expect(kept).toHaveLength(40);
      e.select(t, 20, 30, 0); // another selection, a walk and a window on the same engine
      e.walk(t, 10, 5);
      e.select(t, 39, 12, 0);
      expect(Array.from(first.ids)).toEqual(kept);
    });

    it("a LOW message between kept NORMAL ones and the one that stopped them is still kept when it fits", () => {
      //               0 normal (big)      1 low              2 normal              3 user (head)
      const t = chain(e, [
        [50, ASSISTANT, NORMAL],
        [5, USER, LOW],
        [10, ASSISTANT, NORMAL],
        [10, USER, NORMAL],
      ]);
      expect(sel(e, t, 3, 30).ids).toEqual([1, 2, 3]); // NORMAL stops at 0; LOW fills the room above it
      expect(sel(e, t, 3, 24).ids).toEqual([2, 3]); // no room left for it
      // No LOW message at all: the same selection, the LOW level has nothing to walk.
      const n = chain(e, [
        [50, ASSISTANT, NORMAL],
        [5, USER, NORMAL],
        [10, ASSISTANT, NORMAL],
        [10, USER, NORMAL],
      ]);
      expect(sel(e, n, 3, 30).ids).toEqual([1, 2, 3]);
      expect(sel(e, n, 3, 24).ids).toEqual([2, 3]);
    });

    it("lowest priority goes first, then oldest first within a priority", () => {
      //              0 low        1 normal      2 low         3 normal      4 user (head)
      const t = chain(e, [
        [10, USER, LOW],
        [10, ASSISTANT, NORMAL],
        [10, USER, LOW],
        [10, ASSISTANT, NORMAL],
        [10, USER, NORMAL],
      ]);
      expect(sel(e, t, 4, 50).ids).toEqual([0, 1, 2, 3, 4]);
      expect(sel(e, t, 4, 40).ids).toEqual([1, 2, 3, 4]); // the oldest LOW leaves first
      expect(sel(e, t, 4, 30).ids).toEqual([1, 3, 4]); // then the other LOW
      expect(sel(e, t, 4, 20).ids).toEqual([3, 4]); // then the oldest NORMAL
      expect(sel(e, t, 4, 10).ids).toEqual([4]); // the newest user turn stays
      expect(sel(e, t, 4, 9)).toEqual({ fits: false, ids: [], keptTokens: 0, forcedTokens: 10, evicted: 0 });
    });

    it("a level stops at its first message that does not fit (nothing older of that level is kept)", () => {
      // NORMAL: 1 (2 tokens), 2 (50 tokens), 3 (2 tokens); head 4 (user, 1 token). Budget 10.
      const t = chain(e, [
        [1, USER, NORMAL],
        [2, ASSISTANT, NORMAL],
        [50, USER, NORMAL],
        [2, ASSISTANT, NORMAL],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 4, 10).ids).toEqual([3, 4]); // 1 and 0 would fit but lie past the stop at 2
    });

    it("a dropped HIGH message stops NORMAL and LOW from reaching past it", () => {
      // 0 normal(1) 1 low(1) 2 high(100, dropped) 3 normal(1) 4 user(1)
      const t = chain(e, [
        [1, USER, NORMAL],
        [1, ASSISTANT, LOW],
        [100, ASSISTANT, HIGH],
        [1, ASSISTANT, NORMAL],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 4, 20)).toEqual({ fits: true, ids: [3, 4], keptTokens: 2, forcedTokens: 1, evicted: 3 });
    });

    it("CRITICAL messages are kept from anywhere on the branch, even outside maxMessages", () => {
      const t = chain(e, [
        [5, SYSTEM, CRITICAL],
        [1, USER, NORMAL],
        [1, ASSISTANT, NORMAL],
        [1, USER, NORMAL],
        [1, ASSISTANT, NORMAL],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 5, 100, 2)).toEqual({ fits: true, ids: [0, 4, 5], keptTokens: 7, forcedTokens: 6, evicted: 3 }); // 1 to 3, outside the newest 2
    });

    it("the newest user turn is kept, even when older and more important messages must go", () => {
      const t = chain(e, [
        [3, USER, HIGH],
        [3, ASSISTANT, HIGH],
        [10, USER, LOW],
        [1, ASSISTANT, LOW],
      ]);
      expect(sel(e, t, 3, 11).ids).toEqual([2, 3]);
      expect(sel(e, t, 3, 10).ids).toEqual([2]);
    });

    it("maxMessages: the newest user turn is kept even when it lies past the newest maxMessages", () => {
      const t = chain(e, [
        [50, USER, NORMAL],
        [1, ASSISTANT, NORMAL],
        [1, ASSISTANT, NORMAL],
      ]);
      expect(sel(e, t, 2, 60, 2)).toEqual({ fits: true, ids: [0, 1, 2], keptTokens: 52, forcedTokens: 50, evicted: 0 });
      expect(sel(e, t, 2, 10, 2).fits).toBe(false); // the user turn (50 tokens) does not fit: MESSAGE_TOO_LARGE above
    });

    it("a tool unit is kept or dropped whole; a window never starts with a tool result", () => {
      // 0 user, 1 assistant with 2 calls, 2 result, 3 result (unit end), 4 user (head)
      const t = chain(e, [
        [1, USER, NORMAL],
        [4, ASSISTANT, NORMAL, FLAG_TOOL_CALLS],
        [4, TOOL, NORMAL],
        [4, TOOL, NORMAL, FLAG_UNIT_END],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 4, 14).ids).toEqual([0, 1, 2, 3, 4]);
      expect(sel(e, t, 4, 13).ids).toEqual([1, 2, 3, 4]); // 12 for the unit + 1 for the user
      expect(sel(e, t, 4, 12).ids).toEqual([4]); // the unit does not fit whole: none of it (and 0 lies past the stop)
      expect(sel(e, t, 4, 100).ids).toEqual([0, 1, 2, 3, 4]);
    });

    it("an incomplete tool unit is never sent, and does not stop the level", () => {
      // 1 assistant with 2 calls, one answered (2); then the user moved on (3)
      const t = chain(e, [
        [1, USER, NORMAL],
        [1, ASSISTANT, NORMAL, FLAG_TOOL_CALLS],
        [1, TOOL, NORMAL],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 3, 100)).toEqual({ fits: true, ids: [0, 3], keptTokens: 2, forcedTokens: 1, evicted: 2 });
      // head on the pending result itself: the unit is still incomplete
      expect(sel(e, t, 2, 100).ids).toEqual([0]);
      // calls with no answer on the branch
      expect(sel(e, t, 1, 100).ids).toEqual([0]);
    });

    it("a CRITICAL tool unit is forced whole; an incomplete CRITICAL one is not forced", () => {
      const t = chain(e, [
        [1, USER, NORMAL],
        [5, ASSISTANT, CRITICAL, FLAG_TOOL_CALLS],
        [5, TOOL, CRITICAL, FLAG_UNIT_END],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 3, 11)).toEqual({ fits: true, ids: [1, 2, 3], keptTokens: 11, forcedTokens: 11, evicted: 1 });
      expect(sel(e, t, 3, 10).fits).toBe(false);
      const u = chain(e, [
        [1, USER, NORMAL],
        [5, ASSISTANT, CRITICAL, FLAG_TOOL_CALLS],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, u, 2, 100)).toEqual({ fits: true, ids: [0, 2], keptTokens: 2, forcedTokens: 1, evicted: 1 });
    });

    it("selection follows the branch of the head, not siblings", () => {
      const t = e.createTree();
      e.append(t, -1, 1, USER, NORMAL, 0); // 0
      e.append(t, 0, 1, ASSISTANT, NORMAL, 0); // 1
      e.append(t, 0, 1, ASSISTANT, HIGH, 0); // 2: a regenerated answer
      e.append(t, 2, 1, USER, NORMAL, 0); // 3
      expect(sel(e, t, 3, 100).ids).toEqual([0, 2, 3]);
      expect(sel(e, t, 1, 100).ids).toEqual([0, 1]);
    });

    it("four CRITICAL messages of 2^29 tokens do not fit a 2^30 budget; forcedTokens is exact (2^31)", () => {
      const t = chain(e, [
        [2 ** 29, SYSTEM, CRITICAL],
        [2 ** 29, SYSTEM, CRITICAL],
        [2 ** 29, SYSTEM, CRITICAL],
        [2 ** 29, SYSTEM, CRITICAL],
      ]);
      expect(sel(e, t, 3, 2 ** 30)).toEqual({ fits: false, ids: [], keptTokens: 0, forcedTokens: 2 ** 31, evicted: 0 });
      expect(sel(e, t, 3, 2 ** 31 - 1).fits).toBe(false);
      expect(sel(e, t, 1, 2 ** 30)).toEqual({
        fits: true,
        ids: [0, 1],
        keptTokens: 2 ** 30,
        forcedTokens: 2 ** 30,
        evicted: 0,
      });
    });

    it("a tool unit of 5 * 2^30 tokens is dropped whole, not kept through a sum wrapped to 2^30", () => {
      const t = chain(e, [
        [1, USER, NORMAL],
        [2 ** 30, ASSISTANT, NORMAL, FLAG_TOOL_CALLS],
        [2 ** 30, TOOL, NORMAL],
        [2 ** 30, TOOL, NORMAL],
        [2 ** 30, TOOL, NORMAL],
        [2 ** 30, TOOL, NORMAL, FLAG_UNIT_END],
        [1, USER, NORMAL],
      ]);
      expect(sel(e, t, 6, 2 ** 31 - 1)).toEqual({ fits: true, ids: [6], keptTokens: 1, forcedTokens: 1, evicted: 6 });
    });

    it("a budget of 0 with no user turn and no CRITICAL message keeps nothing and fits", () => {
      const t = chain(e, [
        [1, ASSISTANT, NORMAL],
        [1, ASSISTANT, NORMAL],
      ]);
      expect(sel(e, t, 1, 0)).toEqual({ fits: true, ids: [], keptTokens: 0, forcedTokens: 0, evicted: 2 });
    });

    it("a tool unit cut by the maxMessages horizon is left out whole, with everything older", () => {
      const t = chain(e, [
        [5, USER, NORMAL],
        [5, ASSISTANT, NORMAL, FLAG_TOOL_CALLS],
        [5, TOOL, NORMAL, FLAG_UNIT_END],
        [5, USER, NORMAL],
      ]);
      expect(sel(e, t, 3, 100, 2)).toEqual({ fits: true, ids: [3], keptTokens: 5, forcedTokens: 5, evicted: 3 }); // horizon: 2 and 3
      expect(sel(e, t, 3, 100, 3)).toEqual({ fits: true, ids: [1, 2, 3], keptTokens: 15, forcedTokens: 5, evicted: 1 });
      // a lower level stops there too: nothing older than the cut unit is reached
      const u = chain(e, [
        [5, USER, LOW],
        [5, ASSISTANT, NORMAL, FLAG_TOOL_CALLS],
        [5, TOOL, NORMAL, FLAG_UNIT_END],
        [5, ASSISTANT, LOW],
        [5, USER, NORMAL],
      ]);
      expect(sel(e, u, 4, 100, 3).ids).toEqual([3, 4]);
    });
  });
});

// ---- cost: O(W), counted with engine.visited, never timed ----

const N = 100_000;

forEachEngine((kind) => {
  describe("select cost on a 100,000-message branch", () => {
    let e: Engine;
    beforeAll(async () => {
      e = await countingEngine(kind);
    });

    /** Builds an N-message chain from a generator of [tokens, role, priority, flags]. */
    function big(gen: (i: number) => [number, number, number, number]): number {
      const t = e.createTree();
      for (let i = 0; i < N; i++) {
        const [tokens, role, priority, flags] = gen(i);
        e.append(t, i - 1, tokens, role, priority, flags);
      }
      return t;
    }

    const cases: [string, (i: number) => [number, number, number, number]][] = [
      [
        "alternating user/assistant, mixed priorities, a system prompt at the root",
        (i) => (i === 0 ? [50, SYSTEM, CRITICAL, 0] : [5 + (i % 7), i % 2 ? USER : ASSISTANT, (i * 7919) % 3, 0]),
      ],
      [
        "HIGH messages only at the start (they fit first; the rest is LOW)",
        (i) => [4, i % 2 ? ASSISTANT : USER, i < 10 ? HIGH : LOW, 0],
      ],
      [
        "a huge HIGH message at the start that never fits",
        (i) => [i === 1 ? 1_000_000 : 4, i % 2 ? ASSISTANT : USER, i === 1 ? HIGH : NORMAL, 0],
      ],
      [
        "tool units everywhere (user, assistant with a call, its result)",
        (i) => [
          3,
          [USER, ASSISTANT, TOOL][i % 3]!,
          Math.floor(i / 3) % 2 ? NORMAL : LOW,
          [0, FLAG_TOOL_CALLS, FLAG_UNIT_END][i % 3]!,
        ],
      ],
    ];

    for (const [name, gen] of cases) {
      it(`${name}: visited <= 4 * kept + 10`, () => {
        const t = big(gen);
        for (const budget of [0, 200, 5_000]) {
          for (const max of [0, 1000]) {
            e.resetVisited();
            const s = e.select(t, N - 1, budget, max);
            const kept = s.fits ? s.ids.length : 1;
            expect(e.visited, `budget ${budget}, maxMessages ${max}: ${s.ids.length} kept`).toBeLessThanOrEqual(
              4 * kept + 10,
            );
          }
        }
        e.dropTree(t);
      });
    }

    // one user message, then a long agent run: finding the user turn must not walk the run
    it("an agentic branch (one user message, then 100,000 tool steps): visited <= 4 * kept + 10", () => {
      const t = big((i) =>
        i === 0 ? [5, USER, NORMAL, 0] : [3, i % 2 ? ASSISTANT : TOOL, NORMAL, i % 2 ? FLAG_TOOL_CALLS : FLAG_UNIT_END],
      );
      e.resetVisited();
      const s = e.select(t, N - 2, 200, 0); // head: a tool result that completes its unit
      expect(s.fits).toBe(true);
      expect(e.visited).toBeLessThanOrEqual(4 * s.ids.length + 10);
    });
  });
});
