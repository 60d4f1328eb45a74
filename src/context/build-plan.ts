import { CtxloomError, checkInteger, checkKeys, checkOptions, describe } from "../errors.js";
import { checkSplit, sharedSplit, type Budget } from "../models/budget.js";
import {
  checkHistoryLimits,
  getModelProfile,
  historyLimitsOf,
  type HistoryLimits,
  type ModelProfile,
} from "../models/profiles.js";
import type { TokenCounter } from "../tokens/types.js";
import { checkTools, toolTokens } from "../tokens/tools.js";
import { checkStablePrefix } from "./stable.js";
import { BUILD_KEYS, type BuildOptions, type ContextFormat, type ContextSource, type MemoryScope } from "./types.js";
import { checkReasoningTurns, reasoningTurnsOf } from "../models/reasoning.js";
import {
  DEFAULT_TOOL_RESULTS,
  checkToolResultLevel,
  toolResultPolicy,
  type ToolResultPolicy,
} from "../models/tool-results.js";
import { resolveSummaryPolicy, type SummaryPolicy } from "../summary/policy.js";
import { checkCallSummaries } from "../summary/settings.js";

/**
 * Everything a build needs, resolved once from the call's options and the chat's
 * settings before anything is selected or formatted: the model is looked up once, the
 * budget split once, the history limits merged once.
 */
export interface BuildPlan {
  readonly profile: Readonly<ModelProfile>;
  /** Shared between plans (and a chat's builds): read only; a context carries a copy. */
  readonly budget: Readonly<Budget>;
  /** What a request may use: the effective window less the reserve. */
  readonly limit: number;
  /** History limits in force, or undefined when off. */
  readonly limits: Readonly<HistoryLimits> | undefined;
  /** The chat's counter: counts stay the chat model's whatever model sets the budget. */
  readonly counter: TokenCounter;
  readonly format: ContextFormat;
  readonly system: string;
  readonly memory: string;
  /** The call's `memoryScope`, when it gives one (the chat's and the Loom's otherwise). */
  readonly memoryScope: MemoryScope | undefined;
  readonly input: string | undefined;
  /** Tokens of the tool definitions (0 without tools); `undefined` when none were given. */
  readonly tools: number | undefined;
  /** Mark an Anthropic prompt-caching breakpoint. */
  readonly cacheControl: boolean;
  /** The stable prefix's step, a fraction of the conversation's room (0: the plain selection). */
  readonly prefixStep: number;
  /** Newest messages the selection considers (0: no bound): maxMessages and the history limits' turns. */
  readonly window: number;
  /** How tool results are sent: the call's settings over the chat's. */
  readonly toolResults: ToolResultPolicy;
  /** The summary policy in force for this call (the call's, the chat's, the Loom's), for `pressure`; null: none. */
  readonly summary: SummaryPolicy | null;
  /** The newest turns whose reasoning is sent (Infinity: all). */
  readonly reasoningTurns: number;
}

/** What a plan reads of its source: the chat's settings, none of its messages. */
export type PlanSource = Pick<
  ContextSource,
  | "counter"
  | "profile"
  | "system"
  | "budget"
  | "historyLimits"
  | "strictModels"
  | "toolResults"
  | "summaryLevels"
  | "reasoningTurns"
  | "calibrate"
>;

/**
 * Checks a build's options and resolves them with the chat's settings (`source`'s, of which it
 * reads the settings only: a caller may check a build's options before the chat holds anything).
 * @throws INVALID_ARGUMENT, INVALID_CONTENT, UNKNOWN_MODEL
 */
export function planBuild(source: PlanSource, options: BuildOptions | undefined): BuildPlan {
  const o = checkOptions<BuildOptions>(options, "buildContext(options)");
  if ("recall" in o)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "recall needs a chat and its Loom's embeddings: use chat.buildContext({ recall }).",
    );
  if ("providerCounter" in o)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "providerCounter asks the provider of a chat's request: use chat.buildContext({ providerCounter }).",
    );
  checkKeys(o, BUILD_KEYS, "buildContext(options)");
  const system = text(o.system, "system") ?? source.system ?? "";
  const memory = text(o.memory, "memory") ?? "";
  const memoryScope = checkMemoryScope(o.memoryScope, "buildContext(options).memoryScope");
  const input = text(o.input, "input");
  if (input !== undefined && input.length === 0)
    throw new CtxloomError("INVALID_CONTENT", "input must not be empty; leave it out instead.");
  const maxMessages = o.maxMessages === undefined ? 0 : checkInteger(o.maxMessages, "maxMessages", 1, 0x7fffffff);
  const format = o.format === undefined ? "openai" : o.format;
  if (format !== "openai" && format !== "anthropic" && format !== "responses") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `format must be "openai", "anthropic" or "responses"; got ${describe(format)}.`,
    );
  }
  const profile =
    o.model === undefined ? source.profile : getModelProfile(o.model, { strict: source.strictModels === true });
  const budget = sharedSplit(profile, checkSplit(o.budget !== undefined ? o.budget : source.budget));
  const limits = resolveLimits(o.historyLimits !== undefined ? o.historyLimits : source.historyLimits, profile);
  const turns = limits ? 2 * limits.maxTurns : 0;
  const window = maxMessages && turns ? Math.min(maxMessages, turns) : maxMessages || turns;
  const maxOutput =
    o.maxOutputTokens === undefined
      ? undefined
      : checkInteger(o.maxOutputTokens, "maxOutputTokens", 1, budget.effective);
  const tools = o.tools === undefined ? undefined : toolTokens(source.counter, checkTools(o.tools), profile.name);
  // Calibrated: the request's own count, times what its provider counted more lately, within the limit.
  const limit = Math.floor(
    (budget.effective - (maxOutput ?? budget.reserve)) / (source.calibrate?.(profile.name) ?? 1),
  );
  if (o.cacheControl !== undefined && typeof o.cacheControl !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `cacheControl must be true or false; got ${describe(o.cacheControl)}.`);
  }
  const cacheControl = o.cacheControl === true;
  if (cacheControl && format !== "anthropic") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `cacheControl marks Anthropic cache breakpoints: use it with format "anthropic" (OpenAI caches prefixes ` +
        `without marks).`,
    );
  }
  const prefixStep = checkStablePrefix(o.stablePrefix);
  const toolResults = toolResultPolicy(
    checkToolResultLevel(o.toolResults, "buildContext(options).toolResults"),
    source.toolResults ?? DEFAULT_TOOL_RESULTS,
  );
  const levels = source.summaryLevels;
  const summary = levels ? resolveSummaryPolicy(checkCallSummaries(o.summaries), levels.chat, levels.loom) : null;
  const own = checkReasoningTurns(o.reasoningTurns, "buildContext(options).reasoningTurns");
  const reasoning = own ?? checkReasoningTurns(source.reasoningTurns, "reasoningTurns");
  const reasoningTurns = reasoningTurnsOf(reasoning);
  return {
    profile,
    budget,
    limit,
    limits,
    counter: source.counter,
    format,
    system,
    memory,
    memoryScope,
    input,
    window,
    tools,
    cacheControl,
    prefixStep,
    toolResults,
    summary,
    reasoningTurns,
  };
}

/** A memory scope ("user", "chat" or "none"), or undefined. @throws INVALID_ARGUMENT */
export function checkMemoryScope(value: unknown, what: string): MemoryScope | undefined {
  if (value === undefined || value === "user" || value === "chat" || value === "none") return value;
  throw new CtxloomError(
    "INVALID_ARGUMENT",
    `${what} must be "user" (the user's memory), "chat" (the chat's own) or "none"; got ${describe(value)}.`,
  );
}

function text(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a string; got ${describe(value)}.`);
  return value;
}

function resolveLimits(
  setting: boolean | Partial<HistoryLimits> | undefined,
  profile: ModelProfile,
): Readonly<HistoryLimits> | undefined {
  if (setting === undefined) return undefined;
  const checked = checkHistoryLimits(setting);
  if (checked === false) return undefined;
  return checked === true ? historyLimitsOf(profile) : { ...historyLimitsOf(profile), ...checked };
}
