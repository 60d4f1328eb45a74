// Token counting (issue 3, point 1): the OpenAI cookbook's vector, heuristic counters, counts
// by tokens-per-char for models with no known encoding, tool calls, and bad inputs.
import { describe, expect, it, vi } from "vitest";
import { countTokens, loadTokenizer, registerModel, type ModelProfile, type TokenCounter } from "../../src/index.js";
import { heuristicCounter, loadEncoding, messageTokens } from "../../src/tokens-entry.js";
import { expectRejectCode, expectThrowCode } from "../helpers.js";
import { COOKBOOK } from "./cookbook.js";

describe("countTokens before the tokenizer is loaded", () => {
  it("throws COUNTER_NOT_LOADED in a fresh module, and counts once loadTokenizer resolved", async () => {
    vi.resetModules();
    const fresh = await import("../../src/models/counting.js");
    let error: unknown;
    try {
      fresh.countTokens(COOKBOOK, { model: "gpt-4o" });
    } catch (e) {
      error = e;
    }
    // a fresh module graph has its own CtxloomError class: check the code and the advice
    expect((error as { code?: string } | undefined)?.code).toBe("COUNTER_NOT_LOADED");
    expect((error as Error).message).toContain("loadTokenizer");
    // heuristic models never need loading
    expect(fresh.countTokens([{ role: "user", content: "hi" }], { model: "llama3.2" })).toBeGreaterThan(0);
    await fresh.loadTokenizer("gpt-4o");
    expect(fresh.countTokens(COOKBOOK, { model: "gpt-4o" })).toBe(124);
    vi.resetModules();
  });
});

describe("the OpenAI cookbook's example", () => {
  for (const [model, expected] of [
    ["gpt-4", 129],
    ["gpt-3.5-turbo", 129],
    ["gpt-4o", 124],
    ["gpt-4o-mini", 124],
  ] as const) {
    it(`${model}: ${expected} tokens`, async () => {
      await loadTokenizer(model);
      expect(countTokens(COOKBOOK, { model })).toBe(expected);
    });
  }

  it("dated model ids count like their family (gpt-4o-2024-08-06, gpt-4-0613)", async () => {
    await loadTokenizer("gpt-4o-2024-08-06");
    await loadTokenizer("gpt-4-0613");
    expect(countTokens(COOKBOOK, { model: "gpt-4o-2024-08-06" })).toBe(124);
    expect(countTokens(COOKBOOK, { model: "gpt-4-0613" })).toBe(129);
  });

  it("the cookbook rules, term by term: 3 a message, 1 more a name, 3 for the reply", async () => {
    const o200k = await loadEncoding("o200k_base");
    const fields = COOKBOOK.reduce(
      (sum, m) => sum + o200k.count(m.role) + o200k.count(m.content) + (m.name === undefined ? 0 : o200k.count(m.name)),
      0,
    );
    expect(countTokens(COOKBOOK, { model: "gpt-4o" })).toBe(fields + 3 * COOKBOOK.length + 4 /* names */ + 3);
    expect(countTokens([], { model: "gpt-4o" })).toBe(3);
  });
});

describe("heuristic counting", () => {
  it("seed 004's estimate: (length + 3) >> 2", () => {
    const h = heuristicCounter();
    expect(h.exact).toBe(false);
    for (const text of ["", "a", "abcd", "abcde", "x".repeat(1001), "héllo wörld", "😀😀"]) {
      expect(h.count(text)).toBe((text.length + 3) >> 2);
    }
  });

  it("with a tokens-per-char figure: ceil(length * tokensPerChar)", () => {
    const h = heuristicCounter(0.28);
    for (const n of [0, 1, 3, 4, 100, 12345]) expect(h.count("y".repeat(n))).toBe(Math.ceil(n * 0.28));
  });

  it("models with no known encoding count with their profile's tokensPerChar (no loading needed)", () => {
    const msgs = [
      { role: "system", content: "You are Luna." },
      { role: "user", content: "x".repeat(200), name: "alice" },
    ];
    for (const [model, perChar] of [
      ["llama3.2", 0.28],
      ["gemma2:9b", 0.3],
      ["gemini-2.0-flash", 0.25],
      ["claude-sonnet-4", 0.25],
    ] as const) {
      const c = (s: string) => Math.ceil(s.length * perChar);
      const expected =
        3 + msgs.reduce((sum, m) => sum + 3 + c(m.role) + c(m.content) + (m.name ? 1 + c(m.name) : 0), 0);
      expect(countTokens(msgs, { model })).toBe(expected);
    }
  });

  it("a profile's own counter wins over its encoding and the heuristic", () => {
    const words: TokenCounter = {
      name: "words",
      exact: true,
      count: (t) => (t.length === 0 ? 0 : t.split(/\s+/).length),
    };
    const profile: ModelProfile = {
      name: "words-model",
      contextWindow: 4096,
      sizeClass: "tiny",
      tokensPerChar: 0.25,
      encoding: "o200k_base",
      counter: words,
    };
    const msgs = [{ role: "user", content: "one two three" }];
    expect(countTokens(msgs, { model: profile })).toBe(3 + 1 + 3 + 3);
    registerModel(profile);
    expect(countTokens(msgs, { model: "words-model" })).toBe(10);
  });
});

describe("tool calls and results are counted", () => {
  const call = {
    id: "call_abc123",
    type: "function" as const,
    function: { name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}' },
  };

  it("every field of a tool call and a result's tool_call_id, snake_case or camelCase", async () => {
    const enc = await loadEncoding("o200k_base");
    const c = (s: string) => enc.count(s);
    const snake = [
      { role: "assistant", content: "", tool_calls: [call, { ...call, id: "call_2" }] },
      { role: "tool", content: "18 degrees, sunny", tool_call_id: "call_abc123" },
    ];
    const camel = [
      { role: "assistant", content: "", toolCalls: [call, { ...call, id: "call_2" }] },
      { role: "tool", content: "18 degrees, sunny", toolCallId: "call_abc123" },
    ];
    const callCost = (id: string) => c(id) + c("function") + c(call.function.name) + c(call.function.arguments);
    const expected =
      3 +
      (3 + c("assistant") + callCost("call_abc123") + callCost("call_2")) +
      (3 + c("tool") + c("18 degrees, sunny") + c("call_abc123"));
    expect(countTokens(snake as never, { model: "gpt-4o" })).toBe(expected);
    expect(countTokens(camel, { model: "gpt-4o" })).toBe(expected);
    const without = countTokens([{ role: "assistant", content: "" }], { model: "gpt-4o" });
    expect(countTokens([snake[0]!] as never, { model: "gpt-4o" })).toBeGreaterThan(without + 20);
  });

  it("messageTokens is the per-message term (no reply priming)", async () => {
    const enc = await loadEncoding("cl100k_base");
    const m = { role: "assistant", content: "Checking.", toolCalls: [call] };
    expect(messageTokens(enc, m) + 3).toBe(countTokens([m], { model: "gpt-4" }));
  });
});

describe("bad inputs", () => {
  it("countTokens: not an array, no model, malformed messages -> INVALID_ARGUMENT", () => {
    expectThrowCode(() => countTokens("hello" as never, { model: "gpt-4o" }), "INVALID_ARGUMENT");
    expectThrowCode(() => countTokens([], undefined as never), "INVALID_ARGUMENT");
    expectThrowCode(() => countTokens([], {} as never), "INVALID_ARGUMENT");
    expectThrowCode(() => countTokens([null] as never, { model: "llama3.2" }), "INVALID_ARGUMENT");
    expectThrowCode(() => countTokens([{ role: 1, content: "x" }] as never, { model: "llama3.2" }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => countTokens([{ role: "user", content: 42 }] as never, { model: "llama3.2" }),
      "INVALID_ARGUMENT",
    );
  });

  it("countTokens and loadTokenizer with an unknown model -> UNKNOWN_MODEL", async () => {
    expectThrowCode(() => countTokens([{ role: "user", content: "x" }], { model: "ultra-9000" }), "UNKNOWN_MODEL");
    await expectRejectCode(() => loadTokenizer("no-such-model"), "UNKNOWN_MODEL");
  });

  it("an unknown encoding -> INVALID_ARGUMENT", async () => {
    let error: unknown;
    try {
      await loadEncoding("r50k_base" as never);
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).toBe("INVALID_ARGUMENT");
  });
});
