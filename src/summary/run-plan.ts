import type { SummaryPolicy } from "./policy.js";

/** What the planner needs of each visible message (a summary stands for the run it covers). */
export interface PlanMessage {
  id: number;
  role: "system" | "user" | "assistant" | "tool";
  priority: "low" | "normal" | "high" | "critical";
  tokens: number;
  kind: "message" | "summary";
}

/** A run of the visible conversation to summarize: indexes into it, both inclusive. */
export interface SummaryRun {
  start: number;
  end: number;
  /** Tokens of the run as it is sent today. */
  tokens: number;
}

/**
 * The tokens at which a conversation is summarized: `fraction` of the conversation's share
 * of the budget, or an absolute threshold capped by that share (a threshold the model can
 * never reach would never fire).
 */
export function summaryThreshold(policy: SummaryPolicy, conversationBudget: number): number {
  return "fraction" in policy.trigger
    ? Math.max(1, Math.floor(policy.trigger.fraction * conversationBudget))
    : Math.min(policy.trigger.tokens, conversationBudget);
}

/**
 * Which run of `visible` (the branch as contexts see it, oldest first, summaries in place of
 * what they cover) to summarize, or null when the conversation is under `threshold` tokens
 * or nothing may be summarized.
 *
 * - `{ oldest: f }`: everything older than the newest `threshold` tokens, plus the oldest
 *   fraction f of those (so one summary brings even a huge imported history back under
 *   the threshold); an earlier summary at the start is covered whole (summaries of summaries).
 * - `{ keepLast: n }`: everything but the newest n entries; earlier summaries in it are
 *   covered whole (one rolling summary, not a growing list of them).
 *
 * The run never covers the newest user message or anything after it, never a CRITICAL
 * message (it stops before the first one), never splits a tool call from its results, and
 * holds at least two messages. O(visible).
 */
export function planSummaryRun(
  visible: readonly PlanMessage[],
  policy: SummaryPolicy,
  threshold: number,
): SummaryRun | null {
  const n = visible.length;
  let total = 0;
  for (const m of visible) total += m.tokens;
  if (total < threshold) return null;

  let start: number;
  let end: number;
  if ("oldest" in policy.select) {
    // The window: the newest messages within the threshold.
    let windowStart = n;
    let sum = 0;
    while (windowStart > 0 && sum + visible[windowStart - 1]!.tokens <= threshold)
      sum += visible[--windowStart]!.tokens;
    start = 0;
    end = windowStart + Math.ceil(policy.select.oldest * (n - windowStart)) - 1;
  } else {
    start = 0;
    end = n - 1 - policy.select.keepLast;
  }

  let newestUser = -1;
  for (let i = n - 1; i >= 0; i--) {
    if (visible[i]!.role === "user") {
      newestUser = i;
      break;
    }
  }
  end = Math.min(end, newestUser - 1);
  while (start <= end && (visible[start]!.priority === "critical" || visible[start]!.role === "tool")) start++;
  for (let i = start; i <= end; i++) {
    if (visible[i]!.priority === "critical") {
      end = i - 1;
      break;
    }
  }
  // A tool result belongs with the call before it: never end a run inside a unit.
  while (end >= start && end + 1 < n && visible[end + 1]!.role === "tool") end--;
  if (end - start + 1 < 2) return null;
  let tokens = 0;
  for (let i = start; i <= end; i++) tokens += visible[i]!.tokens;
  return { start, end, tokens };
}

/**
 * Tokens a summary may take: the policy's cap, else an eighth of the conversation budget,
 * at most half of what it covers. An eighth leaves room below the trigger: with the default
 * policy a summarized conversation holds at most 0.7 x 0.8 + 0.125 = 0.685 of the budget,
 * so the next summary waits until the conversation grows again (not at every build).
 */
export function summaryBudget(policy: SummaryPolicy, conversationBudget: number, coveredTokens: number): number {
  if (policy.maxTokens !== undefined) return Math.min(policy.maxTokens, Math.max(16, coveredTokens - 1));
  return Math.max(16, Math.min(Math.floor(conversationBudget / 8), Math.floor(coveredTokens / 2)));
}
