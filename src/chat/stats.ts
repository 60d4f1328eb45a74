import type { ContextWindow, ProviderCount, Usage } from "../context/build.js";
import { CtxloomError, describe } from "../errors.js";
import { reportedInputTokens, scriptClass, type Calibration } from "../models/calibration.js";
import type { SummaryStats } from "../summary/chat-summaries.js";
import type { ChatSync } from "./sync.js";

/** What `chat.stats()` returns. */
export interface ChatStats {
  /** Messages in the whole tree (every branch). */
  messages: number;
  /** Messages on the active branch (root to head). */
  branchMessages: number;
  /** The chat's model. */
  model: string;
  /**
   * When `model` is a name the catalog lacks, read by its family or provider: the catalog model
   * whose profile it took ("claude-sonnet-4-5" for "claude-sonnet-9"); null for a known model or a profile.
   */
  modelInferredFrom: string | null;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The counter of the chat's messages ("o200k_base", "heuristic:0.28", ...). */
  counter: string;
  /** The last built context's usage, or null before the first build. */
  lastUsage: Usage | null;
  /** Tokens of the last built context. */
  tokens: number;
  /** The last context's total as a percentage of its limit. */
  usagePercent: number;
  /** Messages of the branch the last context left out. */
  evicted: number;
  /**
   * Summaries in the chat's tree, tokens they save where they stand (what they replaced less their own), and their
   * average compression ratio (replaced / own; 1: none).
   */
  compressions: number;
  /** Tokens the chat's summaries save where they stand (what they replaced less their own). */
  tokensSaved: number;
  /** The summaries' average compression ratio (tokens replaced / their own; 1: none). */
  compressionRatio: number;
  /**
   * Summarizer answers that were not used (it threw, timed out or returned something unusable): the extractive summary
   * stood in.
   */
  fallbacks: number;
  /**
   * The calibration of the last context's model and script (`chat.observeUsage`): the factor its
   * count is multiplied by, the reports heard, and the count's error before and after calibrating;
   * null before the first build.
   */
  calibration: ChatCalibration | null;
  /**
   * What the provider's count said of the last context built with a `providerCounter` (whether it
   * was asked, its count, the builds made again, why no count came); null before one.
   */
  providerCount: ProviderCount | null;
}

/** A chat's calibration in `chat.stats()`. */
export interface ChatCalibration {
  /** The model of the last context. */
  model: string;
  /** The script class of the chat's newest messages: "latin", "cyrillic-greek", "cjk" or "other". */
  script: string;
  /** What a request's count is multiplied by (its limit divided by): 1 before any report. */
  factor: number;
  /** Provider reports heard for this model and script (this Loom's, or the calibration it was opened with). */
  reports: number;
  /** Mean |error| of the uncalibrated count, a fraction of the provider's count (0.12: 12%); null before a report. */
  errorBefore: number | null;
  /**
   * Mean error of the calibrated count when each report came (negative: below the provider's); null before a report.
   */
  errorAfter: number | null;
}

/** The stats of a chat from its sizes and its last context. */
export function chatStats(
  sizes: {
    messages: number;
    branchMessages: number;
    model: string;
    modelInferredFrom: string | null;
    contextWindow: number;
    counter: string;
  },
  last: {
    usage: Usage | null;
    evicted: number;
    calibration?: ChatCalibration | null;
    providerCount?: ProviderCount | null;
  },
  summaries: SummaryStats = { compressions: 0, tokensSaved: 0, compressionRatio: 1, fallbacks: 0 },
): ChatStats {
  const usage = last.usage;
  return {
    ...sizes,
    lastUsage: usage ? { ...usage } : null,
    tokens: usage?.total ?? 0,
    usagePercent: usage ? Math.round((1000 * usage.total) / usage.limit) / 10 : 0,
    evicted: last.evicted,
    ...summaries,
    calibration: last.calibration ?? null,
    providerCount: last.providerCount ? { ...last.providerCount } : null,
  };
}

/**
 * The usage to keep as a chat's last: `last` updated in place when it has the same fields (a
 * chat lives long; it holds no new object per build, which the collector would promote), else
 * a copy of `u`.
 */
export function keepUsage(last: Usage | null, u: Usage): Usage {
  if (last === null || (u.tools === undefined) !== (last.tools === undefined)) return { ...u };
  last.system = u.system;
  last.memory = u.memory;
  last.conversation = u.conversation;
  last.input = u.input;
  if (u.tools !== undefined) last.tools = u.tools;
  last.total = u.total;
  last.limit = u.limit;
  return last;
}

/**
 * The calibration of the last build's model (null before one) in the script of the chat's newest messages, for stats().
 */
export function calibrationStats(
  calibration: Calibration,
  model: string | null,
  sync: ChatSync,
): ChatCalibration | null {
  if (model === null) return null;
  const script = scriptClass(recentTexts(sync));
  const entry = calibration.of(model).find((e) => e.script === script);
  const factor = calibration.factor(model, script);
  if (!entry) return { model, script, factor, reports: 0, errorBefore: null, errorAfter: null };
  return {
    model,
    script,
    factor,
    reports: entry.reports,
    errorBefore: entry.errorBefore,
    errorAfter: entry.errorAfter,
  };
}

/** The texts a build's script is read from: the system prompt and the branch's newest messages. */
export function recentTexts(sync: ChatSync): string[] {
  const texts: string[] = sync.record.system ? [sync.record.system] : [];
  const columns = sync.nodes().columns;
  for (let id = sync.head, n = 0; id >= 0 && n < 4; n++) {
    const m = columns.message(id);
    if (typeof m.content === "string") texts.push(m.content);
    id = m.parentId ?? -1;
  }
  return texts;
}

/**
 * `chat.observeUsage(context, reported)`: the provider's count of a request a chat built,
 * learned by `calibration` for the request's model and script. @throws INVALID_ARGUMENT
 */
export function observeUsage(calibration: Calibration, context: object, reported: unknown): void {
  const c = context as Partial<ContextWindow> | null;
  const usage = c !== null && typeof c === "object" ? c.usage : undefined;
  if (!usage || !Number.isInteger(usage.total) || typeof c!.model !== "string" || !Array.isArray(c!.conversation)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `observeUsage(context, reported) takes a context buildContext returned; got ${describe(context)}.`,
    );
  }
  const actual = reportedInputTokens(reported);
  if (actual === undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `observeUsage(context, reported) takes the input tokens the provider reported: a number, or its usage ({ ` +
        `prompt_tokens }, ` +
        `{ input_tokens, cache_read_input_tokens, cache_creation_input_tokens }, { inputTokens }, { ` +
        `promptTokenCount }); ` +
        `got ${describe(reported)}.`,
    );
  }
  // The script of what the request sent: its system text and newest messages.
  const sent = c!.conversation!;
  const texts = [c!.system ?? "", ...sent.slice(-4).map((m) => m.content)];
  if (usage.total > 0) calibration.observe(c!.model!, scriptClass(texts), usage.total, actual);
}
