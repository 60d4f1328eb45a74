import type { Usage } from "../context/build.js";

/** What `chat.stats()` returns. */
export interface ChatStats {
  /** Messages in the whole tree (every branch). */
  messages: number;
  /** Messages on the active branch (root to head). */
  branchMessages: number;
  model: string;
  contextWindow: number;
  /** The counter of the chat's messages ("o200k_base", "heuristic:0.28", ...). */
  tokenizer: string;
  /** The last built context's usage, or null before the first build. */
  lastUsage: Usage | null;
  /** Tokens of the last built context. */
  tokens: number;
  /** The last context's total as a percentage of its limit. */
  usagePercent: number;
  /** Messages of the branch the last context left out. */
  evicted: number;
  /** Summaries made so far, tokens they saved, and their average compression ratio (1: none). */
  compressions: number;
  tokensSaved: number;
  compressionRatio: number;
}

/** The stats of a chat from its sizes and its last context. */
export function chatStats(
  sizes: { messages: number; branchMessages: number; model: string; contextWindow: number; tokenizer: string },
  last: { usage: Usage | null; evicted: number },
): ChatStats {
  const usage = last.usage;
  return {
    ...sizes,
    lastUsage: usage ? { ...usage } : null,
    tokens: usage?.total ?? 0,
    usagePercent: usage ? Math.round((1000 * usage.total) / usage.limit) / 10 : 0,
    evicted: last.evicted,
    compressions: 0,
    tokensSaved: 0,
    compressionRatio: 1,
  };
}
