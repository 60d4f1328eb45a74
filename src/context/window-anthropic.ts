/**
 * A context in Anthropic's Messages format, with the rules that format sets: its first
 * message is the user's, so what comes before the first user message is dropped, except
 * CRITICAL messages, which move into the system text as a transcript with the chat's system
 * messages (summaries among them); the usage and pressure count what is sent.
 */
import { CtxloomError } from "../errors.js";
import { SUMMARY_PREFIX, markCacheBreakpoint, toAnthropic, toTranscript } from "./format.js";
import type { BuildPlan } from "./build-plan.js";
import { tokensOf, type Counted, type Selection } from "./selection.js";
import { pressureOf, windowOf, type Base } from "./window.js";
import type { ContextSource, ContextWindow } from "./types.js";

/** The Anthropic context of a selection; `base` is this build's own (its conversation, evicted and usage change). */
export function anthropicWindow(
  source: ContextSource,
  plan: BuildPlan,
  c: Counted,
  s: Selection,
  base: Base,
): ContextWindow {
  const input = plan.input;
  const inputMessage = input === undefined ? [] : [{ role: "user" as const, content: input }];
  const conversation = s.conversation;
  const chatSystem = conversation.filter((m) => m.role === "system");
  let rest = conversation.filter((m) => m.role !== "system");
  const first = s.compacted ? 0 : rest.findIndex((m) => m.role === "user"); // a compaction goes first
  const lead = first < 0 && inputMessage.length === 0 ? rest : rest.slice(0, first < 0 ? rest.length : first);
  const keptLead = lead.filter((m) => m.priority === "critical");
  const droppedTokens = lead.reduce((sum, m) => sum + (m.priority === "critical" ? 0 : tokensOf(source, m)), 0);
  rest = rest.slice(lead.length);
  const { messages } = toAnthropic([...rest, ...inputMessage]);
  if (messages.length === 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "An Anthropic request needs a user message, and this context has none: append one or pass { input }.",
    );
  }
  const usage = base.usage;
  usage.conversation -= droppedTokens;
  usage.total -= droppedTokens;
  base.pressure = pressureOf(plan, usage, c);
  const systemText = [
    c.system,
    c.memory,
    ...chatSystem.map((m) => (m.kind === "summary" ? SUMMARY_PREFIX : "") + m.content),
    keptLead.length ? toTranscript(keptLead) : "",
  ];
  base.conversation = [...chatSystem, ...keptLead, ...rest].sort((a, b) => a.id - b.id);
  base.evicted = s.evicted + lead.length - keptLead.length;
  const sent = plan.cacheControl ? markCacheBreakpoint(messages) : messages;
  return windowOf(base, "anthropic", sent, systemText.filter((t) => t.length > 0).join("\n\n"));
}
