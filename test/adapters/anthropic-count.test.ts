// Asking the provider when it matters (issue 37, item 2), with the `@anthropic-ai/sdk` client over a
// fake fetch whose count_tokens counts like a stand-in provider (its own rate per character, and
// per message): a build near its limit, or of a model nothing has calibrated, is counted by the
// endpoint and its count learned; one far from it is not; a request the provider counts over the
// limit is built again smaller; a timeout or an error leaves the calibrated estimate, and says so.
import Anthropic from "@anthropic-ai/sdk";
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import { expect, it, vi } from "vitest";
import { Loom, budgetFor, registerModel, type ContextWindow } from "../../src/index.js";
import { anthropicCounter, anthropicLoop } from "../../src/anthropic.js";
import { chatLoop } from "../../src/ai-sdk.js";
import { expectRejectCode, expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

const MODEL = "claude-count-stand-in";
registerModel({ name: MODEL, contextWindow: 6_000, tokensPerChar: 0.25 });
const LIMIT = budgetFor(MODEL).effective - budgetFor(MODEL).reserve; // what a request may hold
const COUNT_URL = /\/v1\/messages\/count_tokens$/;

type Body = { model: string; system?: string; messages: { role: string; content: unknown }[]; tools?: unknown[] };
const textOf = (content: unknown): string => (typeof content === "string" ? content : JSON.stringify(content));
/** The stand-in provider's count of a request: a token per 3 characters (ctxloom estimates 4), 6 a message. */
const trueCount = (b: Body) =>
  8 +
  Math.ceil((b.system ?? "").length / 3) +
  b.messages.reduce((n, m) => n + 6 + Math.ceil(textOf(m.content).length / 3), 0) +
  (b.tools ?? []).reduce<number>((n, t) => n + 20 + Math.ceil(JSON.stringify(t).length / 3), 0);
const sentCount = (ctx: ContextWindow) =>
  trueCount({ model: MODEL, system: ctx.system || undefined, messages: ctx.messages as Body["messages"] });

/** A fake fetch: count_tokens answers the stand-in's count (or what `answer` says); messages.create answers `replies`. */
function fakeFetch(
  answer: (body: Body, signal: AbortSignal) => Promise<Response> | Response = (b) =>
    Response.json({ input_tokens: trueCount(b) }),
  replies: unknown[] = [],
) {
  const counts: Body[] = [];
  const creates: Body[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as Body;
    if (COUNT_URL.test(String(url))) {
      counts.push(body);
      return answer(body, init!.signal!);
    }
    creates.push(body);
    return Response.json(replies.shift());
  };
  return { client: new Anthropic({ apiKey: "test", fetch: fetch as typeof globalThis.fetch }), counts, creates };
}

const line = (i: number) =>
  `Message ${i}: ` + "the quick brown fox jumps over the lazy dog and runs far away ".repeat(6);

async function chatOf(loom: Loom, messages: number) {
  const chats = loom.user("u");
  const chat = await chats.create({ model: MODEL, system: "You answer briefly." });
  for (let i = 0; i < messages; i++) await chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: line(i) });
  return { chat, chats };
}

forEachEngine((engine) => {
  it("a model nothing has calibrated is counted at once, a request over the limit built again within it, and the count learned", async () => {
    const { client, counts } = fakeFetch();
    const loom = await Loom.open({ engine });
    const { chat } = await chatOf(loom, 61); // more than a request holds
    const ctx = await chat.buildContext({
      format: "anthropic",
      stablePrefix: false,
      providerCounter: anthropicCounter(client),
    });
    // The first build, filled to its (uncalibrated) limit, counted over it by the provider: built again, smaller.
    expect(counts).toHaveLength(2);
    expect(trueCount(counts[0]!)).toBeGreaterThan(LIMIT);
    expect(counts[1]!.messages.length).toBeLessThan(counts[0]!.messages.length);
    expect(counts[1]).toEqual({ model: MODEL, system: ctx.system, messages: ctx.messages });
    expect(ctx.providerCount).toEqual({
      asked: true,
      tokens: trueCount(counts[1]!),
      limit: LIMIT,
      rebuilds: 1,
      fallback: null,
    });
    expect(ctx.providerCount!.tokens).toBeLessThanOrEqual(LIMIT);
    expect(chat.stats().providerCount).toEqual(ctx.providerCount);
    // Learned: both counts calibrate the model, and the next full build fits at once.
    expect(loom.exportCalibration().entries).toMatchObject([{ model: MODEL, script: "latin", reports: 2 }]);
    await chat.append({ role: "user", content: line(61) });
    const next = await chat.buildContext({
      format: "anthropic",
      stablePrefix: false,
      providerCounter: anthropicCounter(client),
    });
    expect(counts).toHaveLength(3);
    expect(next.providerCount).toMatchObject({ asked: true, rebuilds: 0, fallback: null });
    expect(next.providerCount!.tokens).toBeLessThanOrEqual(LIMIT);
    await loom.close();
  });

  it("near the limit the provider is asked; far from it, not", async () => {
    const { client, counts } = fakeFetch();
    const loom = await Loom.open({ engine });
    const counter = anthropicCounter(client);
    const small = await chatOf(loom, 3);
    const first = await small.chat.buildContext({ format: "anthropic", providerCounter: counter });
    expect(first.providerCount).toMatchObject({ asked: true, tokens: sentCount(first) }); // nothing calibrated yet
    await small.chat.append({ role: "assistant", content: line(3) });
    await small.chat.append({ role: "user", content: line(4) });
    const far = await small.chat.buildContext({ format: "anthropic", providerCounter: counter });
    expect(far.usage.total).toBeLessThan(0.5 * far.usage.limit);
    expect(far.providerCount).toEqual({ asked: false, tokens: null, limit: LIMIT, rebuilds: 0, fallback: null });
    expect(counts).toHaveLength(1);
    const { chat } = await chatOf(loom, 61);
    const near = await chat.buildContext({ format: "anthropic", stablePrefix: false, providerCounter: counter });
    expect(near.usage.total).toBeGreaterThanOrEqual(0.95 * near.usage.limit);
    expect(counts).toHaveLength(2);
    expect(near.providerCount).toEqual({
      asked: true,
      tokens: sentCount(near),
      limit: LIMIT,
      rebuilds: 0,
      fallback: null,
    });
    await loom.close();
  });

  it("no request is handed out over the limit as the provider counts it; calibration alone sends the first ones over", async () => {
    const run = async (counted: boolean) => {
      const { client, counts } = fakeFetch();
      const loom = await Loom.open({ engine });
      const { chat } = await chatOf(loom, 41);
      const over: number[] = [];
      const used: number[] = [];
      for (let i = 41; i < 71; i += 2) {
        const ctx = await chat.buildContext({
          format: "anthropic",
          ...(counted ? { providerCounter: anthropicCounter(client) } : {}),
        });
        if (sentCount(ctx) > LIMIT) over.push(i);
        used.push(sentCount(ctx) / LIMIT);
        chat.observeUsage(ctx, sentCount(ctx)); // the answer's usage, as the loops report it
        await chat.append({ role: "assistant", content: line(i) });
        await chat.append({ role: "user", content: line(i + 1) });
      }
      await loom.close();
      return { over, counts: counts.length, used };
    };
    const asked = await run(true);
    const alone = await run(false);
    console.log(
      `15 full requests: with the counter ${asked.over.length} over the limit (${asked.counts} counts asked), ` +
        `calibration alone ${alone.over.length} over (the first, at ${(100 * alone.used[0]!).toFixed(1)}% of the limit); ` +
        `requests hold ${(100 * Math.min(...asked.used)).toFixed(1)}-${(100 * Math.max(...asked.used)).toFixed(1)}% of it`,
    );
    expect(asked.over).toEqual([]);
    expect(alone.over.length).toBeGreaterThan(0);
  });

  it("a count that does not come in time, or fails, leaves the calibrated estimate, and the context says why", async () => {
    let aborted = 0;
    const hanging = fakeFetch(
      (_b, signal) =>
        new Promise<Response>((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            aborted++;
            reject(signal.reason);
          }),
        ),
    );
    const loom = await Loom.open({ engine });
    const { chat } = await chatOf(loom, 61);
    const late = await chat.buildContext({
      format: "anthropic",
      stablePrefix: false,
      providerCounter: anthropicCounter(hanging.client, { timeoutMs: 20 }),
    });
    expect(late.providerCount).toEqual({
      asked: true,
      tokens: null,
      limit: LIMIT,
      rebuilds: 0,
      fallback: { reason: "timeout", message: "anthropic gave no count within 20 ms" },
    });
    expect(late.usage.total).toBeLessThanOrEqual(late.usage.limit);
    await vi.waitFor(() => expect(aborted).toBe(1)); // the HTTP request was aborted
    const limited = fakeFetch(() =>
      Response.json(
        { type: "error", error: { type: "rate_limit_error", message: "Too many count requests" } },
        { status: 429 },
      ),
    );
    const failed = await chat.buildContext({
      format: "anthropic",
      stablePrefix: false,
      providerCounter: anthropicCounter(limited.client),
    });
    expect(failed.providerCount).toMatchObject({
      asked: true,
      tokens: null,
      fallback: { reason: "failed", message: expect.stringMatching(/429.*Too many count requests/) },
    });
    expect(limited.counts).toHaveLength(1); // no retry
    expect(failed.messages).toEqual(late.messages);
    const odd = { name: "odd", format: "anthropic" as const, margin: 0.05, timeoutMs: 1000, count: async () => -1 };
    expect((await chat.buildContext({ format: "anthropic", providerCounter: odd })).providerCount!.fallback).toEqual({
      reason: "failed",
      message: "odd answered -1, not a count of tokens",
    });
    expect(loom.exportCalibration().entries).toEqual([]); // nothing learned from no count
    await loom.close();
  });

  it("a provider that counts every request over the limit: two builds, each smaller, then MESSAGE_TOO_LARGE", async () => {
    const loom = await Loom.open({ engine });
    const { chat } = await chatOf(loom, 61);
    const sizes: number[] = [];
    const greedy = {
      name: "greedy",
      format: "anthropic" as const,
      margin: 0.05,
      timeoutMs: 1000,
      count: async ({ context }: { context: ContextWindow }) => (sizes.push(context.usage.total), LIMIT + 1),
    };
    await expectRejectCode(
      () => chat.buildContext({ format: "anthropic", providerCounter: greedy }),
      "MESSAGE_TOO_LARGE",
    );
    expect(sizes).toHaveLength(3);
    expect(sizes[1]!).toBeLessThan(sizes[0]!);
    expect(sizes[2]!).toBeLessThan(sizes[1]!);
    await loom.close();
  });

  it("anthropicLoop counts its requests with their tools, and sends what the provider counted", async () => {
    const stock: Tool = {
      name: "stock",
      description: "Units in stock",
      input_schema: { type: "object", properties: { sku: { type: "string" } } },
    };
    const reply = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: MODEL,
      content: [{ type: "text", text: "Done." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    };
    const { client, counts, creates } = fakeFetch(undefined, [reply]);
    const loom = await Loom.open({ engine });
    const { chat } = await chatOf(loom, 61);
    const loop = anthropicLoop(chat, {
      tools: [stock],
      stablePrefix: false,
      providerCounter: anthropicCounter(client, { model: "claude-count-api-name" }),
    });
    await loop.step(
      await client.messages.create({ model: MODEL, max_tokens: 100, ...(await loop.context()) }),
      () => "",
    );
    expect(counts.length).toBeGreaterThanOrEqual(2); // over the limit at first: built again
    const last = counts.at(-1)!;
    expect(last.model).toBe("claude-count-api-name");
    expect(last.tools).toEqual([stock, expect.objectContaining({ name: "readToolResult" })]);
    expect(creates[0]).toMatchObject({ system: last.system, messages: last.messages, tools: last.tools });
    expect(trueCount(last)).toBeLessThanOrEqual(LIMIT);
    await loom.close();
  });

  it("refuses bad counters and options (INVALID_ARGUMENT), before anything is counted or changed", async () => {
    const { client, counts } = fakeFetch();
    for (const bad of [null, {}, { messages: {} }, "client"])
      expectThrowCode(() => anthropicCounter(bad as never), "INVALID_ARGUMENT");
    for (const bad of [
      { margin: 0.6 },
      { margin: -0.1 },
      { margin: "5%" },
      { timeoutMs: 0 },
      { timeoutMs: 1.5 },
      { timeoutMs: 120_000 },
      { model: "" },
      { marign: 0.1 },
      [],
    ]) {
      expectThrowCode(() => anthropicCounter(client, bad as never), "INVALID_ARGUMENT");
    }
    const loom = await Loom.open({ engine });
    const { chat, chats } = await chatOf(loom, 5);
    const before = await snapshot(chat, chats);
    const counter = anthropicCounter(client);
    const calls = [
      () => chat.buildContext({ providerCounter: counter }), // an Anthropic counter, an OpenAI-format build
      () => chat.buildContext({ format: "anthropic", providerCounter: {} as never }),
      () => chat.buildContext({ format: "anthropic", providerCounter: { ...counter, margin: 2 } }),
      () => chat.buildContext({ format: "anthropic", providerCounter: counter, maxMessages: 0 }),
      () => chat.buildPrompt({ providerCounter: counter } as never),
    ];
    for (const call of calls) await expectRejectCode(call, "INVALID_ARGUMENT");
    expectThrowCode(
      () => anthropicLoop(chat, { providerCounter: { ...counter, format: "openai" } }),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => chatLoop(chat, { providerCounter: counter } as never), "INVALID_ARGUMENT");
    expect(counts).toEqual([]);
    expect(await snapshot(chat, chats)).toEqual(before);
    expect(chat.stats().providerCount).toBeNull();
    // Left undefined: the build without a counter.
    expect(await chat.buildContext({ format: "anthropic", providerCounter: undefined })).not.toHaveProperty(
      "providerCount",
    );
    expect(counts).toEqual([]);
    await loom.close();
  });
});
