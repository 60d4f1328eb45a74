// A summarizer and an embedder made of an AI SDK model, in one call each: `generateText` and
// `embedMany` given the request's abort signal. Timeouts and fallbacks stay the library's:
// a summarizer past the summary policy's timeoutMs is aborted and the extractive summary
// used; an embedder past its timeoutMs is aborted and its texts stay queued.
import { embedMany, generateText, type EmbeddingModel, type LanguageModel } from "ai";
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { checkEmbedder, type Embedder } from "../recall/embedder.js";
import type { Summarizer } from "../summary/run.js";
import { embedderSize, summaryTranscript } from "./hooks-common.js";

/** Provider-specific options of an AI SDK call (`generateText`'s `providerOptions`), by provider. */
export type AiSdkProviderOptions = NonNullable<Parameters<typeof generateText>[0]["providerOptions"]>;

/** Options of `aiSdkSummarizer`: settings of the `generateText` call. */
export interface AiSdkSummarizerOptions {
  /**
   * The most tokens the model may write (default: the model's own; the prompt asks for at most the summary's
   * maxTokens).
   */
  maxOutputTokens?: number;
  /** The sampling temperature of the call (default: the model's own). */
  temperature?: number;
  /** Provider-specific options of the call (`{ openai: { reasoningEffort: "minimal" } }`). */
  providerOptions?: AiSdkProviderOptions;
  /** Retries of a failed call (the AI SDK's default: 2); all within the summary's timeoutMs. */
  maxRetries?: number;
}

/** Options of `aiSdkEmbedder`. */
export interface AiSdkEmbedderOptions {
  /** The length of the model's vectors (required: recall sizes its index by it). */
  dimensions: number;
  /** The name vectors are stored under (default: the model's id); another name embeds the chats again. */
  name?: string;
  /** Milliseconds an `embedMany` call may take before it is aborted and counted as failed (default 30,000). */
  timeoutMs?: number;
  /**
   * Ask the model for vectors of `dimensions` (embedMany's `dimensions`; OpenAI's text-embedding-3 models shorten
   * theirs). Default false.
   */
  requestDimensions?: boolean;
  /** Provider-specific options of the call. */
  providerOptions?: AiSdkProviderOptions;
  /** Retries of a failed call (the AI SDK's default: 2); all within timeoutMs. */
  maxRetries?: number;
}

function checkModel(model: unknown, what: string, method: "doGenerate" | "doEmbed"): void {
  const ok =
    (typeof model === "string" && model.length > 0) ||
    (model !== null && typeof model === "object" && typeof (model as Record<string, unknown>)[method] === "function");
  if (!ok) {
    const example =
      method === "doGenerate"
        ? 'openai("gpt-4o-mini"), or a gateway id like "openai/gpt-4o-mini"'
        : 'openai.embedding("text-embedding-3-small")';
    throw new CtxloomError("INVALID_ARGUMENT", `${what} takes an AI SDK model (${example}); got ${describe(model)}.`);
  }
}

function number(value: unknown, what: string, min: number, max: number): void {
  if (value !== undefined && (typeof value !== "number" || !(value >= min && value <= max))) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be a number from ${min} to ${max}; got ${describe(value)}.`,
    );
  }
}

function checkCommon(o: { providerOptions?: unknown; maxRetries?: unknown }, what: string): void {
  if (o.providerOptions !== undefined) checkOptions(o.providerOptions, `${what}.providerOptions`);
  if (o.maxRetries !== undefined) checkInteger(o.maxRetries, `${what}.maxRetries`, 0, 100);
}

/**
 * A summarizer (`Loom.open({ summaries: { summarizer } })`) that asks an AI SDK model: `generateText` with
 * the summary prompt as instructions and the messages as a transcript (the previous summary
 * first), aborted through the request's signal. Its time limit is the summary policy's
 * `timeoutMs`; a call that fails, runs out of time or answers too long is replaced by the
 * extractive summary, as with any summarizer.
 * @throws INVALID_ARGUMENT (not a model; bad or unknown options)
 */
export function aiSdkSummarizer(model: LanguageModel, options?: AiSdkSummarizerOptions): Summarizer {
  checkModel(model, "aiSdkSummarizer(model)", "doGenerate");
  const what = "aiSdkSummarizer(model, options)";
  const o = checkOptions<AiSdkSummarizerOptions>(options, what, [
    "maxOutputTokens",
    "temperature",
    "providerOptions",
    "maxRetries",
  ]);
  if (o.maxOutputTokens !== undefined) checkInteger(o.maxOutputTokens, `${what}.maxOutputTokens`, 1, 2 ** 30);
  number(o.temperature, `${what}.temperature`, 0, 2);
  checkCommon(o, what);
  const settings = { ...o };
  return async (request) => {
    const result = await generateText({
      model,
      instructions: request.prompt,
      prompt: summaryTranscript(request),
      abortSignal: request.signal,
      ...settings,
    });
    return result.text;
  };
}

/**
 * An embedder (`Loom.open({ recall: { embedder } })`) of an AI SDK embedding model: `embedMany` on the
 * texts, aborted through the call's signal after `timeoutMs`. Vectors must have
 * `dimensions` numbers (a model answering otherwise fails the call: EMBEDDER_FAILED, and
 * the texts stay queued).
 * @throws INVALID_ARGUMENT (not a model; bad or unknown options)
 */
export function aiSdkEmbedder(model: EmbeddingModel, options: AiSdkEmbedderOptions): Embedder {
  checkModel(model, "aiSdkEmbedder(model)", "doEmbed");
  const what = "aiSdkEmbedder(model, options)";
  const o = checkOptions<AiSdkEmbedderOptions>(options, what, [
    "dimensions",
    "name",
    "timeoutMs",
    "requestDimensions",
    "providerOptions",
    "maxRetries",
  ]);
  const { dimensions, request } = embedderSize(o, what);
  checkCommon(o, what);
  const { name, timeoutMs, providerOptions, maxRetries } = o;
  const settings = {
    ...(request ? { dimensions } : {}),
    ...(providerOptions === undefined ? {} : { providerOptions }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  };
  const embedder: Embedder = {
    name: name ?? (typeof model === "string" ? model : model.modelId),
    dimension: dimensions,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    embed: async (texts, signal) =>
      (await embedMany({ model, values: texts, abortSignal: signal, ...settings })).embeddings,
  };
  return checkEmbedder(embedder);
}
