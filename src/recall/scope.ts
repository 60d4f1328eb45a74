import { CtxloomError, checkOptions, describe, fromStore } from "../errors.js";
import type { Message } from "../message.js";
import { toTranscript } from "../context/format.js";
import type { BuildRecallOptions, RecallScope } from "../context/types.js";
import { checkRecallOptions, recallExchanges, type RecallMessage, type RecallReason } from "./policy.js";
import type { RecallHub } from "./hub.js";
import type { MessageSource, RecallChat } from "./port.js";

/** Options of `chat.recall(query, options)`. */
export interface ChatRecallOptions {
  /** User prompts most similar to the query (default 2). */
  prompts?: number;
  /** For each, the most similar answers of other exchanges (default 3). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope (default 5). */
  recent?: number;
  /** Similarity hits below this cosine similarity are left out (default: none). */
  minScore?: number;
  /** "branch": the path to the head; "chat" (default): every branch; "user": all the user's chats. */
  scope?: RecallScope;
}

/** One recalled message. */
export interface RecalledMessage {
  message: Message;
  /** The chat it belongs to (another chat's with scope "user"). */
  chatId: string;
  /** The similarity that brought its exchange back; null for a recent exchange. */
  score: number | null;
  /** "prompt": its prompt matched the query; "similar": its answer resembles a recalled answer; "recent". */
  reason: RecallReason;
}

const RECALL_KEYS = ["prompts", "answersPerPrompt", "recent", "minScore", "scope"] as const;
const BUILD_RECALL_KEYS = ["query", ...RECALL_KEYS] as const;

/** Checks `chat.recall` options. @throws INVALID_ARGUMENT */
export function checkChatRecall(options: unknown): ChatRecallOptions {
  const o = checkOptions<ChatRecallOptions>(options, "recall options", RECALL_KEYS);
  const { scope, ...counts } = o;
  checkRecallOptions(counts);
  if (scope !== undefined && scope !== "branch" && scope !== "chat" && scope !== "user") {
    throw new CtxloomError("INVALID_ARGUMENT", `recall scope must be "branch", "chat" or "user"; got ${describe(scope)}.`);
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

/** What a recall scope holds: the policy's messages and a way back from keys to messages. */
export interface Scope {
  messages: RecallMessage[];
  lookup(key: number): { chatId: string; message: Message } | undefined;
}

function pathIds(source: MessageSource, head: number): number[] {
  const ids: number[] = [];
  for (let id = head; id >= 0; ) {
    ids.push(id);
    const parent = source.message(id).parentId;
    id = parent === null ? -1 : parent;
  }
  return ids.reverse();
}

/** Loads (once) the vectors of the scope's chats, flushes the queue, and lists the scope. */
export async function openScope(hub: RecallHub, chat: RecallChat, scope: RecallScope): Promise<Scope> {
  const store = hub.store;
  const sources = new Map<string, MessageSource>([[chat.chatId, chat.source]]);
  if (scope === "user") {
    const listed = await fromStore("listing chats", () => store.listChats(chat.userId));
    // Oldest updated first, so that the scope's newest exchanges are those of recent chats.
    const records = (Array.isArray(listed) ? [...listed] : []).sort((a, b) => a.updatedAt - b.updatedAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const record of records) {
      if (record.id === chat.chatId) continue;
      // Another chat's messages are read from the store once, and again only when it changed.
      const cache = hub.user(chat.userId).others;
      let messages = cache.get(record.id);
      if (!messages || messages.updatedAt !== record.updatedAt || messages.list.length !== record.messageCount) {
        const loaded = await fromStore("loading a chat for recall", () => store.loadChat(chat.userId, record.id));
        if (!loaded || !Array.isArray(loaded.messages)) continue;
        messages = { updatedAt: record.updatedAt, list: loaded.messages };
        cache.set(record.id, messages);
      }
      const list = messages.list;
      sources.set(record.id, { size: list.length, message: (id) => list[id]! });
    }
  }
  for (const [chatId, source] of sources) await hub.ensureChat(chat.userId, chatId, source);
  await hub.queue.flush();
  const messages: RecallMessage[] = [];
  for (const [chatId, source] of sources) {
    if (chatId === chat.chatId) continue;
    messages.push(...hub.scopeOf(chat.userId, chatId, source));
  }
  // The current chat last: its newest exchanges are the scope's recent ones.
  messages.push(...hub.scopeOf(chat.userId, chat.chatId, chat.source, scope === "branch" ? pathIds(chat.source, chat.head) : undefined));
  const keys = hub.user(chat.userId).keys;
  return {
    messages,
    lookup(key) {
      const pair = keys.pair(key);
      const source = pair && sources.get(pair.chat);
      return pair && source ? { chatId: pair.chat, message: source.message(pair.id) } : undefined;
    },
  };
}

/** A recalled exchange, with its messages. */
export interface ExchangeHit {
  score: number | null;
  /**
   * Its relevance to the query, to choose what fits: a prompt's score; for an answer found
   * like a recalled one, that one's prompt score times their similarity; 0 for a recent one.
   */
  rank: number;
  reason: RecallReason;
  messages: RecalledMessage[];
}

/** Runs the policy over a scope. Exchanges oldest first. */
export function recallIn(
  hub: RecallHub, userId: string, scope: Scope, query: Float32Array | null, options: ChatRecallOptions, exclude: readonly number[] = [],
): ExchangeHit[] {
  const memory = hub.user(userId).memory;
  const { scope: _scope, ...counts } = options;
  const result = recallExchanges({ messages: scope.messages, prompts: memory.prompts, answers: memory.answers, query }, { ...counts, exclude });
  const anchor = new Map<number, number>(); // answer key -> its prompt exchange's score
  for (const e of result.exchanges) if (e.reason === "prompt") for (const key of e.keys) anchor.set(key, e.score ?? 0);
  return result.exchanges.map((e) => ({
    score: e.score,
    rank: e.reason === "prompt" ? e.score ?? 0 : e.reason === "similar" ? (anchor.get(e.via!) ?? 0) * (e.score ?? 0) : 0,
    reason: e.reason,
    messages: e.keys.map((key) => {
      const found = scope.lookup(key)!;
      return { message: found.message, chatId: found.chatId, score: e.score, reason: e.reason };
    }),
  }));
}

/** The recalled text for the memory message. */
export const RECALL_HEADER = "Recalled from earlier messages:";

export function recallText(exchanges: readonly ExchangeHit[]): string {
  if (exchanges.length === 0) return "";
  return `${RECALL_HEADER}\n\n${exchanges.map((e) => toTranscript(e.messages.map((r) => r.message))).join("\n\n")}`;
}

/**
 * The exchanges that fit the memory slice: most relevant first (see ExchangeHit.rank; the
 * newer first among equals), each kept whole if `fits` accepts the text with it, else left
 * out; returned oldest first.
 */
export function fitExchanges(exchanges: readonly ExchangeHit[], fits: (text: string) => boolean): ExchangeHit[] {
  const order = exchanges.map((e, i) => i).sort((a, b) => exchanges[b]!.rank - exchanges[a]!.rank || b - a);
  const kept = new Set<number>();
  for (const i of order) {
    kept.add(i);
    if (!fits(recallText(exchanges.filter((_, j) => kept.has(j))))) kept.delete(i);
  }
  return exchanges.filter((_, j) => kept.has(j));
}
