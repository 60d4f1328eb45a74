// Recall on random conversations (fast-check): both engines rank the messages alike, bit for
// bit, and choose the same exchanges; what comes back holds the rules whatever the input.
import fc from "fast-check";
import { expect, it } from "vitest";
import { ExchangeScope } from "../../src/recall/exchanges.js";
import { RecallIndex } from "../../src/recall/memory.js";
import { recallExchanges, type RecallMessage } from "../../src/recall/policy.js";
import { ENGINES, makeEngine } from "../helpers.js";

const ROLES = ["user", "assistant", "assistant", "tool", "system"] as const;
const WORDS =
  "cat dog pizza river valley sister moved Lisbon adopted puppy Hazel marathon Berlin cello guitar the a is what my".split(
    " ",
  );

/** A random conversation tree: parents earlier, tool messages in the unit of an assistant before them when one exists, texts of a small vocabulary. */
const conversation = fc.array(
  fc.record({
    parent: fc.nat(),
    role: fc.constantFrom(...ROLES),
    summary: fc.boolean(),
    words: fc.array(fc.nat(WORDS.length - 1), { maxLength: 12 }),
  }),
  { minLength: 20, maxLength: 80 },
);
const text = (words: number[]) => words.map((w) => WORDS[w]).join(" ");

function tree(raw: { parent: number; role: RecallMessage["role"]; summary: boolean }[]): RecallMessage[] {
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
  return messages;
}

it("random trees: the same ranking and exchanges on both engines; whole exchanges, nothing from the window, no summaries", async () => {
  const reasons = new Set<string>();
  // Rounds of 60 runs until the runs have exercised every reason (one round in about nine misses
  // "similar"): each round draws from the run's seed plus its number, so a seed replays them all.
  const base = fc.readConfigureGlobal().seed ?? 0;
  for (let round = 0; round < 5 && reasons.size < 3; round++)
    await fc.assert(
      fc.asyncProperty(
        conversation,
        fc.array(fc.nat(WORDS.length - 1), { minLength: 1, maxLength: 6 }),
        fc.record({
          prompts: fc.nat(3),
          answersPerPrompt: fc.nat(3),
          recent: fc.nat(4),
          minScore: fc.constantFrom(undefined, -1, 0, 0.3),
        }),
        fc.array(fc.nat(100), { maxLength: 10 }),
        async (raw, queryWords, options, exclude) => {
          const messages = tree(raw);
          const query = text(queryWords);
          const results = [];
          for (const kind of ENGINES) {
            const memory = RecallIndex.create(await makeEngine(kind));
            await memory.add(
              messages
                .filter((m) => m.kind !== "summary")
                .map((m) => ({ key: m.key, role: m.role, content: text(raw[m.key]!.words) })),
            );
            const scope = ExchangeScope.of(messages);
            const [vector] = await memory.embedder.embed([query]);
            const ranked = memory.rank(
              { text: query, vector: Float32Array.from(vector!) },
              scope,
              10,
              options.minScore,
            );
            results.push({
              ranked,
              chosen: recallExchanges({ messages: scope, ranked, answers: memory.answers }, { ...options, exclude }),
            });
            memory.drop();
          }
          expect(results[0]).toEqual(results[1]); // scores compared with toEqual: the same numbers
          const { ranked, chosen: r } = results[0]!;
          const byKey = new Map(messages.map((m) => [m.key, m]));
          for (let i = 1; i < ranked.length; i++) {
            const [a, b] = [ranked[i - 1]!, ranked[i]!];
            expect(a.score > b.score || (a.score === b.score && a.key < b.key)).toBe(true);
          }
          for (const h of ranked) {
            expect(["user", "assistant"]).toContain(byKey.get(h.key)!.role);
            expect(byKey.get(h.key)!.kind).not.toBe("summary");
          }
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
          }
          // A tool unit is never split: its assistant message and its results come together or not at all.
          for (const m of messages)
            if (m.unit !== undefined && m.unit !== m.key) expect(seen.has(m.key)).toBe(seen.has(m.unit));
          expect(r.exchanges.filter((e) => e.reason === "prompt").length).toBeLessThanOrEqual(options.prompts);
          expect(r.exchanges.filter((e) => e.reason === "recent").length).toBeLessThanOrEqual(options.recent);
          expect(r.messages.map((m) => m.key)).toEqual(r.exchanges.flatMap((e) => e.keys));
          for (const e of r.exchanges) reasons.add(e.reason);
        },
      ),
      { numRuns: 60, seed: (base + round) | 0 },
    );
  expect([...reasons].sort()).toEqual(["prompt", "recent", "similar"]); // the runs exercised every part
});

it("a scope grouped as the chat grows is the scope grouped at once", () => {
  fc.assert(
    fc.property(conversation, fc.nat(80), (raw, cut) => {
      const messages = tree(raw);
      const grown = ExchangeScope.of(messages.slice(0, cut % messages.length));
      for (const m of messages.slice(cut % messages.length)) grown.add(m);
      const whole = ExchangeScope.of(messages);
      for (const m of messages) {
        expect(grown.exchangeOf(m.key)).toBe(whole.exchangeOf(m.key));
        expect(grown.neighbours(m.key)).toEqual(whole.neighbours(m.key));
        expect(grown.members(m.key)).toEqual(whole.members(m.key));
      }
      expect(grown.newest(5)).toEqual(whole.newest(5));
    }),
    { numRuns: 100 },
  );
});
