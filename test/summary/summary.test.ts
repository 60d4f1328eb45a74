import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CtxloomError } from "../../src/errors.js";
import { heuristicCounter } from "../../src/tokens/index.js";
import { loadEncoding } from "../../src/tokens/exact.js";
import {
  checkSummaryOptions,
  resolveSummaries,
  resolveSummaryPolicy,
  DEFAULT_SUMMARY_POLICY,
  type SummaryPolicy,
} from "../../src/summary/policy.js";
import { planSummaryRun, summaryThreshold, summaryBudget, type PlanMessage } from "../../src/summary/run-plan.js";
import { extractiveSummary, type SummarizedMessage } from "../../src/summary/extractive.js";
import { summarizeRun } from "../../src/summary/run.js";
import { DEFAULT_SUMMARY_PROMPT } from "../../src/summary/prompt.js";

const counter = heuristicCounter(0.25);
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof CtxloomError ? e.code : `not a CtxloomError: ${String(e)}`;
  }
  return undefined;
};

describe("summary policy", () => {
  it("is off unless a level turns it on; each field from the nearest level that sets it", () => {
    expect(resolveSummaryPolicy()).toBeNull();
    expect(resolveSummaryPolicy(undefined, undefined, false)).toBeNull();
    expect(resolveSummaryPolicy(undefined, undefined, true)).toEqual(DEFAULT_SUMMARY_POLICY);
    expect(resolveSummaryPolicy(false, undefined, true)).toBeNull();
    expect(resolveSummaryPolicy(undefined, false, { select: { keepLast: 20 } })).toBeNull();
    // A call's trigger wins over a chat's false (its trigger "manual"); fields come from every level.
    expect(
      resolveSummaryPolicy({ trigger: { tokens: 80_000 } }, false, { select: { keepLast: 20 }, timeoutMs: 5 }),
    ).toEqual({
      trigger: { tokens: 80_000 },
      select: { keepLast: 20 },
      timeoutMs: 5,
    });
    expect(resolveSummaryPolicy(true, { maxTokens: 100 })).toEqual({ ...DEFAULT_SUMMARY_POLICY, maxTokens: 100 });
  });

  it('false is the trigger "manual", true sets nothing, presentation alone turns nothing on', () => {
    // true over false: the trigger "manual" stands (true sets no field); a trigger wins.
    expect(resolveSummaryPolicy(true, false)).toBeNull();
    expect(resolveSummaryPolicy({ select: { keepLast: 4 } }, false)).toBeNull();
    expect(resolveSummaryPolicy({ trigger: { fraction: 0.5 } }, false)).toEqual({
      ...DEFAULT_SUMMARY_POLICY,
      trigger: { fraction: 0.5 },
    });
    expect(resolveSummaryPolicy(false, { trigger: { tokens: 9 } })).toBeNull();
    expect(resolveSummaryPolicy({ trigger: "manual" }, true)).toBeNull();
    // No trigger anywhere: on when a level is given (true, or an object setting more than presentation).
    expect(resolveSummaryPolicy(undefined, { presentation: "tool" })).toBeNull();
    expect(resolveSummaryPolicy({}, { presentation: "tool" })).toBeNull();
    expect(resolveSummaryPolicy(undefined, { presentation: "tool" }, true)).toEqual(DEFAULT_SUMMARY_POLICY);
    expect(resolveSummaryPolicy(undefined, undefined, { summarizer: () => "x" })).toEqual(DEFAULT_SUMMARY_POLICY);
    expect(resolveSummaryPolicy({ timeoutMs: 9 }, { presentation: "tool" })).toEqual({
      ...DEFAULT_SUMMARY_POLICY,
      timeoutMs: 9,
    });
    // A chat's trigger over the Loom's false, the Loom's selection under it.
    expect(
      resolveSummaryPolicy(undefined, { trigger: { tokens: 500 } }, { trigger: "manual", select: { oldest: 0.5 } }),
    ).toEqual({
      ...DEFAULT_SUMMARY_POLICY,
      trigger: { tokens: 500 },
      select: { oldest: 0.5 },
    });
    // compact() reads the fields whatever the trigger: "manual" keeps the selection.
    expect(resolveSummaries({ trigger: "manual", select: { keepLast: 3 } })).toEqual({
      policy: { ...DEFAULT_SUMMARY_POLICY, select: { keepLast: 3 } },
      auto: false,
    });
  });

  it("refuses bad options with INVALID_ARGUMENT, naming the closest key", () => {
    expect(code(() => checkSummaryOptions({ trigger: { fraction: 0 } }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ trigger: { fraction: 1.5 } }, "summaries", "call"))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(code(() => checkSummaryOptions({ trigger: { fraction: 0.5, tokens: 10 } }, "summaries", "call"))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(code(() => checkSummaryOptions({ trigger: {} }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ select: { keepLast: -1 } }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ select: { oldest: "0.3" } }, "summaries", "call"))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(code(() => checkSummaryOptions({ maxTokens: 3 }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions("yes", "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ trigger: "auto" }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ trigger: null }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ timeoutMs: 0 }, "summaries", "call"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions(null, "summaries", "loom"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ summarizer: "gpt" }, "summaries", "loom"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ prompt: " " }, "summaries", "loom"))).toBe("INVALID_ARGUMENT");
    expect(code(() => checkSummaryOptions({ presentation: "user" }, "summaries", "chat"))).toBe("INVALID_ARGUMENT");
    // A level takes the keys of the levels below it, and says where the others go.
    expect(() => checkSummaryOptions({ prompt: "Be brief." }, "create(options).summaries", "chat")).toThrow(
      /"prompt".*Loom.open/,
    );
    expect(() => checkSummaryOptions({ summarizer: () => "" }, "buildContext(options).summaries", "call")).toThrow(
      /"summarizer".*Loom.open/,
    );
    expect(() => checkSummaryOptions({ presentation: "tool" }, "buildContext(options).summaries", "call")).toThrow(
      /"presentation".*kept with the chat/,
    );
    expect(checkSummaryOptions({ trigger: "manual", presentation: "tool" }, "summaries", "chat")).toEqual({
      trigger: "manual",
      presentation: "tool",
    });
    expect(() => checkSummaryOptions({ triger: { fraction: 0.5 } }, "summaries", "call")).toThrow(
      /did you mean "trigger"/,
    );
    expect(checkSummaryOptions({ trigger: { tokens: 80_000 }, select: { keepLast: 20 } }, "summaries", "call")).toEqual(
      {
        trigger: { tokens: 80_000 },
        select: { keepLast: 20 },
      },
    );
  });

  it("caps an absolute threshold by the conversation budget", () => {
    const p = (trigger: SummaryPolicy["trigger"]): SummaryPolicy => ({ ...DEFAULT_SUMMARY_POLICY, trigger });
    expect(summaryThreshold(p({ fraction: 0.8 }), 2949)).toBe(2359);
    expect(summaryThreshold(p({ tokens: 80_000 }), 2949)).toBe(2949);
    expect(summaryThreshold(p({ tokens: 80_000 }), 200_000)).toBe(80_000);
  });
});

const msg = (id: number, role: PlanMessage["role"], tokens = 10, extra: Partial<PlanMessage> = {}): PlanMessage => ({
  id,
  role,
  priority: "normal",
  tokens,
  kind: "message",
  ...extra,
});
const chatOf = (n: number): PlanMessage[] => Array.from({ length: n }, (_, i) => msg(i, i % 2 ? "assistant" : "user"));
const oldest = (f: number): SummaryPolicy => ({ ...DEFAULT_SUMMARY_POLICY, select: { oldest: f } });
const keepLast = (k: number): SummaryPolicy => ({ ...DEFAULT_SUMMARY_POLICY, select: { keepLast: k } });

describe("which run is summarized", () => {
  it("nothing under the threshold", () => {
    expect(planSummaryRun(chatOf(10), oldest(0.3), 101)).toBeNull();
  });

  it("the oldest 30% when the history reaches the threshold", () => {
    expect(planSummaryRun(chatOf(10), oldest(0.3), 100)).toEqual({ start: 0, end: 2, tokens: 30 });
  });

  it("everything older than the threshold's window too, so a huge history comes back under it at once", () => {
    // 1,000 messages of 10 tokens, threshold 100: the window is the newest 10; 3 of them go with all older ones.
    expect(planSummaryRun(chatOf(1000), oldest(0.3), 100)).toEqual({ start: 0, end: 992, tokens: 9930 });
  });

  it("everything but the newest N, an earlier summary covered whole (one rolling summary)", () => {
    const v = chatOf(30);
    v[5] = msg(5, "assistant", 10, { kind: "summary" });
    expect(planSummaryRun(v, keepLast(20), 10)).toEqual({ start: 0, end: 9, tokens: 100 });
    expect(planSummaryRun(v, keepLast(25), 10)).toEqual({ start: 0, end: 4, tokens: 50 });
    expect(planSummaryRun(v, keepLast(29), 10)).toBeNull(); // one message is not worth a summary
  });

  it("never the newest user turn, never a CRITICAL message, never half a tool unit", () => {
    // user, assistant, ..., newest user at 4
    const v = [msg(0, "user"), msg(1, "assistant"), msg(2, "user"), msg(3, "assistant"), msg(4, "user")];
    expect(planSummaryRun(v, oldest(1), 10)).toEqual({ start: 0, end: 3, tokens: 40 });
    v[2] = msg(2, "user", 10, { priority: "critical" });
    expect(planSummaryRun(v, oldest(1), 10)).toEqual({ start: 0, end: 1, tokens: 20 });
    v[0] = msg(0, "system", 10, { priority: "critical" });
    expect(planSummaryRun(v, oldest(1), 10)).toBeNull(); // only message 1 is left: not worth a summary
    const t = [
      msg(0, "user"),
      msg(1, "assistant"),
      msg(2, "assistant"),
      msg(3, "tool"),
      msg(4, "tool"),
      msg(5, "user"),
    ];
    // oldest 0.5 of 6 would end at index 2, inside the unit 2-4: the run stops before it.
    expect(planSummaryRun(t, oldest(0.5), 60)).toEqual({ start: 0, end: 1, tokens: 20 });
    expect(planSummaryRun(t, oldest(0.7), 60)).toEqual({ start: 0, end: 4, tokens: 50 });
  });

  it("property: a run is contiguous, at least two messages, ends before the newest user turn, holds no CRITICAL message and no split unit", () => {
    const arb = fc.array(
      fc.record({
        role: fc.constantFrom("user", "assistant", "tool", "system"),
        priority: fc.constantFrom("low", "normal", "high", "critical"),
        tokens: fc.integer({ min: 0, max: 2 ** 20 }),
        kind: fc.constantFrom("message", "message", "summary"),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(
        arb,
        fc.oneof(fc.double({ min: 0.01, max: 1, noNaN: true }).map(oldest), fc.nat(30).map(keepLast)),
        fc.nat(2 ** 22),
        (rows, policy, threshold) => {
          const v = rows.map((r, id) => ({ id, ...r }) as PlanMessage);
          const run = planSummaryRun(v, policy, threshold);
          if (!run) return;
          expect(run.end - run.start).toBeGreaterThanOrEqual(1);
          const newestUser = v.map((m) => m.role).lastIndexOf("user");
          expect(run.end).toBeLessThan(newestUser);
          for (let i = run.start; i <= run.end; i++) expect(v[i]!.priority).not.toBe("critical");
          expect(v[run.start]!.role).not.toBe("tool");
          if (run.end + 1 < v.length) expect(v[run.end + 1]!.role).not.toBe("tool");
          expect(run.tokens).toBe(v.slice(run.start, run.end + 1).reduce((s, m) => s + m.tokens, 0));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("gives a summary a quarter of the conversation budget, at most half of what it covers", () => {
    expect(summaryBudget(DEFAULT_SUMMARY_POLICY, 4000, 10_000)).toBe(500);
    expect(summaryBudget(DEFAULT_SUMMARY_POLICY, 4000, 600)).toBe(300);
    expect(summaryBudget({ ...DEFAULT_SUMMARY_POLICY, maxTokens: 500 }, 4000, 10_000)).toBe(500);
  });
});

const talk: SummarizedMessage[] = [
  { role: "user", content: "I am planning a trip to Lisbon in May. What should I pack?" },
  { role: "assistant", content: "Pack light layers. May in Lisbon is mild, around 20°C." },
  { role: "user", content: "My budget is 1,200 euros. Is that enough for a week?" },
  {
    role: "assistant",
    content: "Yes, if you stay in a guesthouse.",
    toolCalls: [{ id: "c1", function: { name: "search_hotels", arguments: '{"city":"Lisbon","max":90}' } }],
  },
  { role: "tool", content: "Found 12 guesthouses under 90 euros. Best rated: Casa Alfama.", toolCallId: "c1" },
  { role: "assistant", content: "Casa Alfama is well rated and under 90 euros a night." },
  { role: "user", content: "Book it for May 3 to May 10, please." },
  { role: "assistant", content: "Done. Your booking reference is LX-4471." },
];

describe("the extractive summary", () => {
  it("keeps the first sentence of each message, tool calls by name, and fits its budget", () => {
    const text = extractiveSummary(talk, 1000, counter);
    expect(text).toBe(
      [
        "User: I am planning a trip to Lisbon in May.",
        "Assistant: Pack light layers.",
        "User: My budget is 1,200 euros.",
        'Assistant: Yes, if you stay in a guesthouse. [called search_hotels({"city":"Lisbon","max":90})]',
        "Result of search_hotels: Found 12 guesthouses under 90 euros.",
        "Assistant: Casa Alfama is well rated and under 90 euros a night.",
        "User: Book it for May 3 to May 10, please.",
        "Assistant: Done.",
      ].join("\n"),
    );
  });

  it("keeps the first two and last two lines, '...' where it left lines out, and never exceeds maxTokens", async () => {
    const text = extractiveSummary(talk, 60, counter);
    const lines = text.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "User: I am planning a trip to Lisbon in May.",
      "Assistant: Pack light layers.",
    ]);
    expect(lines.slice(-2)).toEqual(["User: Book it for May 3 to May 10, please.", "Assistant: Done."]);
    expect(lines).toContain("...");
    expect(counter.count(text)).toBeLessThanOrEqual(60);
    const o200k = await loadEncoding("o200k_base");
    for (let max = 16; max < 200; max += 7)
      expect(o200k.count(extractiveSummary(talk, max, o200k))).toBeLessThanOrEqual(max);
  });

  it("is deterministic and never cuts a surrogate pair", () => {
    const emoji: SummarizedMessage[] = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: "😀".repeat(300),
    }));
    const a = extractiveSummary(emoji, 120, counter);
    expect(extractiveSummary(emoji, 120, counter)).toBe(a);
    expect(a).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(counter.count(a)).toBeLessThanOrEqual(120);
  });

  it("starts from the previous summary when it extends one", () => {
    const text = extractiveSummary(
      talk.slice(6),
      200,
      counter,
      "The user plans a week in Lisbon in May. Budget 1,200 euros. Likes quiet places. More.",
    );
    expect(text.split("\n")[0]).toBe("The user plans a week in Lisbon in May. Budget 1,200 euros. Likes quiet places.");
  });
});

describe("running a summarizer", () => {
  const run = (summarizer: Parameters<typeof summarizeRun>[4]["summarizer"], timeoutMs = 1000) =>
    summarizeRun(talk, null, 40, counter, { summarizer, timeoutMs });

  it("uses the callback's answer, giving it the messages, budget, prompt and a signal", async () => {
    let seen: unknown;
    const out = await run((req) => {
      seen = req;
      return "  Trip to Lisbon May 3-10, Casa Alfama, ref LX-4471.  ";
    });
    expect(out).toEqual({ text: "Trip to Lisbon May 3-10, Casa Alfama, ref LX-4471.", source: "llm" });
    const req = seen as {
      messages: unknown[];
      maxTokens: number;
      prompt: string;
      signal: AbortSignal;
      previousSummary: null;
    };
    expect(req.messages).toHaveLength(talk.length);
    expect(req.maxTokens).toBe(40);
    expect(req.prompt).toBe(DEFAULT_SUMMARY_PROMPT.replaceAll("{maxTokens}", "40"));
    expect(req.signal.aborted).toBe(false);
  });

  it("falls back to the extractive summary on a throw, a timeout (aborting the signal), or garbage", async () => {
    const extractive = extractiveSummary(talk, 40, counter);
    expect(
      await run(() => {
        throw new Error("rate limited");
      }),
    ).toEqual({ text: extractive, source: "extractive", fallback: "threw" });
    expect(await run(() => Promise.reject(new Error("network")))).toMatchObject({ fallback: "threw" });
    let signal: AbortSignal | undefined;
    const slow = await run((req) => {
      signal = req.signal;
      return new Promise<string>(() => {});
    }, 20);
    expect(slow).toEqual({ text: extractive, source: "extractive", fallback: "timeout" });
    expect(signal?.aborted).toBe(true);
    expect(await run(() => "   ")).toMatchObject({ fallback: "empty" });
    expect(await run(() => 42 as unknown as string)).toMatchObject({ fallback: "not-a-string" });
    expect(await run(() => "x ".repeat(500))).toMatchObject({ fallback: "too-long" });
    expect(await run(() => "half \ud83d pair")).toMatchObject({ fallback: "invalid-text" });
    expect(await run(() => "timeout")).toEqual({ text: "timeout", source: "llm" });
  });

  it("without a callback, summarizes extractively", async () => {
    expect(await summarizeRun(talk, null, 40, counter, { timeoutMs: 10 })).toEqual({
      text: extractiveSummary(talk, 40, counter),
      source: "extractive",
    });
  });
});
