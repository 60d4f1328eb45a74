// A summarizer and an embedder from an AI SDK model in one call (issue 24, item 4), run with the
// SDK's own mock models: the summary is the model's answer to the summary prompt; a model past
// the policy's timeoutMs is aborted through the signal generateText passes it and the
// extractive summary stands in; the embedder's vectors feed recall, a call past its timeoutMs
// is aborted and fails with EMBEDDER_FAILED, the texts staying queued.
import { MockEmbeddingModelV4, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Loom, hashingEmbedder } from "../../src/index.js";
import { aiSdkEmbedder, aiSdkSummarizer } from "../../src/ai-sdk.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";
import { expectBoatRecalled, expectQueuedAfterTimeout, summarizedBuild } from "./hooks-helpers.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const answer = (text: string) => ({
  content: [{ type: "text" as const, text }],
  finishReason: { unified: "stop" as const, raw: undefined },
  usage,
  warnings: [],
});
const NOTES = "Notes: the user asked about topics 0 onwards; each was settled.";

/** A model whose call waits until aborted, recording the signals it was given. */
function stuckModel() {
  const signals: AbortSignal[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: (options) => {
      signals.push(options.abortSignal!);
      return new Promise((_resolve, reject) =>
        options.abortSignal!.addEventListener("abort", () => reject(options.abortSignal!.reason)),
      );
    },
  });
  return { model, signals };
}

/** An embedding model answering with ctxloom's hashing vectors (or waiting until aborted while `stuck`). */
function embeddingModel() {
  const hashing = hashingEmbedder();
  const state = { stuck: false, signals: [] as AbortSignal[] };
  const model = new MockEmbeddingModelV4({
    modelId: "mock-embedding",
    doEmbed: async ({ values, abortSignal }) => {
      state.signals.push(abortSignal!);
      if (state.stuck)
        return new Promise((_resolve, reject) =>
          abortSignal!.addEventListener("abort", () => reject(abortSignal!.reason)),
        );
      return { embeddings: (await hashing.embed(values)).map((v) => Array.from(v)), warnings: [] };
    },
  });
  return { model, state, dimensions: hashing.dimension };
}

forEachEngine((engine) => {
  describe("aiSdkSummarizer", () => {
    it("writes the summary with the model: the summary prompt as instructions, the messages as a transcript", async () => {
      const model = new MockLanguageModelV4({ doGenerate: answer(NOTES) });
      const { loom, ctx, fallbacks } = await summarizedBuild({
        engine,
        summaries: { summarizer: aiSdkSummarizer(model, { temperature: 0 }) },
      });
      expect([ctx.summary, fallbacks]).toEqual([NOTES, 0]);
      const call = model.doGenerateCalls[0]!;
      expect(call.temperature).toBe(0);
      expect(call.prompt[0]).toMatchObject({ role: "system" });
      expect((call.prompt[0] as { content: string }).content).toMatch(
        /^You are a context extraction assistant\..*at most \d+ tokens\.$/s,
      );
      const transcript = (call.prompt[1] as { content: { text: string }[] }).content[0]!.text;
      expect(transcript).toMatch(
        /^Messages to summarize:\n\nUser: Question 0 asks about topic 0\. It adds a few more words\.\n\nAssistant: Answer 0 settles topic 0\./,
      );
      await loom.close();
    });

    it("a model past the policy's timeoutMs is aborted through its signal; the extractive summary stands in", async () => {
      const { model, signals } = stuckModel();
      const { loom, ctx, fallbacks } = await summarizedBuild({
        engine,
        summaries: { timeoutMs: 200, summarizer: aiSdkSummarizer(model, { maxRetries: 0 }) },
      });
      expect(ctx.summary).toContain("Question 0 asks about topic 0.");
      expect(fallbacks).toBe(1);
      expect(signals.map((s) => s.aborted)).toEqual([true]);
      await loom.close();
    });

    it("a model that fails falls back to the extractive summary", async () => {
      const model = new MockLanguageModelV4({ doGenerate: () => Promise.reject(new Error("overloaded")) });
      const { loom, fallbacks } = await summarizedBuild({
        engine,
        summaries: { summarizer: aiSdkSummarizer(model, { maxRetries: 0 }) },
      });
      expect(fallbacks).toBe(1);
      await loom.close();
    });
  });

  describe("aiSdkEmbedder", () => {
    it("embeds with the model for recall, passing the call's signal", async () => {
      const { model, state, dimensions } = embeddingModel();
      const loom = await Loom.open({ engine, recall: { embedder: aiSdkEmbedder(model, { dimensions }) } });
      await expectBoatRecalled(loom);
      expect(model.doEmbedCalls.length).toBeGreaterThanOrEqual(2);
      expect(model.doEmbedCalls[0]!.dimensions).toBeUndefined();
      expect(state.signals.every((s) => s instanceof AbortSignal)).toBe(true);
      expect(loom.stats().recall).toMatchObject({ embedder: "mock-embedding" });
      await loom.close();
    });

    it("a call past its timeoutMs is aborted and fails with EMBEDDER_FAILED; the texts stay queued", async () => {
      const { model, state, dimensions } = embeddingModel();
      state.stuck = true;
      const loom = await Loom.open({
        engine,
        recall: { embedder: aiSdkEmbedder(model, { dimensions, timeoutMs: 200, maxRetries: 0 }) },
      });
      await expectQueuedAfterTimeout(loom, 200, () => {
        expect(state.signals.length).toBeGreaterThanOrEqual(1);
        expect(state.signals.every((s) => s.aborted)).toBe(true);
        state.stuck = false;
      });
      await loom.close();
    });
  });
});

describe("options and bad input", () => {
  it("requestDimensions asks the model for vectors of that length; a model answering another length fails the call", async () => {
    const { model } = embeddingModel();
    const embedder = aiSdkEmbedder(model, { dimensions: 8, requestDimensions: true, name: "short" });
    expect(embedder).toMatchObject({ name: "short", dimension: 8 });
    const loom = await Loom.open({ recall: { embedder: embedder } });
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "hello" });
    await expectRejectCode(() => chat.recall("hello"), "EMBEDDER_FAILED"); // the mock answers with its own 256 numbers
    expect(model.doEmbedCalls[0]!.dimensions).toBe(8);
    await loom.close();
  });

  it("refuses what is no model, unknown options and bad values with a code", () => {
    const model = new MockLanguageModelV4();
    const { model: embedding } = embeddingModel();
    for (const bad of [42, null, {}, "", new MockEmbeddingModelV4()])
      expectThrowCode(() => aiSdkSummarizer(bad as never), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkSummarizer(model, { temprature: 0 } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkSummarizer(model, { temperature: 3 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkSummarizer(model, { maxOutputTokens: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkSummarizer(model, { maxRetries: -1 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkSummarizer(model, { providerOptions: "fast" as never }), "INVALID_ARGUMENT");
    for (const bad of [42, null, {}, model])
      expectThrowCode(() => aiSdkEmbedder(bad as never, { dimensions: 4 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, undefined as never), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, {} as never), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, { dimensions: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, { dimensions: 4, dimension: 4 } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, { dimensions: 4, timeoutMs: 0 }), "INVALID_ARGUMENT");
    expectThrowCode(() => aiSdkEmbedder(embedding, { dimensions: 4, name: "" }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => aiSdkEmbedder(embedding, { dimensions: 4, requestDimensions: "yes" as never }),
      "INVALID_ARGUMENT",
    );
  });
});
