// The recall policy on random conversations (fast-check): both engines choose the same
// exchanges, and what comes back holds the rules whatever the input.
import fc from "fast-check";
import { expect, it } from "vitest";
import { EmbeddingIndex } from "../../src/recall/embedding-index.js";
import { recallExchanges, type RecallMessage } from "../../src/recall/policy.js";
import { ENGINES, makeEngine } from "../helpers.js";

const DIM = 8;
const ROLES = ["user", "assistant", "assistant", "tool", "system"] as const;

/** A random conversation tree: parents earlier, tool messages in the unit of an assistant before them when one exists. */
const conversation = fc.array(
  fc.record({ parent: fc.nat(), role: fc.constantFrom(...ROLES), summary: fc.boolean(), vector: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: DIM, maxLength: DIM }) }),
  { minLength: 20, maxLength: 80 },
);

it("random trees: whole exchanges, nothing from the window, no summaries, same on both engines", async () => {
  const reasons = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      conversation,
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: DIM, maxLength: DIM }).filter((q) => q.some((x) => x !== 0)),
      fc.record({ prompts: fc.nat(2), answersPerPrompt: fc.nat(4), recent: fc.nat(6), minScore: fc.constantFrom(undefined, -1, 0, 0.5) }),
      fc.array(fc.nat(100), { maxLength: 10 }),
      async (raw, query, options, exclude) => {
        const messages: RecallMessage[] = [];
        let lastAssistant = -1;
        raw.forEach((m, key) => {
          const parent = key === 0 ? -1 : m.parent % (key + 1) === key ? -1 : m.parent % key;
          const kind = m.summary && m.role === "assistant" && key % 5 === 0 ? ("summary" as const) : undefined;
          const msg: RecallMessage = { key, parent, role: m.role, ...(kind ? { kind } : {}) };
          if (m.role === "tool" && lastAssistant >= 0) msg.unit = lastAssistant;
          if (m.role === "assistant" && !kind) lastAssistant = key;
          messages.push(msg);
        });
        const results = [];
        for (const kind of ENGINES) {
          const engine = await makeEngine(kind);
          const prompts = EmbeddingIndex.create(engine, { dimension: DIM });
          const answers = EmbeddingIndex.create(engine, { dimension: DIM, quantized: true });
          const of = (role: string) => messages.filter((m) => m.role === role);
          prompts.add(of("user").map((m) => m.key), of("user").map((m) => raw[m.key]!.vector));
          answers.add(of("assistant").map((m) => m.key), of("assistant").map((m) => raw[m.key]!.vector));
          results.push(recallExchanges({ messages, prompts, answers, query }, { ...options, exclude }));
        }
        expect(results[0]).toEqual(results[1]);
        const r = results[0]!;
        const byKey = new Map(messages.map((m) => [m.key, m]));
        const excluded = new Set(exclude);
        const seen = new Set<number>();
        for (const e of r.exchanges) {
          expect(byKey.get(e.start)!.role).toBe("user");
          for (const key of e.keys) {
            expect(excluded.has(key)).toBe(false);
            expect(byKey.get(key)!.kind).not.toBe("summary");
            expect(seen.has(key)).toBe(false); // an exchange comes once
            seen.add(key);
          }
          if (e.score !== null && options.minScore !== undefined) expect(e.score).toBeGreaterThanOrEqual(Math.fround(options.minScore));
        }
        // A tool unit is never split: its assistant message and its results come together or not at all.
        for (const m of messages) if (m.unit !== undefined && m.unit !== m.key) expect(seen.has(m.key)).toBe(seen.has(m.unit));
        expect(r.exchanges.filter((e) => e.reason === "prompt").length).toBeLessThanOrEqual(options.prompts);
        expect(r.exchanges.filter((e) => e.reason === "recent").length).toBeLessThanOrEqual(options.recent);
        expect(r.messages.map((m) => m.key)).toEqual(r.exchanges.flatMap((e) => e.keys));
        for (const e of r.exchanges) reasons.add(e.reason);
      },
    ),
    { numRuns: 80 },
  );
  expect([...reasons].sort()).toEqual(["prompt", "recent", "similar"]); // the runs exercised every part
});
