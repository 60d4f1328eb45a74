// The recall evaluation set (test/recall/eval/): its size and kinds, that every question's
// evidence is a turn that states what it asks, that the same seed gives the same set, and
// that the conversations look like chats (named friends, dated sessions, turns alternating).
import { describe, expect, it } from "vitest";
import { CONVERSATIONS, HELD_OUT, KINDS, evaluationSet, generateConversation } from "./eval/generate.js";
import { describeSet, fingerprint } from "./eval/shape.js";
import { lexicalWords } from "../../src/recall/lexical-terms.js";

const set = evaluationSet();

describe("the evaluation set", () => {
  it("holds 10+ long conversations and 1,000+ questions of the four kinds, with a held-out part", () => {
    expect(set.length).toBe(CONVERSATIONS);
    expect(set.length).toBeGreaterThanOrEqual(10);
    for (const c of set) {
      expect(c.turns.length).toBeGreaterThanOrEqual(500);
      expect(c.sessions.length).toBeGreaterThanOrEqual(20);
      expect(c.heldOut).toBe(HELD_OUT.includes(c.id));
    }
    const questions = set.flatMap((c) => c.questions);
    expect(questions.length).toBeGreaterThanOrEqual(1000);
    for (const kind of KINDS) expect(questions.filter((q) => q.kind === kind).length).toBeGreaterThanOrEqual(90);
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    const [tuning, heldOut] = describeSet(set);
    expect(tuning!.part).toBe("tuning");
    expect(heldOut!.questions).toBeGreaterThanOrEqual(250);
    expect(evaluationSet("held-out").map((c) => c.id)).toEqual([...HELD_OUT]);
    expect(evaluationSet("tuning").some((c) => HELD_OUT.includes(c.id))).toBe(false);
  });

  it("is the same on every run (seeded), and differs from conversation to conversation", () => {
    expect(fingerprint([generateConversation(3)])).toBe(fingerprint([set[3]!]));
    expect(generateConversation(7)).toEqual(set[7]);
    expect(fingerprint([set[0]!])).not.toBe(fingerprint([set[1]!]));
    expect(set[0]!.turns[10]!.text).not.toBe(set[1]!.turns[10]!.text);
  });

  it("evidence: existing turns; multi-hop needs two or more; single-hop and temporal questions are not copies of their turns", () => {
    for (const c of set) {
      for (const q of c.questions) {
        expect(q.evidence.length).toBeGreaterThanOrEqual(1);
        for (const e of q.evidence) expect(c.turns[e]).toBeDefined();
        if (q.kind === "multi-hop") expect(q.evidence.length).toBeGreaterThanOrEqual(2);
        else expect(q.evidence.length).toBeLessThanOrEqual(2);
        expect(q.question).toMatch(/\?$/);
        for (const e of q.evidence)
          expect(c.turns[e]!.text.toLowerCase()).not.toContain(q.question.toLowerCase().slice(0, -1));
      }
    }
  });

  it("asks in other words: questions name a speaker; a fair share shares no content word with its evidence", () => {
    let shared = 0;
    let asked = 0;
    let named = 0;
    for (const c of set) {
      const names = new Set(c.speakers.map((s) => s.toLowerCase()));
      for (const q of c.questions) {
        if (c.speakers.some((s) => q.question.includes(s))) named++;
        if (q.kind !== "single-hop") continue;
        const words = new Set(lexicalWords(q.question).filter((w) => !names.has(w)));
        const evidence = new Set(q.evidence.flatMap((e) => lexicalWords(c.turns[e]!.text)));
        asked++;
        if ([...words].some((w) => evidence.has(w))) shared++;
      }
    }
    expect(named / set.reduce((n, c) => n + c.questions.length, 0)).toBeGreaterThan(0.85);
    // Paraphrase without being impossible: most single-hop questions share a stemmed word, many do not.
    expect(shared / asked).toBeGreaterThan(0.5);
    expect(shared / asked).toBeLessThan(0.9);
  });

  it("reads like a chat: two named friends, dated sessions in order, turns alternating within a session", () => {
    for (const c of set) {
      expect(c.speakers[0]).not.toBe(c.speakers[1]);
      let last = "";
      for (const [i, s] of c.sessions.entries()) {
        expect(s.date > last).toBe(true);
        last = s.date;
        expect(s.label).toMatch(/^\d{1,2}:\d\d (am|pm) on \d{1,2} [A-Z][a-z]+, 20\d\d$/);
        expect(s.first).toBe(i === 0 ? 0 : c.sessions[i - 1]!.last + 1);
        for (let t = s.first + 1; t <= s.last; t++) {
          expect(c.turns[t]!.speaker).not.toBe(c.turns[t - 1]!.speaker);
          expect(c.turns[t]!.at > c.turns[t - 1]!.at).toBe(true);
        }
      }
      expect(c.turns.at(-1)!.id).toBe(c.turns.length - 1);
      // Friends greet each other by name: names appear in the turns, as in real chats.
      const named = c.turns.filter((t) => c.speakers.some((s) => t.text.includes(s))).length;
      expect(named / c.turns.length).toBeGreaterThan(0.05);
    }
  });
});
