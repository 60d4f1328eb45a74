// Seed 004's sliding window in the engine (windowAdd and friends), on both engines, against a
// reference: a plain array in arrival order. Adding a message of t tokens to a window of max:
// refuse it (nothing evicted) when t > max; else, while the total plus t exceeds max, evict
// the oldest message of the lowest priority present, with its whole tool unit (the assistant
// message with the calls and every result of it); if that evicted the unit the new message was
// to join, refuse it (the evictions stand); else append it.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Engine, EngineKind } from "../../src/engine/index.js";
import { REJECTED_ORPHANED, REJECTED_TOO_LARGE } from "../../src/engine/types.js";
import { ENGINES, forEachEngine, makeEngine } from "../helpers.js";

interface RefMessage {
  id: number;
  tokens: number;
  priority: number;
  /** Id of the assistant message whose unit this tool result belongs to, or -1. */
  unit: number;
}

class RefWindow {
  messages: RefMessage[] = [];
  constructor(readonly max: number) {}

  get total(): number {
    return this.messages.reduce((s, m) => s + m.tokens, 0);
  }

  /** Returns "added" | "too-large" | "orphaned" and the evicted ids, in eviction order. */
  add(m: RefMessage): { status: "added" | "too-large" | "orphaned"; evicted: number[] } {
    if (m.tokens > this.max) return { status: "too-large", evicted: [] };
    const evicted: number[] = [];
    const before = this.messages;
    let orphaned = false;
    while (this.total + m.tokens > this.max) {
      const lowest = Math.min(...this.messages.map((x) => x.priority));
      const victim = this.messages.find((x) => x.priority === lowest)!;
      const head = victim.unit >= 0 ? victim.unit : victim.id;
      const gone = this.messages.filter((x) => x.id === head || x.unit === head);
      for (const g of gone) {
        evicted.push(g.id);
        if (g.id === m.unit) orphaned = true;
      }
      this.messages = this.messages.filter((x) => !gone.includes(x));
    }
    // A tool result whose own unit would have to go is refused, and nothing is evicted.
    if (orphaned) {
      this.messages = before;
      return { status: "orphaned", evicted: [] };
    }
    this.messages.push(m);
    return { status: "added", evicted };
  }
}

interface Add {
  tokens: number;
  prio: number;
  kind: number; // < 30: an assistant message with calls; < 70 and a unit open: a tool result of it
}

const add: fc.Arbitrary<Add> = fc.record({
  tokens: fc.nat({ max: 60 }),
  prio: fc.nat({ max: 3 }),
  kind: fc.nat({ max: 99 }),
});

/** Runs the same adds on an engine and the reference; returns the engine's slots for a cross-engine check. */
function run(e: Engine, max: number, adds: Add[]): { slots: number[]; evicted: number[][] } {
  const w = e.createWindow(max);
  const ref = new RefWindow(max);
  const idOfSlot = new Map<number, number>();
  const slotOfId = new Map<number, number>();
  const trace = { slots: [] as number[], evicted: [] as number[][] };
  let open = -1; // id of the assistant message whose unit is open (the newest message, or its results)
  adds.forEach((a, id) => {
    let unit = -1;
    let priority = a.prio;
    const live = open >= 0 && ref.messages.some((x) => x.id === open);
    if (live && a.kind >= 30 && a.kind < 70) {
      unit = open;
      priority = ref.messages.find((x) => x.id === open)!.priority; // a result takes its call's priority
    }
    const expected = ref.add({ id, tokens: a.tokens, priority, unit });
    const { slot, evicted } = e.windowAdd(w, a.tokens, priority, unit >= 0 ? slotOfId.get(unit)! : -1);
    const evictedIds = Array.from(evicted, (s) => idOfSlot.get(s)!);
    trace.slots.push(slot);
    trace.evicted.push(Array.from(evicted));
    for (const s of evicted) {
      slotOfId.delete(idOfSlot.get(s)!);
      idOfSlot.delete(s);
    }
    expect(evictedIds).toEqual(expected.evicted);
    if (expected.status === "too-large") expect(slot).toBe(REJECTED_TOO_LARGE);
    else if (expected.status === "orphaned") expect(slot).toBe(REJECTED_ORPHANED);
    else {
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(idOfSlot.has(slot), `slot ${slot} is still in use`).toBe(false);
      idOfSlot.set(slot, id);
      slotOfId.set(id, slot);
    }
    if (expected.status === "added" && unit < 0) open = a.kind < 30 ? id : -1;
    if (expected.status === "orphaned") open = -1;
    expect(Array.from(e.windowSlots(w), (s) => idOfSlot.get(s))).toEqual(ref.messages.map((x) => x.id));
    expect(e.windowTokens(w)).toBe(ref.total);
    expect(e.windowCount(w)).toBe(ref.messages.length);
    expect(e.windowTokens(w)).toBeLessThanOrEqual(max);
  });
  e.dropWindow(w);
  return trace;
}

describe("windowAdd: both engines against the reference", () => {
  const engines = {} as Record<EngineKind, Engine>;
  beforeAll(async () => {
    for (const k of ENGINES) engines[k] = await makeEngine(k);
  });

  it("same kept messages, evictions, refusals and slots on random adds (with tool units)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.array(add, { minLength: 1, maxLength: 120 }), (max, adds) => {
        const [a, b] = ENGINES.map((k) => run(engines[k], max, adds));
        expect(a).toEqual(b); // identical slots and eviction order, slot for slot
      }),
      { numRuns: 300 },
    );
  });

  it("windows grow past their first block (16 slots) and reuse freed slots and handles", () => {
    fc.assert(
      fc.property(
        fc.array(add, { minLength: 100, maxLength: 600 }),
        fc.integer({ min: 500, max: 5000 }),
        (adds, max) => {
          const [a, b] = ENGINES.map((k) => run(engines[k], max, adds));
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 25 },
    );
  });

  // Counts reach the 2^30 cap: the window's total plus a new message passes 2^31, which a
  // 32-bit sum would wrap. The reference adds plain numbers (exact far beyond that).
  const huge: fc.Arbitrary<Add> = fc.record({
    tokens: fc.oneof(
      fc.constantFrom(2 ** 30, 2 ** 30 - 1, 2 ** 29, 2 ** 29 + 1, 0),
      fc.integer({ min: 2 ** 28, max: 2 ** 30 }),
      fc.nat({ max: 60 }),
    ),
    prio: fc.nat({ max: 3 }),
    kind: fc.nat({ max: 99 }),
  });
  it("token counts near the 2^30 cap: both engines agree with the exact reference", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(2 ** 30), fc.integer({ min: 2 ** 29, max: 2 ** 30 })),
        fc.array(huge, { minLength: 1, maxLength: 60 }),
        (max, adds) => {
          const [a, b] = ENGINES.map((k) => run(engines[k], max, adds));
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 200 },
    );
  });
});

forEachEngine((kind) => {
  describe("windowAdd: fixed cases", () => {
    let e: Engine;
    beforeAll(async () => {
      e = await makeEngine(kind);
    });

    const slotsOf = (w: number) => Array.from(e.windowSlots(w));

    it("a window of 2^30 given two 2^30-token messages holds the second, exactly 2^30 tokens", () => {
      const w = e.createWindow(2 ** 30);
      const first = e.windowAdd(w, 2 ** 30, 1, -1).slot;
      const { slot, evicted } = e.windowAdd(w, 2 ** 30, 1, -1);
      expect(Array.from(evicted)).toEqual([first]);
      expect(Array.from(e.windowSlots(w))).toEqual([slot]);
      expect(e.windowTokens(w)).toBe(2 ** 30);
      expect(e.windowCount(w)).toBe(1);
      // making room for a tool result near the cap would take its own unit: refused, nothing evicted
      const call = e.windowAdd(w, 2 ** 29, 1, -1);
      expect(Array.from(call.evicted)).toEqual([slot]);
      expect(e.windowAdd(w, 2 ** 30, 1, call.slot).slot).toBe(REJECTED_ORPHANED);
      expect(e.windowTokens(w)).toBe(2 ** 29);
      e.dropWindow(w);
    });

    it("a message larger than the window is refused and nothing is evicted", () => {
      const w = e.createWindow(10);
      expect(e.windowAdd(w, 6, 1, -1).slot).toBe(0);
      const r = e.windowAdd(w, 11, 3, -1);
      expect(r.slot).toBe(REJECTED_TOO_LARGE);
      expect(Array.from(r.evicted)).toEqual([]);
      expect(e.windowTokens(w)).toBe(6);
      expect(e.windowAdd(w, 10, 0, -1).slot).toBeGreaterThanOrEqual(0); // exactly the window: fits alone
      expect(e.windowCount(w)).toBe(1);
      e.dropWindow(w);
    });

    it("evicts the lowest priority first, the oldest first within it", () => {
      const w = e.createWindow(10);
      const s = [
        e.windowAdd(w, 2, 2, -1),
        e.windowAdd(w, 2, 0, -1),
        e.windowAdd(w, 2, 1, -1),
        e.windowAdd(w, 2, 0, -1),
        e.windowAdd(w, 2, 3, -1),
      ].map((r) => r.slot);
      expect(slotsOf(w)).toEqual(s);
      const r1 = e.windowAdd(w, 3, 1, -1); // needs 3: evicts both LOW (oldest first)
      expect(Array.from(r1.evicted)).toEqual([s[1], s[3]]);
      const r2 = e.windowAdd(w, 4, 1, -1); // needs 3 more: the oldest NORMAL, then the next NORMAL
      expect(Array.from(r2.evicted)).toEqual([s[2], r1.slot]);
      expect(e.windowTokens(w)).toBe(8);
      const r3 = e.windowAdd(w, 10, 0, -1); // the newest message gets in even if it evicts CRITICAL ones
      expect(Array.from(r3.evicted)).toEqual([r2.slot, s[0], s[4]]);
      expect(slotsOf(w)).toEqual([r3.slot]);
      e.dropWindow(w);
    });

    it("evicting a tool unit takes the assistant message and all its results; a result whose call left is refused", () => {
      const w = e.createWindow(12);
      const a = e.windowAdd(w, 3, 1, -1).slot; // assistant with calls
      const r1 = e.windowAdd(w, 2, 1, a).slot;
      const r2 = e.windowAdd(w, 2, 1, a).slot;
      const u = e.windowAdd(w, 2, 2, -1).slot;
      expect(slotsOf(w)).toEqual([a, r1, r2, u]);
      const big = e.windowAdd(w, 5, 2, -1); // 9 + 5 > 12: the NORMAL unit leaves whole
      expect(Array.from(big.evicted)).toEqual([a, r1, r2]);
      expect(slotsOf(w)).toEqual([u, big.slot]);
      // a result joining a unit that making room would evict: refused, nothing evicted
      const w2 = e.createWindow(6);
      const a2 = e.windowAdd(w2, 3, 0, -1).slot;
      const res = e.windowAdd(w2, 4, 0, a2);
      expect(res.slot).toBe(REJECTED_ORPHANED);
      expect(Array.from(res.evicted)).toEqual([]);
      expect(e.windowCount(w2)).toBe(1);
      e.dropWindow(w);
      e.dropWindow(w2);
    });

    it("dropped windows' handles are reused and start empty", () => {
      const w = e.createWindow(5);
      e.windowAdd(w, 5, 1, -1);
      e.dropWindow(w);
      const w2 = e.createWindow(7);
      expect(w2).toBe(w);
      expect(e.windowCount(w2)).toBe(0);
      expect(e.windowTokens(w2)).toBe(0);
      expect(e.windowAdd(w2, 7, 1, -1).slot).toBeGreaterThanOrEqual(0);
      e.dropWindow(w2);
    });
  });
});
