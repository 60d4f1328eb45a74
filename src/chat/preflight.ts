// What a call that writes in several steps checks before its first write (an adapter that
// creates a chat, appends the user's turn, then builds its context): the messages as append
// checks them, their size against what one request may hold, and the build's options as
// buildContext checks them, with nothing written, built, embedded nor summarized.
import { planBuild } from "../context/build-plan.js";
import type { BuildOptions } from "../context/types.js";
import { CtxloomError } from "../errors.js";
import { MAX_TOKENS, checkMessageInput, type CheckedInput, type MessageInput } from "../message.js";
import type { BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelProfile } from "../models/profiles.js";
import { splitRecall } from "../recall/chat-recall.js";
import { splitCounter } from "./provider-count.js";
import type { RecallHub } from "../recall/hub.js";
import { checkCallSummaries } from "../summary/settings.js";
import { REPLY_PRIMING, imageRuleFor, messageTokens, type TokenCounter } from "../tokens/index.js";
import type { ToolResultPolicy } from "../models/tool-results.js";
import type { ReasoningTurns } from "../models/reasoning.js";

/** A chat's settings as its appends and builds read them (a chat's own, or those `create()` would give one). */
export interface PreflightChat {
  profile: Readonly<ModelProfile>;
  counter: TokenCounter;
  system: string | null;
  budget: Partial<BudgetSplit> | undefined;
  historyLimits: boolean | Partial<HistoryLimits> | undefined;
  /** What one request may hold: a message costing more (with the reply priming) is refused. */
  appendLimit: number;
  /** The Loom's recall (null: opened with `recall: false`). */
  recall: RecallHub | null;
  /** The Loom refuses model names its catalog lacks. */
  strictModels: boolean;
  /** How the chat sends tool results (a build's settings go over them). */
  toolResults?: ToolResultPolicy;
  /** How many turns send their reasoning (the chat's, else its Loom's; a build's goes over it). */
  reasoningTurns?: ReasoningTurns;
}

/**
 * Throws what appending `inputs` (plain messages, no tool results) and then building with
 * `build` would throw for a reason known before (a bad message, one larger than a request,
 * a bad build option, recall on a Loom without it), and does nothing else. What only the
 * writes or the build can tell (the store, a context the newest turn cannot fit, the
 * summarizer, the embedder) is left to them.
 * @throws the codes of append and buildContext
 */
export function preflight(chat: PreflightChat, inputs: readonly MessageInput[], build: BuildOptions | undefined): void {
  for (const input of inputs) checkSize(chat.counter, chat.profile, chat.appendLimit, checkMessageInput(input));
  const { rest: counted } = splitRecall(chat.recall, build);
  const { rest } = splitCounter(counted, "buildContext(options)");
  checkCallSummaries((rest as { summaries?: unknown } | undefined)?.summaries, "buildContext(options).summaries");
  planBuild(chat, rest);
}

/**
 * The tokens of the checked message `m`, counted up to what a request may hold (a text far past
 * it is refused at that cost). A tool result is kept whatever its size (a context sends it cut):
 * counted whole.
 * @throws MESSAGE_TOO_LARGE when a message other than a tool result cannot fit a request even alone
 */
export function checkSize(
  counter: TokenCounter,
  profile: Readonly<ModelProfile>,
  appendLimit: number,
  m: CheckedInput,
): number {
  const tool = m.role === "tool";
  const tokens = messageTokens(counter, m, imageRuleFor(profile.name), tool ? MAX_TOKENS : appendLimit - REPLY_PRIMING);
  if (!tool && tokens + REPLY_PRIMING > appendLimit) {
    const input = profile.maxInputTokens ? `, at most its input limit ${profile.maxInputTokens},` : "";
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `This message costs at least ${tokens} tokens and cannot fit ${profile.name}'s window even alone ` +
        `(a request may use ${appendLimit} tokens: 90% of ${profile.contextWindow}${input} less the reserve). ` +
        `Split it into several messages, summarize it, or use a model with a larger window.`,
    );
  }
  return tokens;
}
