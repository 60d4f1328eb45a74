import { CtxloomError, describe } from "../errors.js";
import { checkSummaryOptions, resolveSummaryPolicy, type SummaryOptions, type SummaryPolicy } from "./policy.js";
import { checkPresentation, type SummaryPresentation } from "./present.js";
import type { Summarizer } from "./run.js";

/** The Loom's summary settings (`Loom.open({ summarize, summarizer, summaryPrompt, summaryPresentation })`). */
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

/** Checks the Loom's summary options. @throws INVALID_ARGUMENT */
export function checkLoomSummaries(o: Record<string, unknown>): LoomSummaries {
  const out: LoomSummaries = {};
  const summarize = checkSummaryOptions(o.summarize, "Loom.open(options).summarize");
  if (summarize !== undefined) out.summarize = summarize;
  if (o.summarizer !== undefined) {
    if (typeof o.summarizer !== "function") {
      throw new CtxloomError("INVALID_ARGUMENT", `summarizer must be a function ({ messages, previousSummary, maxTokens, prompt, signal }) => string; got ${describe(o.summarizer)}.`);
    }
    out.summarizer = o.summarizer as Summarizer;
  }
  if (o.summaryPrompt !== undefined) {
    if (typeof o.summaryPrompt !== "string" || o.summaryPrompt.trim().length === 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `summaryPrompt must be a non-empty string; got ${describe(o.summaryPrompt)}.`);
    }
    out.summaryPrompt = o.summaryPrompt;
  }
  if (o.summaryPresentation !== undefined) out.summaryPresentation = checkPresentation(o.summaryPresentation, "summaryPresentation");
  return out;
}

/** The policy in force for one call: the call's, the chat's, the Loom's. */
export function policyFor(call: SummaryOptions | undefined, chat: SummaryOptions | undefined, loom: LoomSummaries): SummaryPolicy | null {
  return resolveSummaryPolicy(call, chat, loom.summarize);
}
