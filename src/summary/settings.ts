import { CtxloomError, checkOptions, describe } from "../errors.js";
import { checkSummaryOptions, resolveSummaryPolicy, type SummaryOptions, type SummaryPolicy } from "./policy.js";
import { checkPresentation, type SummaryPresentation } from "./present.js";
import type { Summarizer } from "./run.js";

/**
 * `Loom.open({ summaries })`: summaries for every chat of the Loom. `true` / `false` stand
 * for `{ policy: true }` / `{ policy: false }`.
 */
export interface SummaryGroup {
  /**
   * When a chat's conversation is summarized, and what: true for the default policy
   * (trigger at 0.8 of the conversation budget, summarize the oldest 30%), any part of a
   * policy, or false. A chat's or a call's `summaries.policy` wins. Default off.
   */
  policy?: SummaryOptions;
  /** Writes summaries with a model; default: the extractive summary (no model). A failing one falls back to it. */
  summarizer?: Summarizer;
  /** The instructions given to `summarizer` (default DEFAULT_SUMMARY_PROMPT; `{maxTokens}` is filled in). */
  prompt?: string;
  /**
   * How the summaries of the chats this Loom creates are sent: "system" (default) or "tool" (a
   * summarize_history call and its result). Kept with each chat (a chat's own setting wins):
   * a chat reopened by a Loom set otherwise sends its summaries as they were counted.
   */
  presentation?: SummaryPresentation;
}

/** `create({ summaries })`: a chat's own summary settings, kept with it. */
export type ChatSummaryGroup = Pick<SummaryGroup, "policy" | "presentation">;

/** `buildContext({ summaries })`: this call's policy (false: no new summary in this call). */
export type CallSummaryGroup = Pick<SummaryGroup, "policy">;


/** The Loom's summary settings, checked. */
export interface LoomSummaries {
  summarize?: SummaryOptions;
  summarizer?: Summarizer;
  summaryPrompt?: string;
  summaryPresentation?: SummaryPresentation;
}

/** A chat's own summary settings, kept with it (the store's ChatOptions hold them). */
export interface ChatSummarySettings {
  summarize?: SummaryOptions;
  summaryPresentation?: SummaryPresentation;
}

const LOOM_GROUP_KEYS = ["policy", "summarizer", "prompt", "presentation"] as const;
const CHAT_GROUP_KEYS = ["policy", "presentation"] as const;
const CALL_GROUP_KEYS = ["policy"] as const;

/** The group as an object (a boolean is its policy), its keys checked. @throws INVALID_ARGUMENT naming an unknown key */
function group(value: unknown, what: string, keys: readonly string[]): Partial<SummaryGroup> {
  if (typeof value === "boolean") return { policy: value };
  return checkOptions<SummaryGroup>(value, what, keys);
}

/** Checks `Loom.open({ summaries })`. @throws INVALID_ARGUMENT */
export function checkLoomSummaries(value: unknown, what = "Loom.open(options).summaries"): LoomSummaries {
  const o = group(value, what, LOOM_GROUP_KEYS);
  const out: LoomSummaries = {};
  const summarize = checkSummaryOptions(o.policy, `${what}.policy`);
  if (summarize !== undefined) out.summarize = summarize;
  if (o.summarizer !== undefined) {
    if (typeof o.summarizer !== "function") {
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.summarizer must be a function ({ messages, previousSummary, maxTokens, prompt, signal }) => string; got ${describe(o.summarizer)}.`);
    }
    out.summarizer = o.summarizer;
  }
  if (o.prompt !== undefined) {
    if (typeof o.prompt !== "string" || o.prompt.trim().length === 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.prompt must be a non-empty string; got ${describe(o.prompt)}.`);
    }
    out.summaryPrompt = o.prompt;
  }
  if (o.presentation !== undefined) out.summaryPresentation = checkPresentation(o.presentation, `${what}.presentation`);
  return out;
}

/** Checks `create({ summaries })`. @throws INVALID_ARGUMENT */
export function checkChatSummaries(value: unknown, what = "create(options).summaries"): ChatSummarySettings {
  const o = group(value, what, CHAT_GROUP_KEYS);
  const out: ChatSummarySettings = {};
  const summarize = checkSummaryOptions(o.policy, `${what}.policy`);
  if (summarize !== undefined) out.summarize = summarize;
  if (o.presentation !== undefined) out.summaryPresentation = checkPresentation(o.presentation, `${what}.presentation`);
  return out;
}

/** Checks `buildContext({ summaries })`: the call's policy, or undefined. @throws INVALID_ARGUMENT */
export function checkCallSummaries(value: unknown, what = "buildContext(options).summaries"): SummaryOptions | undefined {
  if (value === undefined) return undefined;
  return checkSummaryOptions(group(value, what, CALL_GROUP_KEYS).policy, `${what}.policy`);
}

/** The policy in force for one call: the call's, the chat's, the Loom's. */
export function policyFor(call: SummaryOptions | undefined, chat: SummaryOptions | undefined, loom: LoomSummaries): SummaryPolicy | null {
  return resolveSummaryPolicy(call, chat, loom.summarize);
}
