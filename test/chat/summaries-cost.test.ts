// What a build costs with summaries (issue 9), counted in nodes on the counting engines:
// the build that makes a summary visits O(W + covered) nodes once; the builds after it
// visit O(W), the same number for 2,000 and 20,000 messages of history.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type ChatExport } from "../../src/index.js";
import { countingEngine } from "../engine/counting.js";
import { forEachEngine } from "../helpers.js";
import { SMALL } from "./summaries-helpers.js";

/** A chat of `n` messages (user and assistant in turn), imported in one write. */
export function history(n: number): ChatExport {
  const now = Date.now();
  const messages = Array.from({ length: n }, (_, id) => ({
    id,
    parentId: id === 0 ? null : id - 1,
    role: id % 2 ? "assistant" : "user",
    priority: "normal",
    createdAt: now,
    kind: "message",
    content:
      id % 2
        ? `Answer ${id >> 1} settles topic ${id >> 1}. Then it explains a little.`
        : `Question ${id >> 1} asks about topic ${id >> 1}. It adds a few more words.`,
  }));
  return {
    format: "ctxloom.chat",
    version: 1,
    head: n - 1,
    messages,
    chat: {
      id: `h${n}`,
      title: "",
      model: SMALL.name,
      system: null,
      createdAt: now,
      updatedAt: now,
      options: { profile: { ...SMALL } },
    },
  } as unknown as ChatExport;
}

forEachEngine((engine) => {
  describe("nodes visited by builds with summaries", () => {
    const visits = new Map<number, { trigger: number; after: number[] }>();

    for (const n of [2_000, 20_000]) {
      it(`${n} messages: the summarizing build visits O(W + covered) once, each build after it O(W)`, async () => {
        const loom = Loom.withEngine(await countingEngine(engine), {
          store: memoryStore(),
          counter: "heuristic",
          maxOpenChats: 1000,
          summaries: { select: { keepLast: 20 } },
          recall: false,
        });
        const chat: Chat = await loom.user("u").import(history(n));
        const e = loom.engineImpl;
        e.resetVisited();
        const first = await chat.buildContext();
        const trigger = e.visited;
        expect(first.compressed).toBe(true);
        expect(chat.stats().compressions).toBe(1);
        // The run is the whole path but the newest 20: walked once to plan and once to check, a few times more at most.
        expect(trigger).toBeGreaterThanOrEqual(n);
        expect(trigger).toBeLessThanOrEqual(6 * n);
        const after: number[] = [];
        for (let i = 0; i < 5; i++) {
          await chat.append({ role: "user", content: `Follow-up ${i}. One more question.` });
          await chat.append({ role: "assistant", content: `Reply ${i}. One more answer.` });
          e.resetVisited();
          const ctx = await chat.buildContext();
          after.push(e.visited);
          expect(ctx.compressed).toBe(true);
          // W: the summary and the messages after it (at most 32), each visited a few times (trigger walk, selection).
          expect(e.visited).toBeLessThanOrEqual(4 * ctx.conversation.length + 8);
        }
        expect(chat.stats().compressions).toBe(1);
        visits.set(n, { trigger, after });
        await loom.close();
      });
    }

    it("the builds after a summary visit as many nodes at 20,000 messages as at 2,000", () => {
      const small = visits.get(2_000);
      const large = visits.get(20_000);
      expect(small && large).toBeTruthy();
      expect(large!.after).toEqual(small!.after);
      expect(large!.trigger).toBeGreaterThan(5 * small!.trigger); // the summarizing build grows with what it covers
    });
  });
});
