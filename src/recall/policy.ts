import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { EmbeddingIndex, Hit } from "./embedding-index.js";

// The recall policy: which past exchanges to bring back into a context, given a query.
// The k most similar user prompts, the answers to them, the answers most similar to those
// answers, and the last N exchanges, all configurable. An exchange is a user message and
// every message below it up to the next user message (assistant replies, tool calls and
// their results), so tool units never split; exchanges come back whole or not at all.

/** A message of the recall scope, as the policy needs it (no text). */
export interface RecallMessage {
  /** Its key in the scope's indexes (the message id in a chat; a KeyMap key across chats). */
  key: number;
  /** Key of its parent, -1 for a root. The parent comes earlier in the list. */
  parent: number;
  role: "system" | "user" | "assistant" | "tool";
  /** "summary": never recalled (a summary stands for originals; it is not one). Default "message". */
  kind?: "message" | "summary";
  /** Key of the assistant message whose tool calls this message belongs to (for that message and its tool results). */
  unit?: number;
}

export interface RecallOptions {
  /** User prompts most similar to the query (default 2). */
  prompts?: number;
  /** For each such prompt's answer, the most similar other answers (default 3). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope (default 5). */
  recent?: number;
  /** Similarity hits scoring below this cosine similarity are left out (default: none). */
  minScore?: number;
  /** Keys already in the context window: an exchange holding any of them is not recalled. */
  exclude?: Iterable<number>;
}

export interface RecallInput {
  /** The scope's messages, parents before children (creation order). */
  messages: readonly RecallMessage[];
  /** Embeddings of the scope's user prompts, keyed like `messages`. */
  prompts: EmbeddingIndex;
  /** Embeddings of the scope's assistant answers, keyed like `messages`. */
  answers: EmbeddingIndex;
  /** The query's embedding (usually of the new user input); null recalls only the recent exchanges. */
  query: Float32Array | ArrayLike<number> | null;
}

/** Why an exchange came back: its prompt matched the query, its answer matched a recalled answer, or it is recent. */
export type RecallReason = "prompt" | "similar" | "recent";

export interface RecalledExchange {
  /** Key of the user message that opens it. */
  start: number;
  /** Its messages' keys, in scope order (summaries left out). */
  keys: number[];
  reason: RecallReason;
  /** The similarity that brought it ("prompt": prompt vs query; "similar": answer vs answer); null for "recent". */
  score: number | null;
  /** For "similar": the key of the recalled answer it resembles. */
  via?: number;
}

export interface RecallResult {
  /** The recalled exchanges, oldest first. */
  exchanges: RecalledExchange[];
  /** Their messages, oldest first, each with its exchange's reason and score. */
  messages: { key: number; reason: RecallReason; score: number | null }[];
}

const KNOWN = ["prompts", "answersPerPrompt", "recent", "minScore", "exclude"] as const;
const ROLES = new Set(["system", "user", "assistant", "tool"]);

interface Scope {
  /** key -> index in messages */
  at: Map<number, number>;
  /** exchange start of each message (-1: before any user message), by index */
  exchange: Int32Array;
  /** members of each exchange, by start key */
  members: Map<number, number[]>;
  /** exchange starts, oldest first */
  starts: number[];
}

function invalid(message: string): CtxloomError {
  return new CtxloomError("INVALID_ARGUMENT", message);
}

/** Checks the messages and groups them into exchanges. O(messages). */
function scopeOf(messages: readonly RecallMessage[]): Scope {
  if (!Array.isArray(messages)) throw invalid(`recall messages must be an array; got ${describe(messages)}.`);
  const at = new Map<number, number>();
  const exchange = new Int32Array(messages.length);
  const members = new Map<number, number[]>();
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (m === null || typeof m !== "object") throw invalid(`recall message ${i} must be an object; got ${describe(m)}.`);
    checkInteger(m.key, `recall message ${i} key`, 0, 2 ** 31 - 1);
    if (at.has(m.key)) throw invalid(`recall message key ${m.key} appears twice.`);
    if (!ROLES.has(m.role)) throw invalid(`recall message ${m.key} has role ${describe(m.role)}; expected system, user, assistant or tool.`);
    if (m.kind !== undefined && m.kind !== "message" && m.kind !== "summary") throw invalid(`recall message ${m.key} has kind ${describe(m.kind)}; expected "message" or "summary".`);
    const parent = m.parent === -1 ? -1 : at.get(m.parent);
    if (parent === undefined) throw invalid(`recall message ${m.key} names parent ${describe(m.parent)}, which is not an earlier message (list parents first; -1 for a root).`);
    let start = m.role === "user" && m.kind !== "summary" ? m.key : parent < 0 ? -1 : exchange[parent]!;
    if (m.unit !== undefined && !(m.unit === m.key && m.role === "assistant")) {
      const head = at.get(m.unit);
      if (head === undefined || messages[head]!.role !== "assistant") throw invalid(`recall message ${m.key} names unit ${describe(m.unit)}, which is not an earlier assistant message.`);
      start = exchange[head]!; // a tool unit lies in the exchange of its assistant message
    }
    at.set(m.key, i);
    exchange[i] = start;
    if (start < 0 || m.kind === "summary") return;
    let list = members.get(start);
    if (!list) {
      members.set(start, (list = []));
      starts.push(start);
    }
    list.push(m.key);
  });
  return { at, exchange, members, starts };
}

/** The best `k` hits that `allowed` accepts: searches again, asking for more, when too many were refused. */
function bestAllowed(index: EmbeddingIndex, query: Float32Array | ArrayLike<number>, k: number, minScore: number | undefined, allowed: (key: number) => boolean): Hit[] {
  if (k === 0 || index.size === 0) return [];
  for (let want = k; ; want = Math.min(want * 4, index.size)) {
    const hits = index.search(query, { k: want, minScore });
    const kept = hits.filter((h) => allowed(h.key));
    if (kept.length >= k || hits.length < want || want >= index.size) return kept.slice(0, k);
  }
}

/**
 * Chooses the exchanges to recall for `query` (see RecallOptions for the counts). Returns
 * them oldest first, each whole, scored; exchanges touching `exclude` (the window) and
 * summaries are never returned. Pure: changes nothing. Throws INVALID_ARGUMENT for bad
 * messages, options (k < 0, unknown keys) or query (wrong dimension, all zeros).
 */
export function recallExchanges(input: RecallInput, options?: RecallOptions): RecallResult {
  const o = checkRecallOptions(options);
  const k1 = o.prompts ?? 2;
  const k2 = o.answersPerPrompt ?? 3;
  const recent = o.recent ?? 5;
  const { messages, prompts, answers, query } = checkInput(input);
  const scope = scopeOf(messages);

  const blocked = new Set<number>(); // exchanges with a message in the window
  for (const key of o.exclude ?? []) {
    const i = scope.at.get(key);
    if (i !== undefined && scope.exchange[i]! >= 0) blocked.add(scope.exchange[i]!);
  }
  const chosen = new Map<number, RecalledExchange>();
  const choose = (start: number, reason: RecallReason, score: number | null, via?: number) => {
    if (chosen.has(start)) return;
    chosen.set(start, { start, keys: scope.members.get(start)!, reason, score, ...(via === undefined ? {} : { via }) });
  };
  const exchangeOf = (key: number): number => {
    const i = scope.at.get(key);
    return i === undefined || messages[i]!.kind === "summary" ? -1 : scope.exchange[i]!;
  };
  const open = (key: number, role: RecallMessage["role"]) => {
    const i = scope.at.get(key);
    const start = exchangeOf(key);
    return i !== undefined && messages[i]!.role === role && start >= 0 && !blocked.has(start) && !chosen.has(start);
  };

  // The k1 prompts most similar to the query, with their exchanges (the answers to them).
  const anchors: number[] = [];
  for (const hit of query === null ? [] : bestAllowed(prompts, query, k1, o.minScore, (key) => open(key, "user"))) {
    choose(exchangeOf(hit.key), "prompt", hit.score);
    anchors.push(exchangeOf(hit.key));
  }
  // For each, its newest indexed answer: the k2 answers most like it, from other exchanges.
  for (const start of anchors) {
    const answer = scope.members.get(start)!.findLast((key) => messages[scope.at.get(key)!]!.role === "assistant" && answers.has(key));
    if (answer === undefined || k2 === 0) continue;
    const like = answers.vector(answer);
    if (like.every((x) => x === 0)) continue; // an answer of only stop words resembles nothing
    for (const hit of bestAllowed(answers, like, k2, o.minScore, (key) => open(key, "assistant"))) {
      choose(exchangeOf(hit.key), "similar", hit.score, answer);
    }
  }
  // The newest exchanges (those in the window are there already).
  for (const start of scope.starts.slice(Math.max(0, scope.starts.length - recent))) {
    if (!blocked.has(start)) choose(start, "recent", null);
  }

  const exchanges = [...chosen.values()].sort((a, b) => scope.at.get(a.start)! - scope.at.get(b.start)!);
  return {
    exchanges,
    messages: exchanges.flatMap((e) => e.keys.map((key) => ({ key, reason: e.reason, score: e.score }))),
  };
}

/** Checks recall options (counts >= 0, minScore from -1 to 1, exclude iterable, no unknown key). Throws INVALID_ARGUMENT. */
export function checkRecallOptions(options: unknown): RecallOptions {
  const o = checkOptions<RecallOptions>(options, "recall options", KNOWN);
  if (o.prompts !== undefined) checkInteger(o.prompts, "recall prompts", 0);
  if (o.answersPerPrompt !== undefined) checkInteger(o.answersPerPrompt, "recall answersPerPrompt", 0);
  if (o.recent !== undefined) checkInteger(o.recent, "recall recent", 0);
  if (o.minScore !== undefined && (typeof o.minScore !== "number" || !(o.minScore >= -1 && o.minScore <= 1))) {
    throw invalid(`recall minScore must be a number from -1 to 1; got ${describe(o.minScore)}.`);
  }
  if (o.exclude !== undefined && (o.exclude === null || typeof (o.exclude as Iterable<number>)[Symbol.iterator] !== "function")) {
    throw invalid(`recall exclude must be an iterable of keys; got ${describe(o.exclude)}.`);
  }
  return o;
}

function checkInput(input: RecallInput): RecallInput {
  // An object with the right shape is all the policy reads; bad indexes or query are named.
  if (input === null || typeof input !== "object") throw invalid(`recall needs { messages, prompts, answers, query }; got ${describe(input)}.`);
  const { prompts, answers, query } = input;
  if (!prompts || !answers || typeof prompts.search !== "function" || typeof answers.search !== "function") {
    throw invalid("recall needs two EmbeddingIndex objects: prompts (user messages) and answers (assistant messages).");
  }
  if (prompts.dimension !== answers.dimension) {
    throw invalid(`recall's prompts and answers indexes differ in dimension (${prompts.dimension} and ${answers.dimension}); embed both with the same embedder.`);
  }
  if (query === null) return input;
  if (typeof query !== "object" || query.length !== prompts.dimension) {
    throw invalid(`The recall query must have ${prompts.dimension} numbers; got ${(query as { length?: number } | null)?.length ?? describe(query)}.`);
  }
  let zero = true;
  for (let j = 0; j < query.length; j++) {
    const x = query[j];
    if (typeof x !== "number" || !Number.isFinite(Math.fround(x))) throw invalid(`The recall query has ${String(x)} at position ${j}; every number must be finite.`);
    if (x !== 0) zero = false;
  }
  if (zero) throw invalid("The recall query is all zeros (an empty text?); recall needs a query with content.");
  return input;
}
