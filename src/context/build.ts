import { CtxloomError } from "../errors.js";
import { REPLY_PRIMING, TOKENS_PER_MESSAGE, callCounter, messageTokens } from "../tokens/chat.js";
import type { Message } from "../message.js";
import { SUMMARY_PREFIX, markCacheBreakpoint, presentSummary, toAnthropic, toOpenAI, toResponses, toTranscript, type OpenAIMessage } from "./format.js";
import { checkCriticalUnits } from "./critical.js";
import { withHeldConversation } from "./held.js";
import { planBuild, type BuildPlan } from "./build-plan.js";
import { selectStable } from "./stable.js";
import { truncateToChars } from "./truncate.js";
import { fitted, systemCost } from "./system-cost.js";
import { toolView, viewReport } from "./views.js";
import type { ContextView } from "./view-source.js";
import { fromCompaction, partsView, type PartsView } from "./reasoning-view.js";
import type { BuildOptions, ContextPressure, ContextSource, ContextWindow, ContextWindowFor, Usage } from "./types.js";
import { summaryThreshold } from "../summary/run-plan.js";
import { clearTrigger } from "../models/tool-results.js";
import type { ContextBase } from "./held.js";

export type * from "./types.js";
export { BUILD_KEYS } from "./types.js";

/**
 * Builds the context of one request: truncates system and
 * memory to their slices, lets unused slices flow to the conversation, selects the
 * conversation in the engine (one call: walk, priorities, tool units), and formats.
 * Nothing is tokenized but the system, memory and input texts of this call.
 */
export function buildContext<O extends BuildOptions | undefined = undefined>(source: ContextSource, options?: O): ContextWindowFor<O> {
  return build(source, options) as ContextWindowFor<O>;
}

function build(source: ContextSource, options: BuildOptions | undefined): ContextWindow {
  return buildPlanned(source, planBuild(source, options));
}

/**
 * @internal Builds from a plan `planBuild` made of the call's options: a caller that plans
 * first (a chat checks every option before recall embeds anything, and builds again after a
 * summary) hands the plan on, so no option is checked nor tool counted twice.
 */
export function buildPlanned(source: ContextSource, plan: BuildPlan): ContextWindow {
  const { profile, budget, limits, counter, limit, input, format } = plan;

  // System and memory: truncated to their slices, each sent as its own message. A system
  // prompt is the same text build after build: its count is kept (per counter, a few texts).
  const system = fitted(counter, plan.system, budget.system);
  // The working memory the chat carries goes first, the call's own after it: one text, cut as one.
  const stored = plan.memoryScope === "none" ? undefined : source.stored;
  const joined = stored?.text ? (plan.memory ? `${stored.text}\n\n${plan.memory}` : stored.text) : plan.memory;
  const memory = fitted(counter, limits ? truncateToChars(joined, limits.memoryMaxChars) : joined, budget.memory);
  const memoryRevision = stored ? { scope: stored.scope, revision: stored.revision, omitted: Math.max(0, stored.text.length - memory.length) } : null;
  const systemTokens = system ? systemCost(counter, system) : 0;
  const memoryTokens = memory ? systemCost(counter, memory) : 0;
  if (input !== undefined && counter.atLeast) {
    // A linear bound first: an input that cannot fit is refused before it is counted.
    const least = TOKENS_PER_MESSAGE + callCounter(counter, () => counter.atLeast!(input));
    if (least > limit - REPLY_PRIMING) {
      throw new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `The input (at least ${least} tokens) does not fit ${profile.name}'s window (limit ${limit} tokens). ` +
          `Split or summarize the input, or use a model with a larger window.`,
      );
    }
  }
  const inputTokens = input === undefined ? 0 : messageTokens(counter, { role: "user", content: input });
  const tools = plan.tools ?? 0;

  // Tool results, reasoning and compactions as this request sends them (cut, cleared, left
  // out): the selections count what is sent.
  const fixed = REPLY_PRIMING + tools + systemTokens + memoryTokens + inputTokens;
  const { view: results, clearing } = source.toolViews ? toolView(source, plan.toolResults, limit - fixed, fixed, limit) : NO_TOOL_VIEW;
  const parts = source.toolViews
    ? partsView(source, format, plan.reasoningTurns, input !== undefined, limit - fixed, results, source.sendsReasoning === true)
    : null;
  const view = parts ? parts.view : results;
  if (view) source.engine.swapTokens(source.tree, view.ids, view.tokens);
  try {
    return selectAndFormat(source, plan, view, parts, { system, memory, memoryRevision, systemTokens, memoryTokens, inputTokens, tools, clearing });
  } finally {
    if (view) source.engine.swapTokens(source.tree, view.ids, view.tokens); // the chat's own counts back
  }
}

/** The parts of a request counted before its conversation. */
interface Counted {
  system: string;
  memory: string;
  memoryRevision: ContextWindow["memoryRevision"];
  systemTokens: number;
  memoryTokens: number;
  inputTokens: number;
  tools: number;
  /** Older tool results are being cleared (toolResults.clear past its trigger). */
  clearing: boolean;
}

/** The rest of a build, with the view's counts in the engine: recall, the selection and the format. */
function selectAndFormat(source: ContextSource, plan: BuildPlan, view: ContextView | null, parts: PartsView | null, c: Counted): ContextWindow {
  const { profile, budget, limits, counter, limit, input, format } = plan;
  // A compaction this format sends back stands for all before it: only what follows is selected.
  const horizon = parts ? parts.horizon : 0;
  const considered = horizon > 0 && (plan.window === 0 || plan.window > horizon) ? horizon : plan.window;
  const { system, systemTokens, inputTokens, tools } = c;
  let { memory, memoryTokens } = c;
  const read = view ? (id: number) => view.messages.get(id) ?? source.message(id) : (id: number) => source.message(id);

  let recalled: Message[] = [];
  if (source.recall && source.head >= 0) {
    // Recall fills the memory slice with exchanges not in the window the rest would hold
    // (the memory it adds only shrinks that window, so nothing is sent twice).
    const room = limit - REPLY_PRIMING - systemTokens - memoryTokens - inputTokens;
    const before = room < 0 ? null : selectStable(source, room, considered, room, plan.prefixStep);
    const window = before?.fits ? before.ids.slice() : [];
    const join = (text: string) => (memory && text ? `${memory}\n\n${text}` : memory || text);
    const fill = source.recall(Array.from(window), (text) => {
      const all = join(text);
      return systemCost(counter, all) <= budget.memory && (!limits || all.length <= limits.memoryMaxChars);
    });
    if (fill.text) {
      memory = join(fill.text);
      memoryTokens = systemCost(counter, memory);
      recalled = fill.messages;
    }
  }

  // What the other parts leave (their unused slices included) goes to the conversation.
  const available = limit - REPLY_PRIMING - tools - systemTokens - memoryTokens - inputTokens;
  if (available < 0 && tools > 0 && available + tools >= 0) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `The tool definitions (${tools} tokens) leave no room in ${profile.name}'s window (limit ${limit} tokens) ` +
        `for the system prompt, memory and input. Send fewer tools, shorten their descriptions, or use a model with a larger window.`,
    );
  }
  if (available < 0) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `The input (${inputTokens} tokens) does not fit ${profile.name}'s window with the system prompt and memory ` +
        `(limit ${limit} tokens). Split or summarize the input, shorten the system prompt or memory, or use a model with a larger window.`,
    );
  }
  let conversation: Message[] = [];
  /** The selection's messages before any history limit cut one (a cut message is a new object). */
  let uncut: Message[] = [];
  /** The ids selected, when the OpenAI format sends them with no Message made (see ContextSource.sendable). */
  let sent: Int32Array | null = null;
  let conversationTokens = 0;
  let evicted = 0;
  if (source.head >= 0) {
    // History limits cut texts after the selection, and a cut text (with its "…") can cost
    // more than the whole one did: the selection is then redone with that much less, until
    // the cut conversation fits. Each round asks for at least one token less, and rounds
    // are rare (a cut adds a token or two), so this ends quickly.
    let ask = available;
    for (;;) {
      const selection = selectStable(source, ask, considered, available, plan.prefixStep);
      if (!selection.fits) {
        throw new CtxloomError(
          "MESSAGE_TOO_LARGE",
          `The newest user turn and the chat's critical messages need ${selection.forcedTokens} tokens` +
            (ask < available ? ` (more once cut to the history limits)` : ``) + `, but only ` +
            `${available} are left for the conversation in ${profile.name}'s window after the system prompt, memory and input. ` +
            `Split or summarize the message, lower the priority of old critical messages, or use a model with a larger window.`,
        );
      }
      const ids = selection.ids;
      if (ask === available) checkCriticalUnits(source, ids);
      conversationTokens = selection.keptTokens;
      evicted = selection.evicted;
      if (!limits && format === "openai" && source.sendable && source.held) {
        sent = ids; // (maybe the engine's view: read before its next call) formatted straight from the chat below; the conversation is made when read
        break;
      }
      conversation = uncut = Array.from(ids, read);
      if (!limits) break;
      conversation = conversation.map((m) => {
        if (m.role === "tool" || m.kind === "summary" || m.content.length <= limits.maxCharsPerTurn) return m;
        const cut = { ...m, content: truncateToChars(m.content, limits.maxCharsPerTurn) };
        cut.tokens = messageTokens(counter, cut);
        conversationTokens += cut.tokens - tokensOf(source, m); // the selection counted what the engine holds
        return cut;
      });
      if (conversationTokens <= available) break;
      ask -= conversationTokens - available;
    }
  }

  const compaction = parts && parts.boundary >= 0 ? fromCompaction(source, parts.boundary, conversation) : null;
  if (compaction) {
    conversation = compaction.conversation;
    conversationTokens -= compaction.tokens;
    evicted -= compaction.carried;
  }

  const total = REPLY_PRIMING + tools + systemTokens + memoryTokens + conversationTokens + inputTokens;
  // Literals whole, never a spread and more keys: in V8 that makes a hidden class per object,
  // old-space garbage at every build.
  const usage: Usage = plan.tools === undefined
    ? { system: systemTokens, memory: memoryTokens, conversation: conversationTokens, input: inputTokens, total, limit }
    : { system: systemTokens, memory: memoryTokens, conversation: conversationTokens, input: inputTokens, tools, total, limit };
  let summary: string | null = null;
  for (const m of conversation) if (m.kind === "summary") summary = m.content; // (none read yet when sent)
  const { cleared, truncated } = view ? viewReport(view, sent ?? Int32Array.from(conversation, (m) => m.id)) : NO_VIEW;
  const pressure = pressureOf(plan, usage, c);
  const base: Base = {
    memory, memoryRevision: c.memoryRevision, input: input ?? null, usage, pressure, conversation, recalled, recallDegraded: source.recallDegraded ?? null, evicted, cleared, truncated,
    compressed: summary !== null, summary, model: profile.name, budget: { ...budget }, // (the plan's is shared)
  };

  const inputMessage = format === "openai" || input === undefined ? [] : [{ role: "user" as const, content: input }];
  if (format === "anthropic") {
    // Anthropic's first message is the user's. What comes before the first user message is
    // dropped, except CRITICAL messages, which move into the system text as a transcript.
    const chatSystem = conversation.filter((m) => m.role === "system");
    let rest = conversation.filter((m) => m.role !== "system");
    const first = compaction ? 0 : rest.findIndex((m) => m.role === "user"); // a compaction goes first
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
    usage.conversation -= droppedTokens;
    usage.total -= droppedTokens;
    base.pressure = pressureOf(plan, usage, c);
    const systemText = [
      system, memory, ...chatSystem.map((m) => (m.kind === "summary" ? SUMMARY_PREFIX : "") + m.content), keptLead.length ? toTranscript(keptLead) : "",
    ];
    base.conversation = [...chatSystem, ...keptLead, ...rest].sort((a, b) => a.id - b.id);
    base.evicted = evicted + lead.length - keptLead.length;
    return windowOf(base, "anthropic", plan.cacheControl ? markCacheBreakpoint(messages) : messages, systemText.filter((t) => t.length > 0).join("\n\n"));
  }
  if (format === "responses") {
    const lead = [system, memory].filter((t) => t.length > 0).map((content) => ({ role: "system" as const, content }));
    return windowOf(base, "responses", toResponses([...lead, ...conversation, ...inputMessage]), system);
  }
  // A long run of the chat's path comes whole from the chat, sharing its last context's objects.
  const run = sent && !view && source.sendRun ? source.sendRun(sent) : null;
  // Sized once (a summary may add a message): a long context is not copied as it grows.
  let messages: OpenAIMessage[] = run ? [] : new Array<OpenAIMessage>(3 + (sent ? sent.length : conversation.length));
  let n = 0;
  if (system) messages[n++] = { role: "system", content: system };
  if (memory) messages[n++] = { role: "system", content: memory };
  if (run) {
    messages = messages.concat(run); // (one copy: the run is the chat's)
    n = messages.length;
  } else if (sent) {
    // In place from n, then the summaries (null there) presented where they are: a summary
    // may take two messages, so the rest moves up one (summaries are few).
    const from = n;
    const summaries = source.sendable!(sent, messages as (OpenAIMessage | null)[], from);
    if (view) {
      for (let k = 0; k < sent.length; k++) {
        const m = view.messages.get(sent[k]!);
        // (A parts view changes nothing this format sends: it sends no reasoning nor compaction.)
        if (m && view.kinds.get(sent[k]!) !== "parts") messages[from + k] = toOpenAI(m);
      }
    }
    n += sent.length;
    for (let k = sent.length - 1, left = summaries; left > 0 && k >= 0; k--) {
      if (messages[from + k] !== null) continue;
      left--;
      const m = read(sent[k]!);
      summary ??= m.content; // the newest one sent is the context's
      const shown = presentSummary(m.id, m.content, source.summaryPresentation).map(toOpenAI);
      messages.splice(from + k, 1, ...shown);
      n += shown.length - 1;
    }
  } else for (const m of conversation) m.kind === "summary" ? (n = summarized(messages, n, m, source)) : (messages[n++] = toOpenAI(m));
  if (input !== undefined) messages[n++] = { role: "user", content: input };
  messages.length = n;
  if (sent) {
    // Known only now: the conversation was not made.
    base.summary = summary;
    base.compressed = summary !== null;
  }
  if (source.held && (sent || conversation.every((m, i) => m === uncut[i]))) {
    // The messages sent are what the caller keeps across its request (often seconds): the
    // conversation, made when first read, costs nothing until then.
    const held = view ? (id: number) => view.messages.get(id) ?? source.held!(id) : source.held;
    const ids = sent ? (source.heldIds ? source.heldIds(sent) : sent.slice()) : Int32Array.from(conversation, (m) => m.id);
    return withHeldConversation(base, "openai", messages, system, ids, held);
  }
  return windowOf(base, "openai", messages, system);
}

/**
 * What the selection counted for `m`: the engine's count, which a redaction sets anew (a
 * message read from the chat may carry the count it was stored with).
 */
const tokensOf = (source: ContextSource, m: Message): number => source.engine.tokens(source.tree, m.id);

/** Adds summary `m` to `messages` at `n` as the chat presents it; returns the next index. */
function summarized(messages: OpenAIMessage[], n: number, m: Message, source: ContextSource): number {
  for (const p of presentSummary(m.id, m.content, source.summaryPresentation)) messages[n++] = toOpenAI(p);
  return n;
}

/** How full the request is, and when the chat next summarizes (the policy's trigger) or clears (clear's trigger). */
function pressureOf(plan: BuildPlan, usage: Usage, c: Counted): ContextPressure {
  const fixed = REPLY_PRIMING + c.tools + c.systemTokens + usage.memory + c.inputTokens;
  const room = plan.limit - REPLY_PRIMING - c.systemTokens - usage.memory - c.inputTokens; // (as the summary planner reads it)
  const clear = plan.toolResults.clear;
  return {
    used: usage.limit > 0 ? Math.min(1, usage.total / usage.limit) : 1,
    summarizeAt: plan.summary ? fixed + summaryThreshold(plan.summary, room) : null,
    clearAt: clear && !c.clearing && clearTrigger(clear, plan.limit) >= usage.total ? clearTrigger(clear, plan.limit) : null,
  };
}

const NO_TOOL_VIEW = { view: null, clearing: false };

/** The report of a context that sends every message as the chat holds it (shared: read-only). */
const NONE = Object.freeze({ count: 0, tokens: 0, ids: Object.freeze([]) as readonly number[] });
const NO_VIEW = { cleared: NONE, truncated: NONE };

/** What every format's context holds besides its messages and system text. */
type Base = ContextBase;

/** A context in one literal (see `usage` in build). */
function windowOf(b: Base, format: ContextWindow["format"], messages: ContextWindow["messages"], system: string): ContextWindow {
  return {
    memory: b.memory, memoryRevision: b.memoryRevision, input: b.input, usage: b.usage, pressure: b.pressure, conversation: b.conversation, recalled: b.recalled, recallDegraded: b.recallDegraded,
    evicted: b.evicted, cleared: b.cleared, truncated: b.truncated, compressed: b.compressed, summary: b.summary, model: b.model, budget: b.budget,
    format, messages, system,
  };
}

/** A context built in the OpenAI format as one formatted string. */
export function formatPrompt(context: ContextWindow): string {
  const parts: Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId">[] = [];
  if (context.system) parts.push({ role: "system", content: context.system });
  if (context.memory) parts.push({ role: "system", content: context.memory });
  for (const m of context.conversation) parts.push(m.kind === "summary" ? { role: "system", content: SUMMARY_PREFIX + m.content } : m);
  if (context.input !== null) parts.push({ role: "user", content: context.input });
  return toTranscript(parts);
}
