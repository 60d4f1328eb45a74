// Summary settings at each level, checked, and what a chat keeps of them (with the translation of
// the settings a chat kept in the older shape: `summarize` and `summaryPresentation`).
import { CtxloomError, describe } from "../errors.js";
import { checkSummaryOptions, resolveSummaries, type SummaryLevel, type SummaryOptions } from "./policy.js";
import { checkPresentation, type SummaryPresentation } from "./present.js";
import type { Summarizer } from "./run.js";

/** What a chat keeps (ChatOptions' `summaries`): its level, without the Loom's summarizer and prompt. */
export type KeptSummaries = boolean | Omit<SummaryOptions, "summarizer" | "prompt">;

/** Checks `Loom.open({ summaries })`. @throws INVALID_ARGUMENT naming the key */
export function checkLoomSummaries(value: unknown, what = "Loom.open(options).summaries"): SummaryLevel {
  return checkSummaryOptions(value, what, "loom");
}

/** Checks `create({ summaries })` (and what a chat keeps). @throws INVALID_ARGUMENT naming the key */
export function checkChatSummaries(value: unknown, what = "create(options).summaries"): KeptSummaries | undefined {
  return checkSummaryOptions(value, what, "chat") as KeptSummaries | undefined;
}

/** Checks `buildContext({ summaries })`. @throws INVALID_ARGUMENT naming the key */
export function checkCallSummaries(value: unknown, what = "buildContext(options).summaries"): SummaryLevel {
  return checkSummaryOptions(value, what, "call");
}

/** How a chat sends its summaries: its own presentation (the Loom's was copied at its creation), else "system". */
export function presentationOf(kept: SummaryLevel): SummaryPresentation {
  return (typeof kept === "object" ? kept.presentation : undefined) ?? "system";
}

/** The Loom's summarizer and prompt, when it sets them. */
export function writerOf(loom: SummaryLevel): { summarizer?: Summarizer; prompt?: string } {
  return typeof loom === "object" ? loom : {};
}

/**
 * What a chat keeps: its own level with `presentation` (the Loom's at its creation) when its own
 * sets none, so that its summaries are sent as they were counted whatever Loom reopens it. A
 * level `true` becomes the trigger it stands for under `loom` (the Loom's trigger, else the default
 * one): `{ presentation }` alone would not turn summaries on.
 */
export function keptSummaries(
  own: KeptSummaries | undefined,
  presentation: SummaryPresentation | undefined,
  loom: SummaryLevel,
): KeptSummaries | undefined {
  if (presentation === undefined || (typeof own === "object" && own.presentation !== undefined)) return own;
  if (own === undefined) return { presentation };
  if (own === false) return { trigger: "manual", presentation };
  if (own === true) {
    const { policy, auto } = resolveSummaries(true, loom);
    return { trigger: auto ? policy.trigger : "manual", presentation };
  }
  return { ...own, presentation };
}

/** The keys a chat kept its summary settings under before `summaries` (translated on load and on import). */
export const OLD_SUMMARY_KEYS = ["summarize", "summaryPresentation"] as const;

/**
 * The settings a chat kept, with its summary settings in the current shape: `summarize` (true,
 * false or a policy: the same fields) and `summaryPresentation` (its presentation) of a chat
 * stored or exported by an older release become `summaries` (see keptSummaries). A copy when
 * anything changed. @throws INVALID_ARGUMENT naming a malformed or doubled setting
 */
export function currentSummaries<T extends { summaries?: unknown }>(options: T, what: string, loom: SummaryLevel): T {
  const old = options as { summarize?: unknown; summaryPresentation?: unknown };
  if (!Object.hasOwn(options, "summarize") && !Object.hasOwn(options, "summaryPresentation")) return options;
  if (options.summaries !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} holds both summaries and the older summarize / summaryPresentation; keep summaries alone.`,
    );
  }
  const own = checkChatSummaries(old.summarize, `${what}.summarize`);
  if (typeof own === "object" && own.presentation !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.summarize has no presentation (the older shape kept it as summaryPresentation); got ${describe(own)}.`,
    );
  }
  const given = old.summaryPresentation;
  const presentation = given === undefined ? undefined : checkPresentation(given, `${what}.summaryPresentation`);
  const { summarize: _s, summaryPresentation: _p, ...rest } = old as Record<string, unknown>;
  const summaries = keptSummaries(own, presentation, loom);
  return (summaries === undefined ? rest : { ...rest, summaries }) as T;
}
