import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { Message } from "../message.js";
import type { BuildRecallOptions, RecallScope } from "../context/types.js";
import { checkRecallOptions, type RecallReason } from "./policy.js";

/** Options of `chat.recall(query, options)`: `k`, or the exchange counts (`prompts`, `answersPerPrompt`, `recent`). */
export interface ChatRecallOptions {
  /**
   * The `k` messages that match the query best (user and assistant alike), best first, each
   * on its own: the top-k call. Not with prompts, answersPerPrompt or recent, which ask for
   * whole exchanges.
   */
  k?: number;
  /** Exchanges holding the best matches for the query, best first (default 5). */
  prompts?: number;
  /** For each, the most similar answers of other exchanges (default 0). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope (default 0). */
  recent?: number;
  /** Messages whose vector is less similar than this cosine similarity are left out (default: none). */
  minScore?: number;
  /** "branch": the path to the head; "chat" (default): every branch; "user": all the user's chats. */
  scope?: RecallScope;
}

/** One recalled message. */
export interface RecalledMessage {
  /** The message recalled. */
  message: Message;
  /** The chat it belongs to (another chat's with scope "user"). */
  chatId: string;
  /**
   * How well it (or its exchange) matched the query: its ranking score (about 1 for the best
   * lexical match, more with similarity and neighbours; see docs/recall.md), comparable
   * within one call; for "similar", the cosine of its answer with the matched answer; null
   * for "recent".
   */
  score: number | null;
  /**
   * "match": one of the `k` best messages; "prompt": its exchange holds one of the best
   * matches; "similar": its answer resembles a recalled answer; "recent".
   */
  reason: RecallReason | "match";
}

const RECALL_KEYS = ["k", "prompts", "answersPerPrompt", "recent", "minScore", "scope"] as const;
const BUILD_RECALL_KEYS = ["query", "prompts", "answersPerPrompt", "recent", "minScore", "scope"] as const;

/** Checks `chat.recall` options. @throws INVALID_ARGUMENT */
export function checkChatRecall(options: unknown): ChatRecallOptions {
  const o = checkOptions<ChatRecallOptions>(options, "recall options", RECALL_KEYS);
  const { scope, k, ...counts } = o;
  checkRecallOptions(counts);
  if (k !== undefined) {
    checkInteger(k, "recall k", 0, 1 << 20);
    const mixed = (["prompts", "answersPerPrompt", "recent"] as const).filter((key) => counts[key] !== undefined);
    if (mixed.length > 0) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `recall k asks for the k best messages; ${mixed.join(", ")} ask for whole exchanges: give one or the other.`,
      );
    }
  }
  if (scope !== undefined && scope !== "branch" && scope !== "chat" && scope !== "user") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `recall scope must be "branch", "chat" or "user"; got ${describe(scope)}.`,
    );
  }
  return o;
}

/** Checks buildContext's `recall` option: null when off. @throws INVALID_ARGUMENT */
export function checkBuildRecall(value: unknown): BuildRecallOptions | null {
  if (value === undefined || value === false) return null;
  if (value === true) return {};
  const o = checkOptions<BuildRecallOptions>(value, "buildContext recall", BUILD_RECALL_KEYS);
  const { query, ...rest } = o;
  checkChatRecall(rest);
  if (query !== undefined && (typeof query !== "string" || query.trim() === "")) {
    throw new CtxloomError("INVALID_ARGUMENT", `recall query must be a non-empty text; got ${describe(query)}.`);
  }
  return o;
}
