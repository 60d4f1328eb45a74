// Budgets (issue 3, point 3; seed 001): 90% of the window is effective, split system 25 /
// memory 20 / conversation 40 / input 10 / reserve 5; slices always add up to the effective
// window; overrides per chat and per call must sum to 1.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Loom, budgetFor, type BudgetSplit, type ModelProfile } from "../../src/index.js";
import { DEFAULT_SPLIT, EFFECTIVE_FRACTION } from "../../src/models/budget.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

const PARTS = ["system", "memory", "conversation", "input", "reserve"] as const;

describe("budgetFor", () => {
  it("hands out a budget of its own each time (the default split is computed once per window)", () => {
    const a = budgetFor("gpt-4o");
    a.conversation = 1;
    const b = budgetFor("gpt-4o");
    expect(b).not.toBe(a);
    expect(b.conversation).toBeGreaterThan(1);
    expect(budgetFor("gpt-4o")).toEqual(b);
  });

  it("reproduces seed 001's worked example for llama3.2 exactly", () => {
    expect(budgetFor("llama3.2")).toEqual({
      window: 8_192,
      effective: 7_372,
      system: 1_843,
      memory: 1_474,
      conversation: 2_949,
      input: 737,
      reserve: 369,
    });
  });

  it("seed 001's defaults", () => {
    expect(DEFAULT_SPLIT).toEqual({ system: 0.25, memory: 0.2, conversation: 0.4, input: 0.1, reserve: 0.05 });
    expect(EFFECTIVE_FRACTION).toBe(0.9);
    const b = budgetFor("gpt-4o");
    expect(b.window).toBe(128_000);
    expect(b.effective).toBe(115_200);
    expect(b.system).toBe(28_800);
    expect(b.conversation).toBe(46_080);
  });

  it("a profile object or a prefixed name works like a name", () => {
    const p: ModelProfile = { name: "x", contextWindow: 8_192, sizeClass: "small", tokensPerChar: 0.28 };
    const { window, effective, ...slices } = budgetFor(p);
    expect({ window, effective, ...slices }).toEqual(budgetFor("llama3.2"));
    expect(budgetFor("llama3.2:3b")).toEqual(budgetFor("llama3.2"));
  });

  it("slices always sum to the effective window, each within 1 token of its exact share (random windows and splits)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 4_000_000 }),
        fc.array(fc.nat({ max: 1000 }), { minLength: 5, maxLength: 5 }).filter((w) => w.some((x) => x > 0)),
        fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: undefined }),
        (window, weights, fraction) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          const split = Object.fromEntries(PARTS.map((p, i) => [p, weights[i]! / sum])) as unknown as BudgetSplit;
          const b = budgetFor(
            { name: "r", contextWindow: window, sizeClass: "large", tokensPerChar: 0.25 },
            { budget: split, ...(fraction === undefined ? {} : { effectiveFraction: fraction }) },
          );
          expect(b.window).toBe(window);
          expect(b.effective).toBe(Math.floor(window * (fraction ?? 0.9)));
          expect(PARTS.reduce((s, p) => s + b[p], 0)).toBe(b.effective);
          for (const p of PARTS) {
            expect(Number.isInteger(b[p])).toBe(true);
            expect(b[p]).toBeGreaterThanOrEqual(0);
            expect(Math.abs(b[p] - b.effective * split[p])).toBeLessThan(1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a partial split keeps seed 001's fractions for the parts left out", () => {
    const b = budgetFor("llama3.2", { budget: { system: 0.3, memory: 0.15 } });
    expect(Math.abs(b.system - 7_372 * 0.3)).toBeLessThan(1);
    expect(Math.abs(b.memory - 7_372 * 0.15)).toBeLessThan(1);
    expect(b.conversation).toBe(2_949);
    expect(PARTS.reduce((s, p) => s + b[p], 0)).toBe(7_372);
  });

  it("fractions that do not sum to 1, out of range, or unknown parts -> INVALID_ARGUMENT", () => {
    const bad: unknown[] = [
      { system: 0.3 }, // sums to 1.05
      { system: 0.25, memory: 0.2, conversation: 0.4, input: 0.1, reserve: 0.1 },
      { system: -0.05, memory: 0.3 },
      { system: 1.5, memory: -0.5, conversation: 0, input: 0, reserve: 0 },
      { system: "0.25" },
      { history: 0.1, conversation: 0.3 },
      null,
      "40/60",
    ];
    for (const split of bad)
      expectThrowCode(() => budgetFor("llama3.2", { budget: split as never }), "INVALID_ARGUMENT");
    expectThrowCode(() => budgetFor("llama3.2", { effectiveFraction: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => budgetFor("llama3.2", { effectiveFraction: 1.2 }), "INVALID_ARGUMENT");
    expectThrowCode(() => budgetFor("no-such-model"), "UNKNOWN_MODEL");
  });
});

forEachEngine((engine) => {
  describe("budget overrides per chat and per call", () => {
    const model: ModelProfile = { name: "budget-model", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25 };
    const split = { system: 0.1, memory: 0.1, conversation: 0.6, input: 0.1, reserve: 0.1 };

    it("create({ budget }) applies to every build of the chat", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model, budget: split });
      await chat.append({ role: "user", content: "hi" });
      const ctx = await chat.buildContext();
      expect(ctx.budget).toEqual(budgetFor(model, { budget: split }));
      expect(ctx.usage.limit).toBe(900 - 90);
      await loom.close();
    });

    it("buildContext({ budget }) applies to that call only, over the chat's", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model, budget: split });
      await chat.append({ role: "user", content: "hi" });
      const call = { system: 0.4, memory: 0.1, conversation: 0.3, input: 0.15, reserve: 0.05 };
      expect((await chat.buildContext({ budget: call })).budget).toEqual(budgetFor(model, { budget: call }));
      expect((await chat.buildContext()).budget).toEqual(budgetFor(model, { budget: split }));
      await loom.close();
    });

    it("bad splits -> INVALID_ARGUMENT; no chat created, the chat unchanged", async () => {
      const loom = await Loom.open({ engine });
      const chats = loom.user("u");
      await expectRejectCode(() => chats.create({ model, budget: { system: 0.5 } }), "INVALID_ARGUMENT");
      await expectRejectCode(
        () => chats.create({ model, budget: { ...split, extra: 0 } as never }),
        "INVALID_ARGUMENT",
      );
      expect(await chats.list()).toEqual([]);
      const chat = await chats.create({ model });
      await chat.append({ role: "user", content: "hi" });
      await chat.buildContext();
      const before = await snapshot(chat, chats);
      const stats = chat.stats();
      await expectRejectCode(() => chat.buildContext({ budget: { conversation: 0.9 } }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildContext({ budget: { convo: 0.4 } as never }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildPrompt({ budget: { reserve: 0.5 } }), "INVALID_ARGUMENT");
      expect(await snapshot(chat, chats)).toEqual(before);
      expect(chat.stats()).toEqual(stats);
      await loom.close();
    });
  });
});
