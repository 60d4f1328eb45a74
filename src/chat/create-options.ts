import type { BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelRef } from "../models/profiles.js";
import type { ChatMetadata } from "../store/types.js";
import type { ChatSummaryGroup } from "../summary/settings.js";
import type { ToolResultOptions } from "../models/tool-results.js";
import type { ReasoningTurns } from "../models/reasoning.js";

/** Options of `chats.create()`. */
export interface CreateChatOptions {
  /**
   * The chat's id, when the client chooses it (useChat sends its own): 1 to 128 letters, digits,
   * `.`, `_`, `:` or `-`, unique among the user's chats (CHAT_EXISTS otherwise). Default a random UUID.
   */
  id?: string;
  title?: string;
  /** The application's data about the chat (a JSON object, at most 64 KiB), kept with it: `chat.metadata`, `list()`. */
  metadata?: ChatMetadata;
  /** Model the chat talks to: a name (see getModelProfile), a profile or an AI SDK model object; default "gpt-4o". */
  model?: ModelRef;
  /** System prompt sent at the top of every context built for this chat. */
  system?: string;
  /** Budget fractions for this chat's contexts (default the default 25/20/40/10/5). */
  budget?: Partial<BudgetSplit>;
  /** Apply the history limits to this chat's contexts: true for the model's size class, or your own. Default off. */
  historyLimits?: boolean | Partial<HistoryLimits>;
  /**
   * Summaries for this chat, kept with it: `{ policy, presentation }` (true / false for
   * `{ policy: true }` / `{ policy: false }`). `policy` wins over the Loom's; `presentation`
   * ("system" or "tool") defaults to the Loom's, else "system".
   */
  summaries?: boolean | ChatSummaryGroup;
  /** Tool results too large, for this chat, kept with it: `{ truncate }` as at Loom.open, winning over the Loom's. */
  toolResults?: ToolResultOptions;
  /** How many of the newest turns send their reasoning in this chat's contexts, kept with it: as at Loom.open, winning over the Loom's. */
  reasoningTurns?: ReasoningTurns;
}

/** The keys `create()` takes. */
export const CREATE_KEYS = ["id", "metadata", "title", "model", "system", "budget", "historyLimits", "summaries", "toolResults", "reasoningTurns"] as const;
