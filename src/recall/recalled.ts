import type { Message } from "../message.js";
import { toTranscript } from "../context/format.js";
import type { RecallHub } from "./hub.js";
import type { RecallQuery } from "./memory.js";
import type { ChatRecallOptions, RecalledMessage } from "./options.js";
import { rankingWant, recallExchanges, type RecallReason } from "./policy.js";
import type { Scope } from "./scope.js";

/** A recalled exchange, with its messages. */
export interface ExchangeHit {
  score: number | null;
  /**
   * Its relevance to the query, to choose what fits: its best message's ranking score; for
   * an answer found like a recalled one, that one's score times their similarity; 0 for a
   * recent one.
   */
  rank: number;
  reason: RecallReason;
  /** Orders exchanges oldest first across the scope. */
  order: number;
  messages: RecalledMessage[];
}

/** The `k` messages of the scope that match the query best, best first (`chat.recall(q, { k })`). */
export function topMessages(
  hub: RecallHub,
  userId: string,
  scope: Scope,
  query: RecallQuery,
  k: number,
  minScore?: number,
): RecalledMessage[] {
  if (k === 0) return [];
  const ranked = hub.user(userId).memory.rank(query, scope.exchanges, k, minScore);
  return ranked.slice(0, k).map((r) => {
    const found = scope.lookup(r.key)!;
    return { message: found.message, chatId: found.chatId, score: r.score, reason: "match" as const };
  });
}

/** Runs the ranking and the policy over a scope: the exchanges to recall, as the policy orders them (best first). */
export function recallIn(
  hub: RecallHub,
  userId: string,
  scope: Scope,
  query: RecallQuery,
  options: ChatRecallOptions,
  exclude: readonly number[] = [],
): ExchangeHit[] {
  const memory = hub.user(userId).memory;
  const { scope: _scope, k: _k, ...counts } = options;
  const ranked = memory.rank(query, scope.exchanges, rankingWant(counts, exclude.length), counts.minScore);
  const result = recallExchanges(
    { messages: scope.exchanges, ranked, answers: memory.answers },
    { ...counts, exclude },
  );
  const anchor = new Map<number, number>(); // answer key -> its matched exchange's score
  for (const e of result.exchanges) if (e.reason === "prompt") for (const key of e.keys) anchor.set(key, e.score ?? 0);
  return result.exchanges.map((e) => ({
    score: e.score,
    rank:
      e.reason === "prompt" ? (e.score ?? 0) : e.reason === "similar" ? (anchor.get(e.via!) ?? 0) * (e.score ?? 0) : 0,
    reason: e.reason,
    order: scope.exchanges.order(e.start),
    messages: e.keys.map((key) => {
      const found = scope.lookup(key)!;
      return { message: found.message, chatId: found.chatId, score: e.score, reason: e.reason };
    }),
  }));
}

/** The recalled text for the memory message. */
export const RECALL_HEADER = "Recalled from earlier messages:";

/** A message's day (UTC), as the transcript shows it: "2023-05-08". */
const dayOf = (m: Message): string =>
  Number.isFinite(m.createdAt) ? new Date(m.createdAt).toISOString().slice(0, 10) : "";

/**
 * The memory text: the header, then each exchange as a transcript whose lines carry their
 * day (`[2023-05-08] User: ...`), so that a model can answer when something was said.
 */
export function recallText(exchanges: readonly ExchangeHit[]): string {
  if (exchanges.length === 0) return "";
  const lines = (e: ExchangeHit) =>
    e.messages.map((r) => `[${dayOf(r.message)}] ${toTranscript([r.message])}`).join("\n\n");
  return `${RECALL_HEADER}\n\n${exchanges.map(lines).join("\n\n")}`;
}

/**
 * The exchanges that fit the memory slice: most relevant first (see ExchangeHit.rank; the
 * newer first among equals), each kept whole if `fits` accepts the text with it, else left
 * out; returned oldest first.
 */
export function fitExchanges(exchanges: readonly ExchangeHit[], fits: (text: string) => boolean): ExchangeHit[] {
  const byTime = [...exchanges].sort((a, b) => a.order - b.order);
  const order = byTime.map((_e, i) => i).sort((a, b) => byTime[b]!.rank - byTime[a]!.rank || b - a);
  const kept = new Set<number>();
  for (const i of order) {
    kept.add(i);
    if (!fits(recallText(byTime.filter((_, j) => kept.has(j))))) kept.delete(i);
  }
  return byTime.filter((_, j) => kept.has(j));
}
