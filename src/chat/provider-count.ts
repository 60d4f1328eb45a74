// Asking the provider when it matters (`buildContext({ providerCounter })`): a build whose
// calibrated count is within the counter's margin of its limit, or whose model and script no
// provider has counted yet, is counted by the provider's own endpoint, within the counter's
// timeout. The answer is learned as a report is (`chat.observeUsage`); a request it puts over
// the limit is built again, smaller, and counted again: no request the provider counts over the
// limit is handed out. No answer in time: the calibrated estimate stands, and the context says so.
// Only a build given a counter comes here; every other build stays synchronous as it was.
import { checkProviderCounter } from "../context/provider-counter.js";
import type { BuildOptions, ContextWindow, ProviderCount, ProviderCounter } from "../context/types.js";
import { withDeadline, type Deadline } from "../deadline.js";
import { CtxloomError, describe } from "../errors.js";
import type { ToolsInput } from "../tokens/tools.js";

/** Builds made again at most, each smaller, before a request the provider still counts over its limit is refused. */
const MAX_REBUILDS = 2;
/**
 * Taken off a rebuild beside the provider's excess: the provider's count of the smaller request may differ a little.
 */
const REBUILD_MARGIN = 0.01;

/** What a counted build needs of its chat. */
export interface CountingChat {
  /** Builds with the call's options, the limit divided by at least `factor` (1: as calibrated). */
  build(factor: number): Promise<ContextWindow>;
  /** Whether a provider's count of `model` in the script of the chat's newest messages was learned. */
  calibrated(model: string): boolean;
  /** Learns the provider's count of the request `context` (as `chat.observeUsage`). */
  learn(context: ContextWindow, tokens: number): void;
}

/**
 * Splits `providerCounter` (checked: a counter of the build's format; null when not given) from
 * a build's other options. @throws INVALID_ARGUMENT
 */
export function splitCounter(
  options: BuildOptions | undefined,
  what: string,
): { rest: BuildOptions | undefined; counter: ProviderCounter | null } {
  if (options === undefined || options === null || typeof options !== "object" || !("providerCounter" in options)) {
    return { rest: options, counter: null };
  }
  const { providerCounter, ...rest } = options;
  if (providerCounter === undefined) return { rest, counter: null };
  return {
    rest,
    counter: checkProviderCounter(providerCounter, rest.format === undefined ? "openai" : rest.format, what),
  };
}

/**
 * The context of `chat` as its provider counts it (see the file's head), with `providerCount` set.
 * `tools` and `maxOutputTokens` are the build's (checked by its first build).
 * @throws what the build throws; MESSAGE_TOO_LARGE when the provider still counts the request
 *   over its limit after MAX_REBUILDS smaller builds
 */
export async function countedBuild(
  chat: CountingChat,
  counter: ProviderCounter,
  build: { tools?: ToolsInput | undefined; maxOutputTokens?: number | undefined },
): Promise<ContextWindow> {
  let factor = 1;
  for (let rebuilds = 0; ; rebuilds++) {
    const context = await chat.build(factor);
    const { usage, budget } = context;
    // In the provider's tokens: what the calibrated limit stands for.
    const limit = budget.effective - (build.maxOutputTokens ?? budget.reserve);
    const near = usage.total >= (1 - counter.margin) * usage.limit;
    if (rebuilds === 0 && !near && chat.calibrated(context.model)) {
      return said(context, { asked: false, tokens: null, limit, rebuilds, fallback: null });
    }
    const answer = await ask(counter, context, build.tools);
    if (typeof answer !== "number")
      return said(context, { asked: true, tokens: null, limit, rebuilds, fallback: answer });
    chat.learn(context, answer);
    if (answer <= limit) return said(context, { asked: true, tokens: answer, limit, rebuilds, fallback: null });
    if (rebuilds === MAX_REBUILDS) {
      throw new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `${counter.name} counts ${answer} tokens in this request to ${context.model}, over the ${limit} a request ` +
          `may hold, ` +
          `after ${rebuilds} smaller builds. Lower the priority of old critical messages, shorten the system ` +
          `prompt, memory or tools, ` +
          `or use a model with a larger window.`,
      );
    }
    // The next request counted at this one's ratio (provider's count over ctxloom's), and a little
    // more: within the limit as the provider counts it. (Its ratio is also learned: the factor
    // of later builds is at least as large.)
    factor = Math.max(factor, (answer / usage.total) * (1 + REBUILD_MARGIN));
  }
}

/** The provider's count of `context`, or why none came. */
async function ask(
  counter: ProviderCounter,
  context: ContextWindow,
  tools: ToolsInput | undefined,
): Promise<number | Fallback> {
  let ended: Deadline<number>;
  try {
    ended = await withDeadline(
      (signal) => counter.count({ model: context.model, context, tools, signal }),
      counter.timeoutMs,
    );
  } catch (error) {
    return { reason: "failed", message: error instanceof Error ? error.message : String(error) };
  }
  if (!ended.ok) return { reason: "timeout", message: `${counter.name} gave no count within ${counter.timeoutMs} ms` };
  const n = ended.value;
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) {
    return { reason: "failed", message: `${counter.name} answered ${describe(n)}, not a count of tokens` };
  }
  return n;
}

type Fallback = NonNullable<ProviderCount["fallback"]>;

function said(context: ContextWindow, report: ProviderCount): ContextWindow {
  context.providerCount = report;
  return context;
}
