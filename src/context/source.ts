// What the builder needs of a chat (types.ts exports it again).
import type { Engine } from "../engine/types.js";
import type { BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelProfile } from "../models/profiles.js";
import type { TokenCounter } from "../tokens/types.js";
import type { Message } from "../message.js";
import type { OpenAIMessage } from "./format.js";
import type { SummaryPresentation } from "../summary/present.js";
import type { SummaryLevel } from "../summary/policy.js";
import type { ToolResultPolicy } from "../models/tool-results.js";
import type { ToolViewSource } from "./view-source.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import type { RecallDegraded, RecallFill } from "./recall-types.js";

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
   * Optional, with `held`: what sends the chat's messages in the OpenAI format with no Message
   * made on the way (see Sender).
   */
  sender?: Sender;
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
  /**
   * With `recall`: how it fell short of its embedder (the context's `recallDegraded`); null or absent when it did not.
   */
  recallDegraded?: RecallDegraded | null;
  /**
   * Optional: refuse a `model` name the catalog lacks instead of reading it by its family (`Loom.open({ strictModels
   * })`).
   */
  strictModels?: boolean;
  /** How the chat sends tool results (its Loom's and its own settings); default: DEFAULT_TOOL_RESULTS. */
  toolResults?: ToolResultPolicy;
  /** Optional: what views of tool results read of the chat; without it, every message is sent as held. */
  toolViews?: ToolViewSource;
  /**
   * Optional: an OpenAI-format context goes to an SDK that sends the kept turns' reasoning with
   * the messages (the AI SDK's and LangChain's models take it back): count it, as sent.
   */
  sendsReasoning?: boolean;
  /**
   * Optional: the chat's and its Loom's summary policies, for `pressure.summarizeAt` (a call's `summaries` goes over
   * them).
   */
  summaryLevels?: { chat: SummaryLevel; loom: SummaryLevel };
  /** The chat's `reasoningTurns` (its own, else its Loom's), as set; default: DEFAULT_REASONING_TURNS. */
  reasoningTurns?: ReasoningTurns;
  /**
   * What a request's count is multiplied by for a model (its provider counted that much more or
   * less lately, models/calibration.ts): the limit is divided by it. Absent: 1.
   */
  calibrate?: (model: string) => number;
  /** Optional: the working memory the chat carries, its text first in the memory message (the chat composes it). */
  stored?: { scope: "user" | "chat"; revision: number; text: string };
}

/** How a chat sends its messages in the OpenAI format (ContextSource.sender). */
export interface Sender {
  /**
   * Writes messages `ids` as the OpenAI format sends them into `into` from index `at`, made with
   * no Message on the way; null for a summary, which the build presents itself. Returns how many
   * summaries (nulls) it wrote. A chat hands out again the (frozen) objects of its previous long
   * context for the messages both send.
   */
  sendable(ids: Int32Array, into: (OpenAIMessage | null)[], at: number): number;
  /**
   * The messages of a long selection that is a run of the chat's path (every message from its
   * first to its last, no summary) as the OpenAI format sends them, in an array the build copies
   * (it is the chat's); null when the chat has no such shortcut for them.
   */
  sendRun(ids: Int32Array): readonly OpenAIMessage[] | null;
  /**
   * A selection's ids (maybe a view the engine reuses) as the context keeps them: a copy, or what
   * makes them when the context's conversation is first read.
   */
  heldIds(ids: Int32Array): Int32Array | (() => Int32Array);
}
