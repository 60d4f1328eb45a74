// A chat's own settings, kept with its record (ChatRecord.options, types.ts): how its contexts
// are built (budget, history limits, the model's profile, summaries, tool results, reasoning,
// working memory), the conversation an import made it from, and the application's own data.
import type { BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelProfile } from "../models/profiles.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import type { ToolResultOptions } from "../models/tool-results.js";
import type { JsonValue } from "../memory/types.js";
import type { SummaryOptions } from "../summary/policy.js";

/** Per-chat settings of the context builder, kept with the chat. */
export interface ChatOptions {
  /** Budget fractions for this chat's contexts. */
  budget?: Partial<BudgetSplit>;
  /** History limits: true for the model's size class, or your own. */
  historyLimits?: boolean | Partial<HistoryLimits>;
  /**
   * The model's profile when the chat was created with a profile object rather than a
   * known name (without its `counter`: a function cannot be stored).
   */
  profile?: Omit<ModelProfile, "counter">;
  /**
   * The name of the profile's own token counter, when it had one: no store can keep a
   * function, so reopening the chat needs the model registered with that counter.
   */
  counter?: string;
  /**
   * Summaries for this chat's contexts (`create({ summaries })`): true, false, or its settings,
   * with the presentation its summaries are sent with (the Loom's at its creation when it set none).
   * A chat kept by an older release under `summarize` / `summaryPresentation` is read in this shape.
   */
  summaries?: boolean | Omit<SummaryOptions, "summarizer" | "prompt">;
  /**
   * How this chat's contexts send tool results (`create({ toolResults })`), kept as given: wins over the Loom's, key by
   * key.
   */
  toolResults?: ToolResultOptions;
  /**
   * How many of the newest turns send their reasoning in this chat's contexts (`create({ reasoningTurns })`): wins over
   * the Loom's.
   */
  reasoningTurns?: ReasoningTurns;
  /**
   * Which working memory this chat's contexts carry (`create({ memoryScope })`): "user", "chat" (its own) or "none";
   * wins over the Loom's.
   */
  memoryScope?: "user" | "chat" | "none";
  /**
   * The conversation an import made this chat from: the export's format and its id for it
   * (a fingerprint of its messages when it has none). `ctxloom import` finds chats by it, so
   * that importing the same export again updates them instead of making copies.
   */
  source?: { format: string; id: string };
  /** The application's own data about the chat (`create({ metadata })`): JSON, kept as given. */
  metadata?: ChatMetadata;
}

/** A chat's own data for the application (a folder, tags, the client's settings): a JSON object. */
export type ChatMetadata = { [key: string]: JsonValue };
