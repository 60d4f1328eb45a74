// What create() takes, and the one check of what a chat keeps of it: create() and an import
// (the settings an export carries) go through the same functions.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { checkLabel } from "../message.js";
import { checkSplit, type BudgetSplit } from "../models/budget.js";
import {
  checkHistoryLimits,
  getModelProfile,
  type HistoryLimits,
  type ModelInput,
  type ModelRef,
} from "../models/profiles.js";
import type { ChatMetadata, ChatOptions } from "../store/types.js";
import { OLD_SUMMARY_KEYS, checkChatSummaries, currentSummaries } from "../summary/settings.js";
import type { SummaryLevel, SummaryOptions } from "../summary/policy.js";
import { checkToolResultLevel, type ToolResultOptions } from "../models/tool-results.js";
import { checkReasoningTurns, type ReasoningTurns } from "../models/reasoning.js";
import { checkMetadata } from "./chat-list.js";
import { checkMemoryScope } from "../context/build-plan.js";
import type { MemoryScope } from "../context/types.js";

/** Options of `chats.create()`. */
export interface CreateChatOptions {
  /**
   * The chat's id, when the client chooses it (useChat sends its own): 1 to 128 letters, digits,
   * `.`, `_`, `:` or `-`, unique among the user's chats (CHAT_EXISTS otherwise). Default a random UUID.
   */
  id?: string;
  /** The chat's title (default ""). */
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
   * Summaries for this chat, kept with it: true, false, or settings (`trigger`, `select`,
   * `maxTokens`, `timeoutMs`, `presentation`), each winning over the Loom's (a call's win over
   * these); `presentation` ("system" or "tool") defaults to the Loom's, else "system". See SummaryOptions.
   */
  summaries?: boolean | Omit<SummaryOptions, "summarizer" | "prompt">;
  /** Tool results too large, for this chat, kept with it: `{ truncate }` as at Loom.open, winning over the Loom's. */
  toolResults?: ToolResultOptions;
  /**
   * How many of the newest turns send their reasoning in this chat's contexts, kept with it: as at Loom.open, winning
   * over the Loom's.
   */
  reasoningTurns?: ReasoningTurns;
  /**
   * Which working memory this chat's contexts carry, kept with it: "user" (the user's, shared by
   * their chats: the default), "chat" (the chat's own, `chat.memory`, exported with the chat) or
   * "none". Wins over the Loom's.
   */
  memoryScope?: MemoryScope;
}

/** The keys `create()` takes. */
export const CREATE_KEYS = [
  "id",
  "metadata",
  "title",
  "model",
  "system",
  "budget",
  "historyLimits",
  "summaries",
  "toolResults",
  "reasoningTurns",
  "memoryScope",
] as const;

/**
 * The settings a chat keeps of create()'s options (metadata, budget, history limits, summaries,
 * tool results, reasoning turns), each checked: what create() and an import (the settings an export carries)
 * both go through. The Loom's summary presentation is create()'s to add. @throws INVALID_ARGUMENT
 */
export function settingsOf(
  o: Pick<
    CreateChatOptions,
    "metadata" | "budget" | "historyLimits" | "summaries" | "toolResults" | "reasoningTurns" | "memoryScope"
  >,
  what: string,
): ChatOptions {
  const settings: ChatOptions = {};
  if (o.metadata !== undefined) settings.metadata = checkMetadata(o.metadata);
  if (o.budget !== undefined) settings.budget = { ...checkSplit(o.budget) };
  if (o.historyLimits !== undefined)
    settings.historyLimits = checkHistoryLimits(o.historyLimits, `${what}.historyLimits`);
  const summaries = checkChatSummaries(o.summaries, `${what}.summaries`);
  if (summaries !== undefined) settings.summaries = summaries;
  const toolResults = checkToolResultLevel(o.toolResults, `${what}.toolResults`);
  if (toolResults !== undefined) settings.toolResults = toolResults;
  const reasoningTurns = checkReasoningTurns(o.reasoningTurns, `${what}.reasoningTurns`);
  if (reasoningTurns !== undefined) settings.reasoningTurns = reasoningTurns;
  const memoryScope = checkMemoryScope(o.memoryScope, `${what}.memoryScope`);
  if (memoryScope !== undefined) settings.memoryScope = memoryScope;
  return settings;
}

/** The keys of a chat's kept settings (an export's `chat.options`). */
const KEPT_KEYS = [
  "budget",
  "historyLimits",
  "profile",
  "counter",
  "summaries",
  "toolResults",
  "reasoningTurns",
  "source",
  "metadata",
  "memoryScope",
] as const satisfies readonly (keyof ChatOptions)[];

/**
 * An exported chat's settings (`chat.options`), checked as create() checks what it keeps
 * (settingsOf; a profile as getModelProfile reads one, under the chat's model name), with no
 * other key; summary settings in the older shape (`summarize`, `summaryPresentation`) read as
 * `summaries`, under `loom`'s settings (see currentSummaries). Returns a copy.
 * @throws INVALID_ARGUMENT naming the setting
 */
export function checkKeptSettings(value: unknown, model: string, loom?: SummaryLevel): ChatOptions {
  const given = checkOptions<ChatOptions>(value, "chat.options", [...KEPT_KEYS, ...OLD_SUMMARY_KEYS]);
  const o = currentSummaries(given, "chat.options", loom);
  const settings = settingsOf(o, "chat.options");
  if (o.profile !== undefined) {
    if (o.profile === null || typeof o.profile !== "object" || Object.hasOwn(o.profile, "counter")) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `chat.options.profile must be a model profile without its counter (a function no export holds); got ` +
          `${describe(o.profile)}.`,
      );
    }
    const profile = getModelProfile(o.profile as ModelInput);
    if (profile.name !== model) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `chat.options.profile is ${describe(profile.name)}'s, not the chat's model ${describe(model)}.`,
      );
    }
    settings.profile = { ...profile };
  }
  if (o.counter !== undefined)
    settings.counter = checkLabel(o.counter, "chat.options.counter (the name of the profile's own counter)");
  if (o.source !== undefined) settings.source = checkSource(o.source);
  return settings;
}

/** An import's source ({ format, id }, two non-empty strings), copied. @throws INVALID_ARGUMENT */
function checkSource(value: unknown): { format: string; id: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `chat.options.source must be { format, id }; got ${describe(value)}.`);
  }
  const v = checkOptions<{ format?: unknown; id?: unknown }>(value, "chat.options.source", ["format", "id"]);
  for (const key of ["format", "id"] as const) {
    if (typeof v[key] !== "string" || v[key] === "") {
      throw new CtxloomError("INVALID_ARGUMENT", `source.${key} must be a non-empty string; got ${describe(v[key])}.`);
    }
  }
  return { format: v.format as string, id: v.id as string };
}
