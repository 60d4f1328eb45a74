/**
 * A context in OpenAI's Chat Completions format, the hot path of a server: the system prompt
 * and the memory as system messages, the conversation, the input. The selected ids go out
 * with no Message made when the chat can send them (ContextSource.sender), a long run of the
 * chat's path comes whole from its last context (sendRun), summaries are presented in place,
 * and the conversation is made only when the caller reads it (held.ts).
 */
import type { Message } from "../message.js";
import { presentSummary, toOpenAI, type OpenAIMessage } from "./format.js";
import { withHeldConversation } from "./held.js";
import type { BuildPlan } from "./build-plan.js";
import type { ContextView } from "./view-source.js";
import { readerOf, type Counted, type Selection } from "./selection.js";
import { windowOf, type Base } from "./window.js";
import type { ContextSource, ContextWindow } from "./types.js";

/**
 * The OpenAI context of a selection; `base` is this build's own (its summary is set when the conversation was not
 * made).
 */
export function openAIWindow(
  source: ContextSource,
  plan: BuildPlan,
  view: ContextView | null,
  c: Counted,
  s: Selection,
  base: Base,
): ContextWindow {
  const { system, memory } = c;
  const { sent, conversation } = s;
  const input = plan.input;
  // A long run of the chat's path comes whole from the chat, sharing its last context's objects.
  const run = sent && !view ? source.sender!.sendRun(sent) : null;
  // Sized once (a summary may add a message): a long context is not copied as it grows.
  let messages: OpenAIMessage[] = run ? [] : new Array<OpenAIMessage>(3 + (sent ? sent.length : conversation.length));
  let n = 0;
  let summary = base.summary;
  if (system) messages[n++] = { role: "system", content: system };
  if (memory) messages[n++] = { role: "system", content: memory };
  if (run) {
    messages = messages.concat(run); // (one copy: the run is the chat's)
    n = messages.length;
  } else if (sent) {
    // In place from n, then the summaries (null there) presented where they are: a summary
    // may take two messages, so the rest moves up one (summaries are few).
    const from = n;
    const summaries = source.sender!.sendable(sent, messages as (OpenAIMessage | null)[], from);
    if (view) {
      for (let k = 0; k < sent.length; k++) {
        const m = view.messages.get(sent[k]!);
        // (A parts view changes nothing this format sends: it sends no reasoning nor compaction.)
        if (m && view.kinds.get(sent[k]!) !== "parts") messages[from + k] = toOpenAI(m);
      }
    }
    n += sent.length;
    const read = summaries > 0 ? readerOf(source, view) : null;
    for (let k = sent.length - 1, left = summaries; left > 0 && k >= 0; k--) {
      if (messages[from + k] !== null) continue;
      left--;
      const m = read!(sent[k]!);
      summary ??= m.content; // the newest one sent is the context's
      const shown = presentSummary(m.id, m.content, source.summaryPresentation).map(toOpenAI);
      messages.splice(from + k, 1, ...shown);
      n += shown.length - 1;
    }
  } else {
    for (const m of conversation) {
      if (m.kind === "summary") n = summarized(messages, n, m, source);
      else messages[n++] = toOpenAI(m);
    }
  }
  if (input !== undefined) messages[n++] = { role: "user", content: input };
  messages.length = n;
  if (sent) {
    // Known only now: the conversation was not made.
    base.summary = summary;
    base.compressed = summary !== null;
  }
  if (source.held && (sent || conversation.every((m, i) => m === s.uncut[i]))) {
    // The messages sent are what the caller keeps across its request (often seconds): the
    // conversation, made when first read, costs nothing until then.
    const held = view ? (id: number) => view.messages.get(id) ?? source.held!(id) : source.held;
    const ids = sent ? source.sender!.heldIds(sent) : Int32Array.from(conversation, (m) => m.id);
    return withHeldConversation(base, "openai", messages, system, ids, held);
  }
  return windowOf(base, "openai", messages, system);
}

/** Adds summary `m` to `messages` at `n` as the chat presents it; returns the next index. */
function summarized(messages: OpenAIMessage[], n: number, m: Message, source: ContextSource): number {
  for (const p of presentSummary(m.id, m.content, source.summaryPresentation)) messages[n++] = toOpenAI(p);
  return n;
}
