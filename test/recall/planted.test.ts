// A fact stated early in a long conversation (thousands of turns) comes back for a question
// asked in other words, through the whole path the Chat will use: RecallIndex with the
// built-in embedder, on both engines, exact and quantized.
import { describe, expect, it } from "vitest";
import { RecallIndex } from "../../src/recall/memory.js";
import type { RecallMessage } from "../../src/recall/policy.js";
import { forEachEngine, makeEngine } from "../helpers.js";
import { FACTS, plant, syntheticExchanges } from "./eval-set.js";
import { recallQuality } from "./eval/planted.js";

const EXCHANGES = 3000;

forEachEngine((kind) => {
  describe.each([false, true])("quantized: %s", (quantized) => {
    it(`recalls a fact planted at exchange 40 of ${EXCHANGES}`, async () => {
      const fact = FACTS[0]!; // "My sister Lucinda just moved to Reykjavik ..." / "Which city did my sister relocate to?"
      const { exchanges } = plant(syntheticExchanges(EXCHANGES), EXCHANGES, [], 1);
      exchanges[40] = [fact.fact, "Got it, I'll keep that in mind."];
      const messages: RecallMessage[] = [];
      const items = exchanges.flatMap(([user, assistant], e) => [
        { key: 2 * e, role: "user" as const, content: user },
        { key: 2 * e + 1, role: "assistant" as const, content: assistant },
      ]);
      items.forEach((item) => messages.push({ key: item.key, parent: item.key - 1, role: item.role }));
      const memory = RecallIndex.create(await makeEngine(kind), { quantized });
      await memory.add(items);
      expect(memory.prompts.size).toBe(EXCHANGES);
      const window = messages.slice(-40).map((m) => m.key);
      const r = await memory.recall(fact.question, messages, { exclude: window });
      const planted = r.exchanges.find((e) => e.start === 80);
      expect(planted?.reason).toBe("prompt");
      expect(planted?.keys).toEqual([80, 81]);
      expect(r.messages.some((m) => window.includes(m.key))).toBe(false);
    });
  });
});

describe("the evaluation set (test/recall/eval/planted.ts; bench/recall-quality.ts has the newer suite)", () => {
  it("the built-in embedder finds at least half the planted facts in its top 5 among 1000 synthetic exchanges", async () => {
    const [row] = await recallQuality(true);
    expect(row!["recall@5"]).toBeGreaterThanOrEqual(0.5);
    expect(row!["recall@1"]).toBeLessThanOrEqual(row!["recall@5"] as number);
  });
});
