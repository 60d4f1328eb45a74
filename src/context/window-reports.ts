/**
 * What a built context reports of its tokens (its fields `usage`, `pressure`, `views` and `providerCount`): the tokens
 * per part, how full it is, what views saved, and what the provider's count said.
 */

/** Tokens per part of a built context. `total` is the cookbook count of `messages` and never exceeds `limit`. */
export interface Usage {
  /** Tokens of the system prompt. */
  system: number;
  /** Tokens of memory (the user's working memory and recalled messages). */
  memory: number;
  /** Tokens of the conversation's messages. */
  conversation: number;
  /** Tokens of the input. */
  input: number;
  /** Tool definitions (present when `tools` were given). */
  tools?: number;
  /** Tokens of the whole request: every part with each message's overhead and the reply's priming. */
  total: number;
  /** The effective window less the reserve (or less `maxOutputTokens` when given): what a request may use. */
  limit: number;
}

/** How full a context is, and when the chat next compacts: what a UI meter shows. */
export interface ContextPressure {
  /** The share of what the request may hold that it holds: `usage.total / usage.limit`, from 0 to 1. */
  readonly used: number;
  /**
   * The request size (in tokens, as `usage.total` counts) at which a build next summarizes the
   * oldest messages: the trigger in force (see SummaryOptions); null when builds do not summarize (no level turns
   * summaries on, or trigger "manual").
   */
  readonly summarizeAt: number | null;
  /**
   * The request size at which older tool results start being cleared (`toolResults.clear`'s
   * trigger); null when clearing is off, or already under way (it then clears in batches).
   */
  readonly clearAt: number | null;
}

/** How many messages a context sends otherwise than the chat holds them, which, and the tokens that saved. */
export interface ViewCount {
  /** How many messages. */
  readonly count: number;
  /** The tokens that saved in this context. */
  readonly tokens: number;
  /** Their ids, in path order (the messages `chat.get(id)` gives whole). */
  readonly ids: readonly number[];
}

/** What the provider's count said of a context built with `providerCounter` (`ctx.providerCount`). */
export interface ProviderCount {
  /**
   * Whether the provider was asked: a build near its limit (within the counter's margin), one
   * built again, or one of a model and script whose counts nothing has calibrated yet.
   */
  asked: boolean;
  /**
   * The provider's count of the request this context sends; null when not asked or no count came (`usage.total`,
   * calibrated, stands).
   */
  tokens: number | null;
  /**
   * What the request may hold in the provider's tokens: the budget's effective window less the reserve (or
   * `maxOutputTokens`).
   */
  limit: number;
  /** Builds made again, each smaller, because the provider counted one over `limit`. */
  rebuilds: number;
  /**
   * Why no count came, when one was asked for: "timeout" (none within the counter's `timeoutMs`)
   * or "failed" (the call failed, or answered no count), with the error's message; null otherwise.
   */
  fallback: { reason: "timeout" | "failed"; message: string } | null;
}
