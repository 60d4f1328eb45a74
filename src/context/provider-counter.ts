// Asking the provider when it matters (`chat.buildContext({ providerCounter })`): a counter that
// calls a provider's own count endpoint (Anthropic's count_tokens, Gemini's countTokens) for a
// build its calibrated estimate puts near the limit. What a counter is, what it reports, and the
// checks of its options; the build that asks lives with the chat (chat/provider-count.ts), the
// counters of each provider with the adapters.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { ContextFormat, ProviderCounter } from "./types.js";

/**
 * Builds whose calibrated count is at least `1 - margin` of the limit are counted by the
 * provider. 5%: the calibrated count is held above what the provider counted lately (the
 * largest of its newest ratios, plus 1%), so what can still put a request over is one whose
 * texts the provider counts otherwise than the newest it counted (a large tool result of JSON
 * or code in a chat of prose: a few percent of the request); past 5% below the limit, such a
 * request stays within it.
 */
export const DEFAULT_COUNT_MARGIN = 0.05;

/**
 * How long a count may take, in ms, before the build goes with its calibrated estimate. 1 s: a
 * count endpoint answers in a round trip (a few hundred ms); one slower is retrying or rate
 * limited, and the request it guards, near a full window, is better sent on the estimate than
 * held up.
 */
export const DEFAULT_COUNT_TIMEOUT_MS = 1000;

/** What a counter made by `anthropicCounter` or `geminiCounter` takes besides its client. */
export interface ProviderCounterOptions {
  /** The model name sent to the provider; default: the name of the model the context was built for. */
  model?: string;
  /**
   * Builds whose calibrated count is within this share of their limit are counted (from 0 to
   * 0.5; 0: only those at the limit). @default 0.05
   */
  margin?: number;
  /**
   * How long a count may take, in ms (1 to 60,000), before the build goes with its calibrated estimate. @default 1000
   */
  timeoutMs?: number;
}

/** A counter's options checked, with their defaults. @throws INVALID_ARGUMENT */
export function counterOptions(
  options: unknown,
  what: string,
  extra: readonly string[] = [],
): Required<Omit<ProviderCounterOptions, "model">> & { model?: string } {
  const o = checkOptions<ProviderCounterOptions>(options, what, ["model", "margin", "timeoutMs", ...extra]);
  if (o.model !== undefined && (typeof o.model !== "string" || o.model.length === 0)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.model must be a model name the provider knows; got ${describe(o.model)}.`,
    );
  }
  const margin = o.margin === undefined ? DEFAULT_COUNT_MARGIN : o.margin;
  if (typeof margin !== "number" || !(margin >= 0 && margin <= 0.5)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.margin must be a share of the limit from 0 to 0.5 (0.05: builds at 95% of it or more are counted); ` +
        `got ${describe(margin)}.`,
    );
  }
  const timeoutMs =
    o.timeoutMs === undefined ? DEFAULT_COUNT_TIMEOUT_MS : checkInteger(o.timeoutMs, `${what}.timeoutMs`, 1, 60_000);
  return { margin, timeoutMs, ...(o.model !== undefined ? { model: o.model } : {}) };
}

/**
 * `providerCounter` as a build with `format` takes it. @throws INVALID_ARGUMENT (not a counter,
 * or one of another format)
 */
export function checkProviderCounter(value: unknown, format: ContextFormat, what: string): ProviderCounter {
  const c = value as Partial<ProviderCounter> | null;
  const ok =
    c !== null &&
    typeof c === "object" &&
    typeof c.count === "function" &&
    typeof c.name === "string" &&
    (c.format === "openai" || c.format === "anthropic" || c.format === "responses") &&
    typeof c.margin === "number" &&
    c.margin >= 0 &&
    c.margin <= 0.5 &&
    Number.isInteger(c.timeoutMs) &&
    c.timeoutMs! >= 1;
  if (!ok) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.providerCounter must be a counter: anthropicCounter(client) (ctxloom/anthropic), ` +
        `geminiCounter(fetch), ` +
        `or { name, format, margin, timeoutMs, count(request) }; got ${describe(value)}.`,
    );
  }
  if (c!.format !== format) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.providerCounter counts requests in the ${JSON.stringify(c!.format)} format (${c!.name}), and this ` +
        `build's format is ` +
        `${JSON.stringify(format)}: build with { format: ${JSON.stringify(c!.format)} }, ` +
        `or use the counter of the provider the request goes to.`,
    );
  }
  return c as ProviderCounter;
}
