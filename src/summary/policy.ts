import { CtxloomError, checkKeys, describe } from "../errors.js";
import { checkPresentation, type SummaryPresentation } from "./present.js";
import type { Summarizer } from "./run.js";

/**
 * Summary settings, the same at every level: `Loom.open({ summaries })`, `create({ summaries })`
 * (without `summarizer` and `prompt`, the Loom's), `buildContext({ summaries })` (without
 * `presentation` either, the chat's). `summaries: true` turns summaries on with the settings of
 * the levels above (the defaults when none); `false` turns them off (trigger "manual").
 *
 * Each field comes from the nearest level that sets it (the call's, the chat's, the Loom's),
 * else its default. Summaries run automatically when the trigger in force is not "manual"; with
 * no trigger set anywhere, they run (trigger `{ fraction: 0.8 }`) when some level turns them on
 * (true, or an object setting anything but `presentation` alone), else not.
 */
export interface SummaryOptions {
  /**
   * When a conversation is summarized: `{ fraction }` of the conversation's share of the budget
   * (default 0.8), `{ tokens }`, an absolute threshold (capped by the model's window), or
   * "manual": only `chat.compact()` writes summaries.
   */
  trigger?: { fraction: number } | { tokens: number } | "manual";
  /**
   * What is summarized: `{ oldest }`, that fraction of the visible messages, oldest first
   * (default 0.3), or `{ keepLast }`: everything but the newest N messages (earlier summaries covered whole).
   */
  select?: { oldest: number } | { keepLast: number };
  /** Most tokens a summary may take; default: an eighth of the conversation budget, at most half of what it covers. */
  maxTokens?: number;
  /**
   * Milliseconds a summarizer callback may take before it is aborted and the extractive summary is used. Default
   * 30,000.
   */
  timeoutMs?: number;
  /**
   * How summaries are sent: "system" (default), a system message, or "tool", a summarize_history
   * call and its result. Kept with each chat (the Loom's is copied at creation): a chat reopened
   * by a Loom set otherwise sends its summaries as they were counted.
   */
  presentation?: SummaryPresentation;
  /**
   * Loom level only: writes summaries with a model; default: the extractive summary (no model). A failing one falls
   * back to it.
   */
  summarizer?: Summarizer;
  /**
   * Loom level only: the instructions given to `summarizer` (default DEFAULT_SUMMARY_PROMPT; `{maxTokens}` is filled
   * in).
   */
  prompt?: string;
}

/** A level's summary settings, checked (undefined: the level sets nothing). */
export type SummaryLevel = boolean | SummaryOptions | undefined;

/** The trigger and selection in force, resolved from the levels (internal). */
export interface SummaryPolicy {
  trigger: { fraction: number } | { tokens: number };
  select: { oldest: number } | { keepLast: number };
  maxTokens?: number;
  timeoutMs: number;
}

export const DEFAULT_SUMMARY_POLICY: Readonly<SummaryPolicy> = Object.freeze({
  trigger: Object.freeze({ fraction: 0.8 }),
  select: Object.freeze({ oldest: 0.3 }),
  timeoutMs: 30_000,
});

/** The settings in force: the policy (its trigger the default when "manual"), and whether builds summarize by it. */
export interface ResolvedSummaries {
  policy: SummaryPolicy;
  /** Builds summarize when the conversation passes the trigger (false: only `chat.compact()` does). */
  auto: boolean;
}

/**
 * Whether a level turns summaries on when no level sets a trigger: true, or an object setting anything but
 * `presentation`.
 */
export function givenLevel(level: SummaryLevel): boolean {
  if (level === true) return true;
  if (level === undefined || level === false) return false;
  for (const key in level)
    if (key !== "presentation" && (level as Record<string, unknown>)[key] !== undefined) return true;
  return false;
}

/**
 * The settings in force from levels given nearest first (call, chat, Loom): each field from the nearest level setting
 * it.
 */
export function resolveSummaries(...levels: SummaryLevel[]): ResolvedSummaries {
  let trigger: SummaryOptions["trigger"];
  let select: SummaryOptions["select"];
  let maxTokens: number | undefined;
  let timeoutMs: number | undefined;
  let given = false;
  for (const level of levels) {
    if (level === false) trigger ??= "manual";
    if (typeof level !== "object") {
      if (level === true) given = true;
      continue;
    }
    trigger ??= level.trigger;
    select ??= level.select;
    maxTokens ??= level.maxTokens;
    timeoutMs ??= level.timeoutMs;
    if (givenLevel(level)) given = true;
  }
  const policy: SummaryPolicy = {
    trigger: trigger === undefined || trigger === "manual" ? DEFAULT_SUMMARY_POLICY.trigger : trigger,
    select: select ?? DEFAULT_SUMMARY_POLICY.select,
    timeoutMs: timeoutMs ?? DEFAULT_SUMMARY_POLICY.timeoutMs,
  };
  if (maxTokens !== undefined) policy.maxTokens = maxTokens;
  return { policy, auto: trigger === undefined ? given : trigger !== "manual" };
}

/** The policy builds summarize by, from levels nearest first; null when they do not (see resolveSummaries). */
export function resolveSummaryPolicy(...levels: SummaryLevel[]): SummaryPolicy | null {
  const resolved = resolveSummaries(...levels);
  return resolved.auto ? resolved.policy : null;
}

/**
 * Which level's settings: the Loom's take every field, a chat's all but summarizer and prompt, a call's not
 * presentation either.
 */
export type SummaryLevelName = "loom" | "chat" | "call";

const KEYS: Record<SummaryLevelName, readonly (keyof SummaryOptions)[]> = {
  loom: ["trigger", "select", "maxTokens", "timeoutMs", "presentation", "summarizer", "prompt"],
  chat: ["trigger", "select", "maxTokens", "timeoutMs", "presentation"],
  call: ["trigger", "select", "maxTokens", "timeoutMs"],
};

/**
 * A validated copy of one level's summary settings (true, false, or the fields it sets).
 * @throws INVALID_ARGUMENT naming the bad or unknown key
 */
export function checkSummaryOptions(value: unknown, what: string, level: SummaryLevelName): SummaryLevel {
  if (value === undefined || typeof value === "boolean") return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be true, false or an object of summary settings ({ trigger, select, ... }); ` +
        `got ${describe(value)}.`,
    );
  }
  const o = value as Record<string, unknown>;
  misplaced(o, what, level);
  checkKeys(o, KEYS[level], what);
  const out: SummaryOptions = {};
  if (o.trigger !== undefined) out.trigger = checkTrigger(o.trigger, `${what}.trigger`);
  if (o.select !== undefined) {
    const s = fields<{ oldest: number; keepLast: number }>(o.select, `${what}.select`, ["oldest", "keepLast"]);
    if ((s.oldest === undefined) === (s.keepLast === undefined)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}.select takes one of { oldest } (e.g. 0.3 of the messages) or { keepLast } (e.g. 20 messages kept ` +
          `as they are).`,
      );
    }
    out.select =
      s.oldest !== undefined
        ? { oldest: fraction(s.oldest, `${what}.select.oldest`) }
        : { keepLast: whole(s.keepLast, `${what}.select.keepLast`, 0) };
  }
  if (o.maxTokens !== undefined) out.maxTokens = whole(o.maxTokens, `${what}.maxTokens`, 16);
  if (o.timeoutMs !== undefined) out.timeoutMs = whole(o.timeoutMs, `${what}.timeoutMs`, 1);
  if (o.presentation !== undefined) out.presentation = checkPresentation(o.presentation, `${what}.presentation`);
  if (o.summarizer !== undefined) {
    if (typeof o.summarizer !== "function") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}.summarizer must be a function ({ messages, previousSummary, maxTokens, prompt, signal }) => ` +
          `string; got ${describe(o.summarizer)}.`,
      );
    }
    out.summarizer = o.summarizer as Summarizer;
  }
  if (o.prompt !== undefined) {
    if (typeof o.prompt !== "string" || o.prompt.trim().length === 0) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}.prompt must be a non-empty string; got ${describe(o.prompt)}.`,
      );
    }
    out.prompt = o.prompt;
  }
  return out;
}

/** A key of a level above, named with the level that takes it. @throws INVALID_ARGUMENT */
function misplaced(o: Record<string, unknown>, what: string, level: SummaryLevelName): void {
  if (level === "loom") return;
  for (const key of ["summarizer", "prompt"]) {
    if (Object.hasOwn(o, key)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what} has no option "${key}": a summarizer and its prompt are the Loom's (Loom.open({ summaries: { ` +
          `${key} } })).`,
      );
    }
  }
  if (level === "call" && Object.hasOwn(o, "presentation")) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} has no option "presentation": how summaries are sent is kept with the chat ` +
        `(create({ summaries: { presentation } }) or Loom.open).`,
    );
  }
}

function checkTrigger(value: unknown, what: string): NonNullable<SummaryOptions["trigger"]> {
  if (value === "manual") return value;
  if (typeof value === "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be { fraction }, { tokens } or "manual"; got ${describe(value)}.`,
    );
  }
  const t = fields<{ fraction: number; tokens: number }>(value, what, ["fraction", "tokens"]);
  if ((t.fraction === undefined) === (t.tokens === undefined)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes one of { fraction } (e.g. 0.8 of the conversation budget), { tokens } (e.g. 80000) or "manual" ` +
        `(only chat.compact()).`,
    );
  }
  if (t.fraction !== undefined) return { fraction: fraction(t.fraction, `${what}.fraction`) };
  return { tokens: whole(t.tokens, `${what}.tokens`, 1) };
}

function fields<T extends object>(value: unknown, what: string, keys: readonly string[]): Partial<T> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be an object; got ${describe(value)}.`);
  }
  checkKeys(value, keys, what);
  return value as Partial<T>;
}

function fraction(value: unknown, what: string): number {
  if (typeof value !== "number" || !(value > 0 && value <= 1)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a number in (0, 1]; got ${describe(value)}.`);
  }
  return value;
}

function whole(value: unknown, what: string, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > 2 ** 30) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be an integer from ${min} to ${2 ** 30}; got ${describe(value)}.`,
    );
  }
  return value;
}
