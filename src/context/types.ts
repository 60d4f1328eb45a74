import type { Engine } from "../engine/types.js";
import type { Budget, BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelProfile, ModelRef } from "../models/profiles.js";
import type { TokenCounter } from "../tokens/types.js";
import type { ToolsInput } from "../tokens/tools.js";
import type { Message } from "../message.js";
import type { AnthropicMessage, OpenAIMessage, ResponsesItem } from "./format.js";
import type { SummaryPresentation } from "../summary/present.js";
import type { CallSummaryGroup } from "../summary/settings.js";
import type { SummaryOptions } from "../summary/policy.js";
import type { ToolResultOptions, ToolResultPolicy } from "../models/tool-results.js";
import type { ToolViewSource } from "./view-source.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import type { MemoryRevision, MemoryScope } from "./memory-sent.js";

export type { MemoryRevision, MemoryScope } from "./memory-sent.js";

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
  /** Model whose window sets the budget (a name, a profile or an AI SDK model); default: the chat's. Token counts stay the chat model's. */
  model?: ModelRef;
  /** At most this many of the branch's newest messages are considered (the newest user turn and CRITICAL ones come from anywhere). */
  maxMessages?: number;
  /** Budget fractions for this call (default: the chat's, else the default 25/20/40/10/5). */
  budget?: Partial<BudgetSplit>;
  /** Apply the history limits (turns, characters per turn, memory characters): true for the model's size class, or your own. Default: the chat's setting, else off. */
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
  /** "openai" (default), "anthropic" (system apart, roles alternating, the user first) or "responses" (OpenAI Responses API input items). */
  format?: ContextFormat;
  /**
   * Summaries for this call: `{ policy }`, true or a policy (over the chat's and the Loom's)
   * to summarize older messages when the conversation passes the trigger, false for no new
   * summary in this call (true / false alone stand for `{ policy: true }` / `{ policy: false }`).
   * Default: the chat's setting, else the Loom's, else off.
   */
  summaries?: boolean | CallSummaryGroup;
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
}

/** Where recall looks: the path to the head, every branch of the chat, or all the user's chats. */
export type RecallScope = "branch" | "chat" | "user";

/** The options of `buildContext({ recall })`. */
export interface BuildRecallOptions {
  /** The text to recall for; default: the build's input, else the newest user message of the branch. */
  query?: string;
  /** Exchanges holding the best matches for the query, user and assistant messages alike (default 5). */
  prompts?: number;
  /** For each such exchange's answer, the most similar answers of other exchanges (default 0). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope not in the window (default 0). */
  recent?: number;
  /** Messages whose vector is less similar than this cosine similarity are left out (default: none). */
  minScore?: number;
  /** "branch", "chat" (default) or "user". */
  scope?: RecallScope;
}

/**
 * How a build's recall fell short of its embedder (`ctx.recallDegraded`): the build did not wait
 * past the embedder's `recallTimeoutMs`, and recalled with what it had.
 */
export interface RecallDegraded {
  /**
   * "timeout": the embedder had not answered when the wait ended (its calls go on in the
   * background, within their `timeoutMs`); "failed": it threw or answered badly.
   */
  reason: "timeout" | "failed";
  /**
   * True: the query had no vector, so matches were found by their words alone (the lexical
   * channel; the answers' vectors already made still find similar answers). False: the query
   * had its vector, and only `pending` messages had none yet.
   */
  lexicalOnly: boolean;
  /** Messages of the recall's scope still waiting for their vectors (found by their words only); they are embedded in the background. */
  pending: number;
  /** The embedder's error ("EMBEDDER_FAILED: ..."), or null when it was only slow with the queued messages. */
  error: string | null;
}

/** What a recall hook gives the builder: the text to add to the memory message and the messages it holds. */
export interface RecallFill {
  text: string;
  messages: Message[];
}

/** The API shapes a context can be built in. */
export type ContextFormat = "openai" | "anthropic" | "responses";

/** The message type of each format. */
export interface FormatMessages {
  openai: OpenAIMessage;
  anthropic: AnthropicMessage;
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
export type ContextWindowOf<F extends ContextFormat> = F extends ContextFormat ? ContextWindow<FormatMessages[F]> : never;

/** The format options ask for: their `format`, "openai" when it is left out (or may be). */
export type FormatOf<O> = O extends undefined
  ? "openai"
  : "format" extends keyof O
    ? (undefined extends O["format" & keyof O] ? "openai" : never) | Extract<O["format" & keyof O], ContextFormat>
    : "openai";

/** What `buildContext(options)` returns for options of type O. */
export type ContextWindowFor<O extends BuildOptions | undefined> = ContextWindowOf<FormatOf<O>>;

/** Tokens per part of a built context. `total` is the cookbook count of `messages` and never exceeds `limit`. */
export interface Usage {
  system: number;
  memory: number;
  conversation: number;
  input: number;
  /** Tool definitions (present when `tools` were given). */
  tools?: number;
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
   * oldest messages: the summary policy's trigger; null when no summary policy is in force.
   */
  readonly summarizeAt: number | null;
  /**
   * The request size at which older tool results start being cleared (`toolResults.clear`'s
   * trigger); null when clearing is off, or already under way (it then clears in batches).
   */
  readonly clearAt: number | null;
}

/** What `chat.buildContext()` returns. */
export interface ContextWindow<M = OpenAIMessage | AnthropicMessage | ResponsesItem> {
  /** The format of `messages`: narrow on it when the format was chosen at run time. */
  format: FormatOfMessages<M>;
  /**
   * Ready for the API: OpenAI chat messages (the `openai` package's ChatCompletionMessageParam[]), Anthropic messages (MessageParam[], with `system` apart), or Responses API input items (ResponseInputItem[]).
   * The array is this context's own; treat the messages in it as read-only: a chat's OpenAI
   * context of 256 messages or more hands the objects of its previous one out again, frozen
   * (copy a message to change it).
   */
  messages: M[];
  /** The system text sent (truncated to its slice; for Anthropic it also holds memory and system messages of the chat). */
  system: string;
  /** The memory text sent (truncated to its slice): the working memory carried, then the call's `memory`, then what recall brought. */
  memory: string;
  /**
   * The working memory this context carried (see `memoryScope`): which one, its revision, and
   * what the memory share left out of it; null when it carried none ("none", a build outside a
   * chat, or a store that keeps no memory).
   */
  memoryRevision: MemoryRevision | null;
  /** The input sent, if any. */
  input: string | null;
  usage: Usage;
  /** How full the request is, and when the chat next summarizes or clears. */
  pressure: ContextPressure;
  /** The chat messages kept, oldest first. */
  conversation: Message[];
  /** Messages recalled from older exchanges, oldest first, sent in the memory message (empty: recall is off or found nothing). */
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
  budget: Budget;
}

/** How many messages a context sends otherwise than the chat holds them, which, and the tokens that saved. */
export interface ViewCount {
  readonly count: number;
  readonly tokens: number;
  /** Their ids, in path order (the messages `chat.get(id)` gives whole). */
  readonly ids: readonly number[];
}

/** What the builder needs of a chat. */
export interface ContextSource {
  engine: Engine;
  tree: number;
  /** -1 for an empty chat. */
  head: number;
  counter: TokenCounter;
  profile: Readonly<ModelProfile>;
  system: string | null;
  budget: Partial<BudgetSplit> | undefined;
  historyLimits: boolean | Partial<HistoryLimits> | undefined;
  message(id: number): Message;
  /**
   * Optional: message `id` read from what the chat holds, valid as long as the context is (even
   * once the chat is evicted). Given, a context in the OpenAI format makes its `conversation`
   * when first read instead of keeping an object per message it sent.
   */
  held?(id: number): Message;
  /**
   * Optional, with `held`: writes messages `ids` as the OpenAI format sends them into `into`
   * from index `at`, made with no Message on the way; null for a summary, which the build
   * presents itself. Returns how many summaries (nulls) it wrote. A chat hands out again the
   * (frozen) objects of its previous long context for the messages both send.
   */
  sendable?(ids: Int32Array, into: (OpenAIMessage | null)[], at: number): number;
  /** How summaries are sent (default "system"); their tokens were counted for it. */
  summaryPresentation?: SummaryPresentation;
  /**
   * Optional: false when the tree holds no CRITICAL assistant message with tool calls, so no
   * unit can break the promise of CRITICAL and the build skips checking the kept ones.
   */
  criticalCalls?: boolean;
  /**
   * Recall, when on: given the ids the window would hold without it and a test of whether a
   * memory text fits the memory slice, the recalled text (appended to the memory) and messages.
   */
  recall?: (window: readonly number[], fits: (memory: string) => boolean) => RecallFill;
  /** With `recall`: how it fell short of its embedder (the context's `recallDegraded`); null or absent when it did not. */
  recallDegraded?: RecallDegraded | null;
  /** Optional: refuse a `model` name the catalog lacks instead of reading it by its family (`Loom.open({ strictModels })`). */
  strictModels?: boolean;
  /** How the chat sends tool results (its Loom's and its own settings); default: DEFAULT_TOOL_RESULTS. */
  toolResults?: ToolResultPolicy;
  /** Optional: what views of tool results read of the chat; without it, every message is sent as held. */
  toolViews?: ToolViewSource;
  /** Optional: the chat's and its Loom's summary policies, for `pressure.summarizeAt` (a call's `summaries` goes over them). */
  summaryLevels?: { chat: SummaryOptions | undefined; loom: SummaryOptions | undefined };
  /** The chat's `reasoningTurns` (its own, else its Loom's), as set; default: DEFAULT_REASONING_TURNS. */
  reasoningTurns?: ReasoningTurns;
  /** Optional: the working memory the chat carries, its text first in the memory message (the chat composes it). */
  stored?: { scope: "user" | "chat"; revision: number; text: string };
}

/** The options buildContext knows; any other key is refused, naming the closest. */
export const BUILD_KEYS = [
  "system", "memory", "input", "model", "maxMessages", "budget", "historyLimits", "format", "summaries", "tools", "maxOutputTokens",
  "cacheControl", "stablePrefix", "toolResults", "reasoningTurns", "memoryScope",
] as const;
