/**
 * What a context build takes and gives: BuildOptions (and the keys buildContext knows), the formats and the context
 * types of each, ContextWindow, and what a provider's counter is asked. What a context reports of its tokens (Usage,
 * ContextPressure, ViewCount, ProviderCount) lives in window-reports.ts, re-exported here.
 */
import type { Budget, BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelRef } from "../models/profiles.js";
import type { ToolsInput } from "../tokens/tools.js";
import type { Message } from "../message.js";
import type { AnthropicMessage, OpenAIMessage, ResponsesItem } from "./format.js";
import type { SummaryOptions } from "../summary/policy.js";
import type { ToolResultOptions } from "../models/tool-results.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import type { BuildRecallOptions, RecallDegraded } from "./recall-types.js";

export type { RecallScope, BuildRecallOptions, RecallDegraded, RecallFill } from "./recall-types.js";
export type { ContextSource } from "./source.js";
import type { MemoryRevision, MemoryScope } from "./memory-sent.js";

export type { MemoryRevision, MemoryScope } from "./memory-sent.js";
import type { ContextPressure, ProviderCount, Usage, ViewCount } from "./window-reports.js";

export type { ContextPressure, ProviderCount, Usage, ViewCount } from "./window-reports.js";

/** The options of `buildContext({ stablePrefix })`. */
export interface StablePrefixOptions {
  /**
   * The most of the conversation's room (a fraction from 0 to 0.5) that may be left unused to
   * keep the start of the request unchanged across builds. Default 0.1.
   */
  step?: number;
}

/** Options of `chat.buildContext()` and `chat.buildPrompt()`. */
export interface BuildOptions {
  /** System prompt; default: the chat's own (`create({ system })`). Truncated to its slice. */
  system?: string;
  /**
   * Memory text (facts, retrieved notes), sent as a second system message, after the working
   * memory the chat carries (see `memoryScope`). Truncated to its slice.
   */
  memory?: string;
  /**
   * Which working memory this context carries (in a chat: over the chat's and the Loom's
   * setting): "user" (the user's, `loom.user(id).memory`: the default), "chat" (the chat's own,
   * `chat.memory`) or "none". It goes first in the memory message, within the memory share.
   */
  memoryScope?: MemoryScope;
  /** The user's new message, when it is not appended to the chat: sent last, never truncated. */
  input?: string;
  /**
   * Model whose window sets the budget (a name, a profile or an AI SDK model); default: the chat's. Token counts stay
   * the chat model's.
   */
  model?: ModelRef;
  /**
   * At most this many of the branch's newest messages are considered (the newest user turn and CRITICAL ones come from
   * anywhere).
   */
  maxMessages?: number;
  /** Budget fractions for this call (default: the chat's, else the default 25/20/40/10/5). */
  budget?: Partial<BudgetSplit>;
  /**
   * Apply the history limits (turns, characters per turn, memory characters): true for the model's size class, or your
   * own. Default: the chat's setting, else off.
   */
  historyLimits?: boolean | Partial<HistoryLimits>;
  /**
   * Tools sent with the request: a list in one provider's shape (OpenAI Chat Completions,
   * Responses, Anthropic) or an AI SDK ToolSet, counted as their provider counts them (a
   * ToolSet as the model's provider) and taken from the window before the conversation.
   * `usage.tools` says how many tokens they cost.
   */
  tools?: ToolsInput;
  /** The most tokens the reply may have (the request's max_tokens): kept free in place of the budget's reserve. */
  maxOutputTokens?: number;
  /**
   * Keep the start of the request unchanged across builds once the window is full, so that
   * prompt caches hit: the oldest messages leave in steps, leaving up to `step` (default 0.1)
   * of the conversation's room unused. Default on; false for the plain selection.
   */
  stablePrefix?: boolean | StablePrefixOptions;
  /** Anthropic format only: mark the last block as a prompt-caching breakpoint (`cache_control`). Default false. */
  cacheControl?: boolean;
  /**
   * "openai" (default), "anthropic" (system apart, roles alternating, the user first) or "responses" (OpenAI Responses
   * API input items).
   */
  format?: ContextFormat;
  /**
   * Summaries for this call: true (on, with the chat's and the Loom's settings), false (no new
   * summary in this call: trigger "manual"), or settings (`trigger`, `select`, `maxTokens`,
   * `timeoutMs`), each winning over the chat's and the Loom's. Default: theirs, else off. See SummaryOptions.
   */
  summaries?: boolean | Omit<SummaryOptions, "summarizer" | "prompt" | "presentation">;
  /**
   * Semantic recall (chats of a Loom with an embedder): true for the defaults, or its
   * options. Recalled exchanges go into the memory message, within the memory slice.
   */
  recall?: boolean | BuildRecallOptions;
  /**
   * How this call sends tool results (over the chat's and the Loom's, key by key): `truncate`
   * sends a result too large cut, `clear` sends older results as placeholders. The chat keeps
   * every result whole. See ToolResultOptions.
   */
  toolResults?: ToolResultOptions;
  /**
   * How many of the newest turns (answers: what follows a user message) send their reasoning
   * (thinking blocks, reasoning items and parts); older turns' is left out. A count or "all";
   * over the chat's and the Loom's. Default 1. Whatever it says, the turn under way (a tool loop
   * since the newest user message) sends its reasoning, as Anthropic and OpenAI require during
   * tool use. The chat keeps every reasoning part: `path()` still gives them.
   */
  reasoningTurns?: ReasoningTurns;
  /**
   * Ask the provider for the request's count when it matters (`anthropicCounter(client)` from
   * ctxloom/anthropic, `geminiCounter(fetch)`, or your own): a build whose calibrated count is
   * within the counter's margin of the limit (or whose model and script nothing has calibrated
   * yet) is counted by the provider's own endpoint, within the counter's timeout; the count is
   * learned as `observeUsage` learns a report, and a request it puts over the limit is built again
   * within it. Without an answer in time the calibrated estimate stands. `ctx.providerCount`
   * says what happened. Chats only (`chat.buildContext`, `openAILoop`, `anthropicLoop`).
   */
  providerCounter?: ProviderCounter;
}

/** The API shapes a context can be built in. */
export type ContextFormat = "openai" | "anthropic" | "responses";

/** The message type of each format. */
export interface FormatMessages {
  /** OpenAI Chat Completions messages (format "openai"). */
  openai: OpenAIMessage;
  /** Anthropic Messages API messages (format "anthropic"). */
  anthropic: AnthropicMessage;
  /** OpenAI Responses API input items (format "responses"). */
  responses: ResponsesItem;
}

/** The format a list of messages is in (both: either). */
export type FormatOfMessages<M> = [M] extends [OpenAIMessage]
  ? "openai"
  : [M] extends [AnthropicMessage]
    ? "anthropic"
    : [M] extends [ResponsesItem]
      ? "responses"
      : ContextFormat;

/**
 * The context built in format F; for a union ("openai" | "anthropic" chosen at run time),
 * a union of contexts told apart by their `format` field.
 */
export type ContextWindowOf<F extends ContextFormat> = F extends ContextFormat
  ? ContextWindow<FormatMessages[F]>
  : never;

/** The format options ask for: their `format`, "openai" when it is left out (or may be). */
export type FormatOf<O> = O extends undefined
  ? "openai"
  : "format" extends keyof O
    ? (undefined extends O["format" & keyof O] ? "openai" : never) | Extract<O["format" & keyof O], ContextFormat>
    : "openai";

/** What `buildContext(options)` returns for options of type O. */
export type ContextWindowFor<O extends BuildOptions | undefined> = ContextWindowOf<FormatOf<O>>;

/** What `chat.buildContext()` returns. */
export interface ContextWindow<M = OpenAIMessage | AnthropicMessage | ResponsesItem> {
  /** The format of `messages`: narrow on it when the format was chosen at run time. */
  format: FormatOfMessages<M>;
  /**
   * Ready for the API: OpenAI chat messages (the `openai` package's ChatCompletionMessageParam[]), Anthropic messages
   * (MessageParam[], with `system` apart), or Responses API input items (ResponseInputItem[]). The array is this
   * context's own; treat the messages in it as read-only: a chat's OpenAI context of 256 messages or more hands the
   * objects of its previous one out again, frozen (copy a message to change it).
   */
  messages: M[];
  /**
   * The system text sent (truncated to its slice; for Anthropic it also holds memory and system messages of the chat).
   */
  system: string;
  /**
   * The memory text sent (truncated to its slice): the working memory carried, then the call's `memory`, then what
   * recall brought.
   */
  memory: string;
  /**
   * The working memory this context carried (see `memoryScope`): which one, its revision, and
   * what the memory share left out of it; null when it carried none ("none", a build outside a
   * chat, or a store that keeps no memory).
   */
  memoryRevision: MemoryRevision | null;
  /** The input sent, if any. */
  input: string | null;
  /** Tokens per part of the context, its total and its limit. */
  usage: Usage;
  /** How full the request is, and when the chat next summarizes or clears. */
  pressure: ContextPressure;
  /** The chat messages kept, oldest first. */
  conversation: Message[];
  /**
   * Messages recalled from older exchanges, oldest first, sent in the memory message (empty: recall is off or found
   * nothing).
   */
  recalled: Message[];
  /**
   * Null when recall ran with every vector it asked for (or did not run); else how a slow or
   * failing embedder left it short: the build recalled with what it had, in at most the
   * embedder's `recallTimeoutMs`, instead of failing.
   */
  recallDegraded: RecallDegraded | null;
  /**
   * Messages of the branch (`chat.path()`) this context leaves out: neither in `conversation`
   * nor in the run of a summary it sends. Those outside `maxMessages` or the history limits'
   * turns count too; a summary left out counts the messages of its run (a recalled message,
   * sent in the memory text and listed in `recalled`, counts as left out of the conversation).
   */
  evicted: number;
  /** Whether a summary stands for older messages in this context. */
  compressed: boolean;
  /**
   * Tool results this context sends as a placeholder (`toolResults: { clear }`), and the tokens
   * that saved. The chat keeps them whole: `chat.get(id)` and `path()` still give them.
   */
  cleared: ViewCount;
  /** Tool results this context sends cut (`toolResults: { truncate }`), and the tokens that saved. */
  truncated: ViewCount;
  /** The text of the newest summary sent in this context, or null when none is. */
  summary: string | null;
  /** The model and budget the context was built for. */
  model: string;
  /** The budget the context was built within: each part's share in tokens. */
  budget: Budget;
  /**
   * With `providerCounter`: whether the provider was asked, what it counted, and the builds made again; absent without
   * one.
   */
  providerCount?: ProviderCount;
}

/** What a counter is asked to count: the context a build made, for the model the counter counts. */
export interface ProviderCountRequest {
  /** The model the context was built for (ctxloom's name of it; a counter may send its own `model` instead). */
  model: string;
  /** The context, in the counter's format: what the app sends. */
  context: ContextWindow;
  /** The tools the build was given (`buildContext({ tools })`), as given; undefined when none. */
  tools: ToolsInput | undefined;
  /** Aborted when the count is no longer waited for (the counter's `timeoutMs` passed). */
  signal: AbortSignal;
}

/**
 * A provider's count of a request, for `chat.buildContext({ providerCounter })`, `openAILoop`
 * and `anthropicLoop`: `anthropicCounter(client)` (ctxloom/anthropic), `geminiCounter(fetch)`, or
 * one of the app's own with these fields.
 */
export interface ProviderCounter {
  /** Names the counter in messages ("anthropic", "gemini"). */
  readonly name: string;
  /** The format of the contexts it counts: a build in another format is refused. */
  readonly format: ContextFormat;
  /** Builds within this share of their limit are counted (from 0 to 0.5). */
  readonly margin: number;
  /** How long a count may take, in ms, before the build goes with its calibrated estimate. */
  readonly timeoutMs: number;
  /** The provider's count of the request's input tokens; rejects when the provider cannot say. */
  count(request: ProviderCountRequest): Promise<number>;
}

/** The options buildContext knows; any other key is refused, naming the closest. */
export const BUILD_KEYS = [
  "system",
  "memory",
  "input",
  "model",
  "maxMessages",
  "budget",
  "historyLimits",
  "format",
  "summaries",
  "tools",
  "maxOutputTokens",
  "cacheControl",
  "stablePrefix",
  "toolResults",
  "reasoningTurns",
  "memoryScope",
] as const;
