/**
 * What every format's context holds besides its messages (the last step of a build, allocate
 * -> select -> format): the usage, the pressure, the selection's report, made once from what
 * the build counted and selected; and the context in one literal (`windowOf`), which each
 * format's window (window-anthropic.ts, window-responses.ts, window-openai.ts) completes.
 * Also `formatPrompt`, a built context as one string.
 */
import { REPLY_PRIMING } from "../tokens/chat.js";
import type { Message } from "../message.js";
import { SUMMARY_PREFIX, toTranscript } from "./format.js";
import type { BuildPlan } from "./build-plan.js";
import { viewReport } from "./views.js";
import type { ContextView } from "./view-source.js";
import type { ContextBase } from "./held.js";
import type { Counted, Selection } from "./selection.js";
import type { ContextPressure, ContextSource, ContextWindow, Usage } from "./types.js";
import { summaryThreshold } from "../summary/run-plan.js";
import { clearTrigger } from "../models/tool-results.js";

/** What every format's context holds besides its messages and system text. */
export type Base = ContextBase;

/** The base of a context: its usage, pressure and what the selection reports. */
export function baseOf(
  source: ContextSource,
  plan: BuildPlan,
  view: ContextView | null,
  c: Counted,
  s: Selection,
  recalled: Message[],
): Base {
  const { profile, budget, limit, input } = plan;
  const { tools, systemTokens, memoryTokens, inputTokens } = c;
  const { conversation, conversationTokens, sent } = s;
  const total = REPLY_PRIMING + tools + systemTokens + memoryTokens + conversationTokens + inputTokens;
  // Literals whole, never a spread and more keys: in V8 that makes a hidden class per object,
  // old-space garbage at every build.
  const usage: Usage =
    plan.tools === undefined
      ? {
          system: systemTokens,
          memory: memoryTokens,
          conversation: conversationTokens,
          input: inputTokens,
          total,
          limit,
        }
      : {
          system: systemTokens,
          memory: memoryTokens,
          conversation: conversationTokens,
          input: inputTokens,
          tools,
          total,
          limit,
        };
  let summary: string | null = null;
  for (const m of conversation) if (m.kind === "summary") summary = m.content; // (none read yet when sent)
  const { cleared, truncated } = view ? viewReport(view, sent ?? Int32Array.from(conversation, (m) => m.id)) : NO_VIEW;
  const pressure = pressureOf(plan, usage, c);
  return {
    memory: c.memory,
    memoryRevision: c.memoryRevision,
    input: input ?? null,
    usage,
    pressure,
    conversation,
    recalled,
    recallDegraded: source.recallDegraded ?? null,
    evicted: s.evicted,
    cleared,
    truncated,
    compressed: summary !== null,
    summary,
    model: profile.name,
    budget: { ...budget }, // (the plan's is shared)
  };
}

/** How full the request is, and when the chat next summarizes (the policy's trigger) or clears (clear's trigger). */
export function pressureOf(plan: BuildPlan, usage: Usage, c: Counted): ContextPressure {
  const fixed = REPLY_PRIMING + c.tools + c.systemTokens + usage.memory + c.inputTokens;
  // (as the summary planner reads it)
  const room = plan.limit - REPLY_PRIMING - c.systemTokens - usage.memory - c.inputTokens;
  const clear = plan.toolResults.clear;
  return {
    used: usage.limit > 0 ? Math.min(1, usage.total / usage.limit) : 1,
    summarizeAt: plan.summary ? fixed + summaryThreshold(plan.summary, room) : null,
    clearAt:
      clear && !c.clearing && clearTrigger(clear, plan.limit) >= usage.total ? clearTrigger(clear, plan.limit) : null,
  };
}

/** The report of a context that sends every message as the chat holds it (shared: read-only). */
const NONE = Object.freeze({ count: 0, tokens: 0, ids: Object.freeze([]) as readonly number[] });
const NO_VIEW = { cleared: NONE, truncated: NONE };

/** A context in one literal (see `usage` in baseOf); HeldContext (held.ts) keeps this order. */
export function windowOf(
  b: Base,
  format: ContextWindow["format"],
  messages: ContextWindow["messages"],
  system: string,
): ContextWindow {
  return {
    memory: b.memory,
    memoryRevision: b.memoryRevision,
    input: b.input,
    usage: b.usage,
    pressure: b.pressure,
    conversation: b.conversation,
    recalled: b.recalled,
    recallDegraded: b.recallDegraded,
    evicted: b.evicted,
    cleared: b.cleared,
    truncated: b.truncated,
    compressed: b.compressed,
    summary: b.summary,
    model: b.model,
    budget: b.budget,
    format,
    messages,
    system,
  };
}

/** A context built in the OpenAI format as one formatted string. */
export function formatPrompt(context: ContextWindow): string {
  const parts: Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId">[] = [];
  if (context.system) parts.push({ role: "system", content: context.system });
  if (context.memory) parts.push({ role: "system", content: context.memory });
  for (const m of context.conversation)
    parts.push(m.kind === "summary" ? { role: "system", content: SUMMARY_PREFIX + m.content } : m);
  if (context.input !== null) parts.push({ role: "user", content: context.input });
  return toTranscript(parts);
}
