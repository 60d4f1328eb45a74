// A summarizer and an embedder made of an OpenAI SDK client (or any client of an
// OpenAI-compatible server), in one call each. Nothing of `openai` is imported: the client is
// taken by its shape. Timeouts and fallbacks stay the library's, the request's signal is
// handed to the client (which aborts the HTTP request).
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { checkEmbedder, type Embedder } from "../recall/embedder.js";
import type { Summarizer } from "../summary/run.js";
import { embedderSize, summaryTranscript } from "./hooks-common.js";

/** What `openAISummarizer` uses of the client: `chat.completions.create`. */
export interface OpenAIChatClientLike {
  /** The client's Chat Completions API, of which `completions.create` is called. */
  chat: {
    completions: {
      create(
        body: {
          model: string;
          messages: { role: "system" | "user"; content: string }[];
          stream?: false | null;
          temperature?: number | null;
          max_completion_tokens?: number | null;
          reasoning_effort?: "minimal" | "low" | "medium" | "high" | null;
        },
        options?: { signal?: AbortSignal | null },
      ): PromiseLike<{ choices: readonly { message: { content: string | null; refusal?: string | null } }[] }>;
    };
  };
}

/** What `openAIEmbedder` uses of the client: `embeddings.create`. */
export interface OpenAIEmbeddingsClientLike {
  /** The client's Embeddings API, of which `create` is called. */
  embeddings: {
    create(
      body: { model: string; input: string[]; dimensions?: number },
      options?: { signal?: AbortSignal | null },
    ): PromiseLike<{ data: readonly { embedding: number[]; index: number }[] }>;
  };
}

/** Options of `openAISummarizer`: the request's model and settings. */
export interface OpenAISummarizerOptions {
  /** The model that writes summaries ("gpt-4o-mini"). */
  model: string;
  /** The sampling temperature of the call (default: the model's own). */
  temperature?: number;
  /**
   * The most tokens the model may write (`max_completion_tokens`; reasoning tokens included). Default: the model's own.
   */
  maxCompletionTokens?: number;
  /** For reasoning models: "minimal", "low", "medium", "high" (`reasoning_effort`). */
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
}

/** Options of `openAIEmbedder`. */
export interface OpenAIEmbedderOptions {
  /** The embedding model ("text-embedding-3-small"). */
  model: string;
  /** The length of its vectors (required: recall sizes its index by it). */
  dimensions: number;
  /** The name vectors are stored under (default: the model); another name embeds the chats again. */
  name?: string;
  /** Milliseconds a call may take before it is aborted and counted as failed (default 30,000). */
  timeoutMs?: number;
  /**
   * Send `dimensions` with the request (text-embedding-3 models shorten their vectors to it; others refuse it). Default
   * false.
   */
  requestDimensions?: boolean;
}

function checkClient(client: unknown, path: readonly string[], what: string): void {
  let at: unknown = client;
  for (const key of path) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
  if (typeof at !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes an OpenAI client (new OpenAI()) with ${path.join(".")}(); got ${describe(client)}.`,
    );
  }
}

function modelName(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0)
    throw new CtxloomError("INVALID_ARGUMENT", `${what} needs { model }, e.g. "gpt-4o-mini"; got ${describe(value)}.`);
  return value;
}

/**
 * A summarizer (`Loom.open({ summaries: { summarizer } })`) that asks an OpenAI chat model: one Chat
 * Completions request with the summary prompt as the system message and the messages as a
 * transcript (the previous summary first), aborted through the request's signal. Its time
 * limit is the summary policy's `timeoutMs`; a request that fails, runs out of time, is
 * refused or answers too long is replaced by the extractive summary, as with any summarizer.
 * @throws INVALID_ARGUMENT (not a client; bad or unknown options)
 */
export function openAISummarizer(client: OpenAIChatClientLike, options: OpenAISummarizerOptions): Summarizer {
  const what = "openAISummarizer(client, options)";
  checkClient(client, ["chat", "completions", "create"], "openAISummarizer(client)");
  const o = checkOptions<OpenAISummarizerOptions>(options, what, [
    "model",
    "temperature",
    "maxCompletionTokens",
    "reasoningEffort",
  ]);
  const model = modelName(o.model, what);
  if (
    o.temperature !== undefined &&
    (typeof o.temperature !== "number" || !(o.temperature >= 0 && o.temperature <= 2))
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.temperature must be a number from 0 to 2; got ${describe(o.temperature)}.`,
    );
  }
  if (o.maxCompletionTokens !== undefined)
    checkInteger(o.maxCompletionTokens, `${what}.maxCompletionTokens`, 1, 2 ** 30);
  if (o.reasoningEffort !== undefined && !["minimal", "low", "medium", "high"].includes(o.reasoningEffort)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.reasoningEffort must be "minimal", "low", "medium" or "high"; got ${describe(o.reasoningEffort)}.`,
    );
  }
  const settings = {
    ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
    ...(o.maxCompletionTokens === undefined ? {} : { max_completion_tokens: o.maxCompletionTokens }),
    ...(o.reasoningEffort === undefined ? {} : { reasoning_effort: o.reasoningEffort }),
  };
  return async (request) => {
    const messages = [
      { role: "system" as const, content: request.prompt },
      { role: "user" as const, content: summaryTranscript(request) },
    ];
    const completion = await client.chat.completions.create(
      { model, messages, ...settings },
      { signal: request.signal },
    );
    const message = completion.choices[0]?.message;
    if (!message || typeof message.content !== "string")
      throw new Error(`${model} gave no summary${message?.refusal ? ` (refused: ${message.refusal})` : ""}`);
    return message.content;
  };
}

/**
 * An embedder (`Loom.open({ recall: { embedder } })`) of an OpenAI embedding model: one `embeddings.create`
 * request per batch, aborted through the call's signal after `timeoutMs`. Vectors must have
 * `dimensions` numbers (a model answering otherwise fails the call: EMBEDDER_FAILED, and
 * the texts stay queued).
 * @throws INVALID_ARGUMENT (not a client; bad or unknown options)
 */
export function openAIEmbedder(client: OpenAIEmbeddingsClientLike, options: OpenAIEmbedderOptions): Embedder {
  const what = "openAIEmbedder(client, options)";
  checkClient(client, ["embeddings", "create"], "openAIEmbedder(client)");
  const o = checkOptions<OpenAIEmbedderOptions>(options, what, [
    "model",
    "dimensions",
    "name",
    "timeoutMs",
    "requestDimensions",
  ]);
  const model = modelName(o.model, what);
  const { dimensions, request } = embedderSize(o, what);
  const extra = request ? { dimensions } : {};
  const embedder: Embedder = {
    name: o.name ?? model,
    dimension: dimensions,
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    embed: async (texts, signal) => {
      const response = await client.embeddings.create({ model, input: texts, ...extra }, { signal: signal ?? null });
      return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
  };
  return checkEmbedder(embedder);
}
