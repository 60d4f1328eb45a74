import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { EmbeddingIndex } from "./embedding-index.js";
import { ExchangeScope, type PolicyScope, type RecallMessage } from "./exchanges.js";
import type { Ranked } from "./rank.js";

// The recall policy: which past exchanges to bring back into a context, given the scope's
// messages ranked for a query (rank.ts: every user and assistant message, both channels).
// The exchanges of the best `prompts` matches, the answers most similar to theirs, and the
// last N exchanges, all configurable. An exchange is a user message and every message below
// it up to the next user message (assistant replies, tool calls and their results), so tool
// units never split; exchanges come back whole or not at all.

export type { RecallMessage, PolicyScope } from "./exchanges.js";

export interface RecallOptions {
  /** Exchanges holding the best matches for the query (default 5). */
  prompts?: number;
  /** For each such exchange's answer, the most similar answers of other exchanges (default 0). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope (default 0). */
  recent?: number;
  /** Messages whose vector is less similar than this cosine similarity are left out (default: none). */
  minScore?: number;
  /** Keys already in the context window: an exchange holding any of them is not recalled. */
  exclude?: Iterable<number>;
}

/** The defaults of RecallOptions (measured: bench/results/recall-quality.md, "recall in a build"). */
export const RECALL_DEFAULTS = { prompts: 5, answersPerPrompt: 0, recent: 0 } as const;

export interface RecallInput {
  /** The scope's messages (parents before children, creation order), or the scope grouped already. */
  messages: readonly RecallMessage[] | PolicyScope;
  /** The scope's messages that match the query, best first (rankMessages); empty: only the recent exchanges. */
  ranked: readonly Ranked[];
  /** Embeddings of the scope's assistant answers, for answersPerPrompt (none: no similar answers). */
  answers?: EmbeddingIndex | null;
}

/**
 * Why an exchange came back: it holds one of the best matches for the query, its answer resembles a matched one's, or
 * it is recent.
 */
export type RecallReason = "prompt" | "similar" | "recent";

export interface RecalledExchange {
  /** Key of the user message that opens it. */
  start: number;
  /** Its messages' keys, in scope order (summaries left out). */
  keys: number[];
  reason: RecallReason;
  /**
   * "prompt": its best message's ranking score; "similar": its answer's cosine with the matched answer; null for
   * "recent".
   */
  score: number | null;
  /** For "similar": the key of the recalled answer it resembles. */
  via?: number;
}

export interface RecallResult {
  /** The recalled exchanges: the matched ones best first, then the similar, then the recent (newest first). */
  exchanges: RecalledExchange[];
  /** Their messages, exchange after exchange, each with its exchange's reason and score. */
  messages: { key: number; reason: RecallReason; score: number | null }[];
}

const KNOWN = ["prompts", "answersPerPrompt", "recent", "minScore", "exclude"] as const;

function invalid(message: string): CtxloomError {
  return new CtxloomError("INVALID_ARGUMENT", message);
}

/** The scope of a message list, grouped; a PolicyScope as it is. @throws INVALID_ARGUMENT */
export function scopeGraph(messages: RecallInput["messages"]): PolicyScope {
  return messages instanceof ExchangeScope ||
    (!Array.isArray(messages) && messages !== null && typeof messages === "object")
    ? (messages as PolicyScope)
    : ExchangeScope.of(messages as readonly RecallMessage[]);
}

/**
 * How many ranked messages the policy may need for these options: enough for `prompts` exchanges past the excluded
 * ones.
 */
export function rankingWant(o: RecallOptions, excluded = 0): number {
  return 2 * (o.prompts ?? RECALL_DEFAULTS.prompts) + excluded;
}

/** The best `k` hits that `allowed` accepts: searches again, asking for more, when too many were refused. */
function similarAnswers(
  index: EmbeddingIndex,
  like: Float32Array,
  k: number,
  minScore: number | undefined,
  allowed: (key: number) => boolean,
) {
  if (k === 0 || index.size === 0) return [];
  for (let want = k; ; want = Math.min(want * 4, index.size)) {
    const hits = index.search(like, { k: want, minScore });
    const kept = hits.filter((h) => allowed(h.key));
    if (kept.length >= k || hits.length < want || want >= index.size) return kept.slice(0, k);
  }
}

/**
 * Chooses the exchanges to recall (see RecallOptions for the counts): those of the best
 * ranked messages, best first, then answers like theirs, then the newest. Each comes whole;
 * exchanges touching `exclude` (the window) and summaries are never returned. Pure: changes
 * nothing. Throws INVALID_ARGUMENT for bad messages or options (k < 0, unknown keys).
 */
export function recallExchanges(input: RecallInput, options?: RecallOptions): RecallResult {
  const o = checkRecallOptions(options);
  const prompts = o.prompts ?? RECALL_DEFAULTS.prompts;
  const k2 = o.answersPerPrompt ?? RECALL_DEFAULTS.answersPerPrompt;
  const recent = o.recent ?? RECALL_DEFAULTS.recent;
  if (input === null || typeof input !== "object" || !Array.isArray(input.ranked)) {
    throw invalid(`recall needs { messages, ranked, answers? }; got ${describe(input)}.`);
  }
  const scope = scopeGraph(input.messages);
  const blocked = new Set<number>(); // exchanges with a message in the window
  for (const key of o.exclude ?? []) {
    const start = scope.exchangeOf(key);
    if (start >= 0) blocked.add(start);
  }
  const chosen = new Map<number, RecalledExchange>();
  const choose = (start: number, reason: RecallReason, score: number | null, via?: number) => {
    if (start < 0 || blocked.has(start) || chosen.has(start)) return false;
    chosen.set(start, { start, keys: [...scope.members(start)], reason, score, ...(via === undefined ? {} : { via }) });
    return true;
  };

  // The exchanges of the best matches, best first.
  const matched: number[] = [];
  for (const hit of input.ranked) {
    if (matched.length >= prompts) break;
    if (!scope.eligible(hit.key)) continue;
    const start = scope.exchangeOf(hit.key);
    if (choose(start, "prompt", hit.score)) matched.push(start);
  }
  // For each, its newest indexed answer: the k2 answers most like it, from other exchanges.
  const answers = input.answers;
  if (k2 > 0 && answers)
    for (const start of matched) {
      const answer = scope.members(start).findLast((key) => scope.role(key) === "assistant" && answers.has(key));
      if (answer === undefined) continue;
      const like = answers.vector(answer);
      if (like.every((x) => x === 0)) continue; // an answer of only stop words resembles nothing
      const open = (key: number) =>
        scope.eligible(key) &&
        scope.role(key) === "assistant" &&
        !chosen.has(scope.exchangeOf(key)) &&
        !blocked.has(scope.exchangeOf(key));
      for (const hit of similarAnswers(answers, like, k2, o.minScore, open))
        choose(scope.exchangeOf(hit.key), "similar", hit.score, answer);
    }
  // The newest exchanges (those in the window are there already).
  for (const start of recent > 0 ? scope.newest(recent) : []) choose(start, "recent", null);
  const exchanges = [...chosen.values()];
  return {
    exchanges,
    messages: exchanges.flatMap((e) => e.keys.map((key) => ({ key, reason: e.reason, score: e.score }))),
  };
}

/**
 * Checks recall options (counts >= 0, minScore from -1 to 1, exclude iterable, no unknown key). Throws
 * INVALID_ARGUMENT.
 */
export function checkRecallOptions(options: unknown): RecallOptions {
  const o = checkOptions<RecallOptions>(options, "recall options", KNOWN);
  if (o.prompts !== undefined) checkInteger(o.prompts, "recall prompts", 0);
  if (o.answersPerPrompt !== undefined) checkInteger(o.answersPerPrompt, "recall answersPerPrompt", 0);
  if (o.recent !== undefined) checkInteger(o.recent, "recall recent", 0);
  if (o.minScore !== undefined && (typeof o.minScore !== "number" || !(o.minScore >= -1 && o.minScore <= 1))) {
    throw invalid(`recall minScore must be a number from -1 to 1; got ${describe(o.minScore)}.`);
  }
  if (
    o.exclude !== undefined &&
    (o.exclude === null || typeof (o.exclude as Iterable<number>)[Symbol.iterator] !== "function")
  ) {
    throw invalid(`recall exclude must be an iterable of keys; got ${describe(o.exclude)}.`);
  }
  return o;
}
