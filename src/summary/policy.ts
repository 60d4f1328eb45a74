import { CtxloomError, checkOptions, describe } from "../errors.js";

/**
 * When a chat's visible conversation is summarized, and what is summarized.
 *
 * Trigger: `{ fraction }` of the conversation's share of the budget (default 0.8), or
 * `{ tokens }`, an absolute threshold (capped by the model's window).
 * Selection: `{ oldest }`, that fraction of the visible messages, oldest first (default
 * 0.3), or `{ keepLast }`: everything but the newest N messages (earlier summaries covered whole).
 */
export interface SummaryPolicy {
  trigger: { fraction: number } | { tokens: number };
  select: { oldest: number } | { keepLast: number };
  /** Most tokens a summary may take; default: an eighth of the conversation budget, at most half of what it covers. */
  maxTokens?: number;
  /** Milliseconds a summarizer callback may take before it is aborted and the extractive summary is used. Default 30,000. */
  timeoutMs?: number;
}

/**
 * What users pass per Loom, per chat or per call: true for the default policy, any part of
 * a policy (the rest from the level above, then the defaults), or false to turn summaries
 * off. Summaries are off unless some level turns them on.
 */
export type SummaryOptions = boolean | Partial<SummaryPolicy>;

export const DEFAULT_SUMMARY_POLICY: Readonly<SummaryPolicy> = Object.freeze({
  trigger: Object.freeze({ fraction: 0.8 }),
  select: Object.freeze({ oldest: 0.3 }),
  timeoutMs: 30_000,
});

const KEYS = ["trigger", "select", "maxTokens", "timeoutMs"] as const;

/** A validated copy of summary options. @throws INVALID_ARGUMENT naming the bad field */
export function checkSummaryOptions(value: unknown, what = "summary"): SummaryOptions | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "boolean") return value;
  const o = checkOptions<SummaryPolicy>(value, what, KEYS);
  const out: Partial<SummaryPolicy> = {};
  if (o.trigger !== undefined) {
    const t = checkOptions<{ fraction: number; tokens: number }>(o.trigger, `${what}.trigger`, ["fraction", "tokens"]);
    if ((t.fraction === undefined) === (t.tokens === undefined)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.trigger takes one of { fraction } (e.g. 0.8 of the conversation budget) or { tokens } (e.g. 80000).`);
    }
    out.trigger = t.fraction !== undefined
      ? { fraction: fraction(t.fraction, `${what}.trigger.fraction`) }
      : { tokens: whole(t.tokens, `${what}.trigger.tokens`, 1) };
  }
  if (o.select !== undefined) {
    const s = checkOptions<{ oldest: number; keepLast: number }>(o.select, `${what}.select`, ["oldest", "keepLast"]);
    if ((s.oldest === undefined) === (s.keepLast === undefined)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.select takes one of { oldest } (e.g. 0.3 of the messages) or { keepLast } (e.g. 20 messages kept as they are).`);
    }
    out.select = s.oldest !== undefined
      ? { oldest: fraction(s.oldest, `${what}.select.oldest`) }
      : { keepLast: whole(s.keepLast, `${what}.select.keepLast`, 0) };
  }
  if (o.maxTokens !== undefined) out.maxTokens = whole(o.maxTokens, `${what}.maxTokens`, 16);
  if (o.timeoutMs !== undefined) out.timeoutMs = whole(o.timeoutMs, `${what}.timeoutMs`, 1);
  return out;
}

/**
 * The policy in force, from levels given nearest first (call, chat, Loom): each level's
 * fields over those of the levels above it, over the defaults. The nearest level given
 * decides whether summaries run at all (false: off; true or a policy: on); with none
 * given, they are off. Returns null when off.
 */
export function resolveSummaryPolicy(...levels: (SummaryOptions | undefined)[]): SummaryPolicy | null {
  const nearest = levels.find((level) => level !== undefined);
  if (nearest === undefined || nearest === false) return null;
  const parts = levels.filter((level): level is Partial<SummaryPolicy> => typeof level === "object");
  return Object.assign({}, DEFAULT_SUMMARY_POLICY, ...parts.reverse());
}

function fraction(value: unknown, what: string): number {
  if (typeof value !== "number" || !(value > 0 && value <= 1)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a number in (0, 1]; got ${describe(value)}.`);
  }
  return value;
}

function whole(value: unknown, what: string, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > 2 ** 30) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be an integer from ${min} to ${2 ** 30}; got ${describe(value)}.`);
  }
  return value;
}
