import type { TokenCounter } from "../tokens/types.js";
import { extractiveSummary, type SummarizedMessage } from "./extractive.js";
import { DEFAULT_SUMMARY_PROMPT } from "./prompt.js";
import { withDeadline } from "../deadline.js";
import { loneSurrogate } from "../message.js";

/** What a summarizer callback receives. */
export interface SummarizeRequest {
  /** The messages to summarize, oldest first (an earlier summary they extend comes as `previousSummary`). */
  messages: SummarizedMessage[];
  /** The text of the summary these messages continue, if any. */
  previousSummary: string | null;
  /** The most tokens the summary may take (counted with the chat's counter); a longer one is refused. */
  maxTokens: number;
  /** The instructions to give the model (the default asks for context extraction), with `maxTokens` filled in. */
  prompt: string;
  /** Aborted when the summarizer runs past its time. */
  signal: AbortSignal;
}

/** An LLM summarizer: returns the summary text. */
export type Summarizer = (request: SummarizeRequest) => Promise<string> | string;

/** Why a summarizer's answer was not used. */
export type SummaryFallback = "threw" | "timeout" | "empty" | "not-a-string" | "too-long" | "invalid-text";

export interface SummaryText {
  text: string;
  /** "llm" when the callback's answer was used, else "extractive". */
  source: "llm" | "extractive";
  /** Set when a callback was given and its answer was not used. */
  fallback?: SummaryFallback;
}

/**
 * Summarizes with the callback when one is given, else extractively. A callback that
 * throws, runs past `timeoutMs` (it is aborted through its signal), or returns something
 * that is not a non-empty string within `maxTokens` is replaced by the extractive summary,
 * and the reason is returned. Never rejects.
 */
export async function summarizeRun(
  messages: SummarizedMessage[],
  previousSummary: string | null,
  maxTokens: number,
  counter: TokenCounter,
  options: { summarizer?: Summarizer; prompt?: string; timeoutMs: number },
): Promise<SummaryText> {
  const extractive = (fallback?: SummaryFallback): SummaryText => {
    const text = extractiveSummary(messages, maxTokens, counter, previousSummary ?? undefined);
    return fallback ? { text, source: "extractive", fallback } : { text, source: "extractive" };
  };
  const summarizer = options.summarizer;
  if (!summarizer) return extractive();
  let answer: unknown;
  try {
    const prompt = (options.prompt ?? DEFAULT_SUMMARY_PROMPT).replaceAll("{maxTokens}", String(maxTokens));
    const copies = messages.map((m) => ({ ...m }));
    const ended = await withDeadline(
      (signal) => summarizer({ messages: copies, previousSummary, maxTokens, prompt, signal }),
      options.timeoutMs,
    );
    if (!ended.ok) return extractive("timeout");
    answer = ended.value;
  } catch {
    return extractive("threw");
  }
  if (typeof answer !== "string") return extractive("not-a-string");
  const text = answer.trim();
  if (text.length === 0) return extractive("empty");
  if (loneSurrogate(text) >= 0) return extractive("invalid-text");
  let tokens: number;
  try {
    tokens = counter.count(text);
  } catch {
    return extractive("invalid-text");
  }
  if (tokens > maxTokens) return extractive("too-long");
  return { text, source: "llm" };
}
