// Summaries under concurrency and faults (issue 9), on both engines: a slow summarizer runs
// outside the chat's queue (appends and other builds go on), one summary at a time per chat,
// a run that no longer applies is discarded, and every faulty answer falls back to the
// extractive summary, is counted, and loses nothing.
import { describe, expect, it } from "vitest";
import { Loom, type SummarizeRequest } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";
import { SMALL, summaryIds, talk } from "./summaries-helpers.js";

/** A summarizer that waits until released, recording its requests. */
function slowSummarizer() {
  const requests: SummarizeRequest[] = [];
  let release!: (text: string) => void;
  let called!: () => void;
  const wasCalled = new Promise<void>((resolve) => (called = resolve));
  const answer = new Promise<string>((resolve) => (release = resolve));
  const summarizer = (request: SummarizeRequest) => {
    requests.push(request);
    called();
    return answer;
  };
  return { summarizer, requests, release, wasCalled };
}

forEachEngine((engine) => {
  describe("a slow summarizer", () => {
    it("runs outside the queue: appends and a concurrent build go on, the range is summarized once, nothing is lost", async () => {
      const slow = slowSummarizer();
      const loom = await Loom.open({ engine, summaries: { summarizer: slow.summarizer } });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 60);
      const building = chat.buildContext();
      await slow.wasCalled;
      const request = slow.requests[0]!;
      expect(request.prompt).toContain(`at most ${request.maxTokens} tokens`);
      expect(request.previousSummary).toBeNull();
      expect(request.signal.aborted).toBe(false);
      expect(request.messages[0]).toEqual({
        role: "user",
        content: "Question 0 asks about topic 0. It adds a few more words.",
      });
      // While it runs: appends land, and another build returns without summarizing again.
      await talk(chat, 3, 100);
      const concurrent = await chat.buildContext();
      expect(concurrent.compressed).toBe(false);
      expect(slow.requests).toHaveLength(1);
      slow.release("Notes: the user asked about topics 0 onwards; each was settled.");
      const ctx = await building;
      expect(slow.requests).toHaveLength(1);
      expect(ctx.compressed).toBe(true);
      expect(ctx.summary).toBe("Notes: the user asked about topics 0 onwards; each was settled.");
      const path = chat.path();
      expect(path).toHaveLength(126);
      expect(path.slice(-2).map((m) => m.content)).toEqual([
        "Question 102 asks about topic 102. It adds a few more words.",
        "Answer 102 settles topic 102. Then it explains a little.",
      ]);
      expect(ctx.conversation[ctx.conversation.length - 1]!.id).toBe(path[path.length - 1]!.id); // the build sees the appends
      const [sid] = summaryIds(chat);
      expect(chat.get(sid!).covers!.last).toBe(request.messages.length - 1);
      expect(chat.stats().fallbacks).toBe(0);
      await loom.close();
    });

    it("a run that left the head's path meanwhile is discarded (nothing stored); the next build plans anew", async () => {
      const slow = slowSummarizer();
      const loom = await Loom.open({ engine, summaries: { summarizer: slow.summarizer } });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 60);
      const building = chat.buildContext();
      await slow.wasCalled;
      await chat.checkout(3); // inside the run: its last message is no longer on the head's path
      const size = chat.messageCount;
      slow.release("A summary that no longer applies.");
      const ctx = await building;
      expect(ctx.compressed).toBe(false);
      expect(chat.messageCount).toBe(size);
      expect(summaryIds(chat)).toEqual([]);
      await loom.close();
    });
  });

  describe("faulty summarizers fall back to the extractive summary", () => {
    const cases: [string, (r: SummarizeRequest) => unknown][] = [
      [
        "throws",
        () => {
          throw new Error("model down");
        },
      ],
      ["rejects", () => Promise.reject(new Error("rate limited"))],
      [
        "times out (and is aborted)",
        (r) => new Promise((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason))),
      ],
      ["returns a number", () => 42],
      ["returns an empty text", () => "   "],
      ["returns a text over maxTokens", (r) => "word ".repeat(r.maxTokens * 8)],
      ["returns a lone surrogate", () => "broken \ud800 text"],
    ];
    for (const [what, summarizer] of cases) {
      it(what, async () => {
        let aborted = false;
        const loom = await Loom.open({
          engine,
          summaries: {
            timeoutMs: 50,
            summarizer: (r) => {
              r.signal.addEventListener("abort", () => (aborted = true));
              return summarizer(r) as string;
            },
          },
        });
        const chat = await loom.user("u").create({ model: SMALL });
        await talk(chat, 60);
        const before = chat.path();
        const ctx = await chat.buildContext();
        expect(ctx.compressed).toBe(true);
        expect(ctx.summary).toMatch(/^User: Question 0 asks about topic 0\./);
        expect(chat.stats().fallbacks).toBe(1);
        expect(chat.stats().compressions).toBe(1);
        expect(chat.path()).toEqual(before);
        expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
        expect(aborted).toBe(what.startsWith("times out"));
        await loom.close();
      });
    }
  });
});
