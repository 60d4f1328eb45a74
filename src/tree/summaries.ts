import { CtxloomError, describe } from "../errors.js";
import { presentSummary, type SummaryPresentation } from "../context/format.js";
import type { BuildOptions, ContextWindow } from "../context/types.js";
import type { ChatOptions } from "../store/types.js";
import { PRIORITIES, ROLES, type Message } from "../message.js";
import { REPLY_PRIMING, messageTokens, type TokenCounter } from "../tokens/index.js";
import type { SummarizedMessage } from "../summary/extractive.js";
import { planSummaryRun, summaryBudget, summaryThreshold, type PlanMessage } from "../summary/plan.js";
import { checkSummaryOptions, resolveSummaryPolicy, type SummaryOptions, type SummaryPolicy } from "../summary/policy.js";
import { summarizeRun, type Summarizer, type SummaryText } from "../summary/run.js";
import type { ChatNodes } from "./nodes.js";

/** The Loom's summary settings (`Loom.open({ summarize, summarizer, summaryPrompt, summaryPresentation })`). */
export interface LoomSummaries {
  summarize?: SummaryOptions;
  summarizer?: Summarizer;
  summaryPrompt?: string;
  summaryPresentation?: SummaryPresentation;
}

/** Checks the Loom's summary options. @throws INVALID_ARGUMENT */
export function checkLoomSummaries(o: Record<string, unknown>): LoomSummaries {
  const out: LoomSummaries = {};
  const summarize = checkSummaryOptions(o.summarize, "Loom.open(options).summarize");
  if (summarize !== undefined) out.summarize = summarize;
  if (o.summarizer !== undefined) {
    if (typeof o.summarizer !== "function") {
      throw new CtxloomError("INVALID_ARGUMENT", `summarizer must be a function ({ messages, previousSummary, maxTokens, prompt, signal }) => string; got ${describe(o.summarizer)}.`);
    }
    out.summarizer = o.summarizer as Summarizer;
  }
  if (o.summaryPrompt !== undefined) {
    if (typeof o.summaryPrompt !== "string" || o.summaryPrompt.trim().length === 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `summaryPrompt must be a non-empty string; got ${describe(o.summaryPrompt)}.`);
    }
    out.summaryPrompt = o.summaryPrompt;
  }
  if (o.summaryPresentation !== undefined) out.summaryPresentation = checkPresentation(o.summaryPresentation, "summaryPresentation");
  return out;
}

/** @throws INVALID_ARGUMENT unless "system" or "tool" */
export function checkPresentation(value: unknown, what: string): SummaryPresentation {
  if (value !== "system" && value !== "tool") {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be "system" (a system message) or "tool" (a summarize_history call and its result); got ${describe(value)}.`);
  }
  return value;
}

/** A summary planned in the chat's queue, to be written outside it. */
export interface SummaryJob {
  first: number;
  last: number;
  messages: SummarizedMessage[];
  previousSummary: string | null;
  maxTokens: number;
  /** Tokens of the run on the summarized path today. */
  replaced: number;
  timeoutMs: number;
}

/** Tokens left for the conversation in a built context. */
export function conversationBudget(context: ContextWindow): number {
  const u = context.usage;
  return u.limit - REPLY_PRIMING - u.system - u.memory - u.input;
}

/**
 * True when the summarized path ending at `head` holds at least `threshold` tokens. Walks
 * back from the head only until it knows: O(entries within the threshold), never the whole
 * history (walks of 64, 128, ... entries).
 */
export function reachesThreshold(nodes: ChatNodes, head: number, threshold: number): boolean {
  const e = nodes.engine;
  for (let max = 64; ; max *= 2) {
    const n = e.walkSummarized(nodes.tree, head, max);
    const ids = e.ids.slice(0, n);
    let sum = 0;
    for (let i = n - 1; i >= 0; i--) {
      sum += e.tokens(nodes.tree, ids[i]!);
      if (sum >= threshold) return true;
    }
    if (n < max) return false;
  }
}

/**
 * Plans a summary over the summarized path ending at `head`, or null when the policy does
 * not call for one. O(W) under the trigger; O(path) when it fires.
 */
export function planSummary(nodes: ChatNodes, head: number, policy: SummaryPolicy, budget: number): SummaryJob | null {
  if (head < 0 || budget <= 0) return null;
  const threshold = summaryThreshold(policy, budget);
  if (!reachesThreshold(nodes, head, threshold)) return null;
  const e = nodes.engine;
  const n = e.walkSummarized(nodes.tree, head, 0x7fffffff);
  const ids = e.ids.slice(0, n);
  const visible: PlanMessage[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    visible[i] = {
      id, role: ROLES[e.role(nodes.tree, id)]!, priority: PRIORITIES[e.priority(nodes.tree, id)]!, tokens: e.tokens(nodes.tree, id),
      kind: nodes.isSummary(id) ? "summary" : "message",
    };
  }
  const run = planSummaryRun(fenceTurn(nodes, visible), policy, threshold);
  if (!run) return null;
  const start = visible[run.start]!;
  const end = visible[run.end]!;
  const first = start.kind === "summary" ? e.summaryFirst(nodes.tree, start.id) : start.id;
  const last = end.kind === "summary" ? e.summaryLast(nodes.tree, end.id) : end.id;
  let previousSummary: string | null = null;
  const messages: SummarizedMessage[] = [];
  for (let i = run.start; i <= run.end; i++) {
    const m = nodes.message(visible[i]!.id);
    if (m.kind === "summary") {
      if (i === run.start) previousSummary = m.content;
      else messages.push({ role: "system", content: m.content });
      continue;
    }
    const s: SummarizedMessage = { role: m.role, content: m.content };
    if (m.name !== undefined) s.name = m.name;
    if (m.toolCalls) s.toolCalls = m.toolCalls;
    if (m.toolCallId !== undefined) s.toolCallId = m.toolCallId;
    messages.push(s);
  }
  return {
    first, last, messages, previousSummary, replaced: run.tokens,
    maxTokens: summaryBudget(policy, budget, run.tokens), timeoutMs: policy.timeoutMs ?? 30_000,
  };
}

/**
 * `visible` with the entries a run may not reach marked CRITICAL (the planner stops before
 * those). After a checkout into a summarized run, a summary may hang inside the head's turn
 * (it does not apply there, see Engine.walkSummarized) while its run starts above the turn:
 * a run reaching its start would hold it in part, be refused when attached, and the
 * summarizer would have run for nothing, at every build. The run stops above it instead.
 * O(summaries + visible), when the planner runs.
 */
function fenceTurn(nodes: ChatNodes, visible: PlanMessage[]): PlanMessage[] {
  let user = visible.length - 1;
  while (user >= 0 && visible[user]!.role !== "user") user--;
  if (user < 0 || nodes.summaries.length === 0) return visible;
  const e = nodes.engine;
  const t = nodes.tree;
  const turn = new Set<number>();
  for (let i = user; i < visible.length; i++) turn.add(visible[i]!.id); // originals, from the user message down
  const top = e.depth(t, visible[user]!.id);
  let fence = top;
  for (const s of nodes.summaries) {
    if (turn.has(e.summaryLast(t, s.id))) fence = Math.min(fence, e.depth(t, e.summaryFirst(t, s.id)));
  }
  if (fence === top) return visible;
  // An entry's depth is its first message's: entries above the fence lie wholly above it.
  return visible.map((m) => (e.depth(t, m.id) >= fence && m.priority !== "critical" ? { ...m, priority: "critical" as const } : m));
}

/** The summary's text: the summarizer's, or the extractive one (with the reason). Never rejects. */
export function writeSummaryText(job: SummaryJob, counter: TokenCounter, settings: LoomSummaries): Promise<SummaryText> {
  const options: Parameters<typeof summarizeRun>[4] = { timeoutMs: job.timeoutMs };
  if (settings.summarizer) options.summarizer = settings.summarizer;
  if (settings.summaryPrompt) options.prompt = settings.summaryPrompt;
  return summarizeRun(job.messages, job.previousSummary, job.maxTokens, counter, options);
}

/**
 * The summary message to store as message `id`, or null when the run no longer applies:
 * its last message is not on the path to `head` any more, or a summary made meanwhile
 * shares part of it, or the text would save nothing. Its tokens are those of the messages
 * that present it. O(summaries x depth).
 */
export function summaryMessage(
  nodes: ChatNodes, head: number, job: SummaryJob, text: string, id: number, counter: TokenCounter, presentation: SummaryPresentation,
): Message | null {
  if (head < 0 || nodes.isSummary(head) || !nodes.isAncestor(job.last, head) || nodes.overlaps(job.first, job.last)) return null;
  let tokens = 0;
  for (const m of presentSummary(id, text, presentation)) tokens += messageTokens(counter, m);
  if (tokens >= nodes.visibleRunTokens(job.first, job.last)) return null;
  const parent = nodes.parent(job.first);
  return {
    id, parentId: parent < 0 ? null : parent, role: "system", content: text, priority: "high", tokens,
    createdAt: Date.now(), kind: "summary", covers: { first: job.first, last: job.last },
  };
}

/** The policy in force for one call: the call's, the chat's, the Loom's. */
export function policyFor(call: SummaryOptions | undefined, chat: SummaryOptions | undefined, loom: LoomSummaries): SummaryPolicy | null {
  return resolveSummaryPolicy(call, chat, loom.summarize);
}

/** Summary counts of a chat, for `chat.stats()`. */
export function summaryStats(nodes: ChatNodes, fallbacks: number): { compressions: number; tokensSaved: number; compressionRatio: number; fallbacks: number } {
  let saved = 0;
  let ratios = 0;
  for (const s of nodes.summaries) {
    saved += s.replaced - s.tokens;
    ratios += s.tokens > 0 ? s.replaced / s.tokens : 1;
  }
  const count = nodes.summaries.length;
  return { compressions: count, tokensSaved: saved, compressionRatio: count === 0 ? 1 : ratios / count, fallbacks };
}

/** A build, and the summary it calls for (null: none). */
interface Planned {
  context: ContextWindow;
  job: SummaryJob | null;
}

/** What ChatSummaries needs of its chat. */
export interface SummarizingChat {
  /** Runs a step in the chat's queue. */
  run<T>(step: () => T | Promise<T>): Promise<T>;
  /** Builds the context as things are (in the queue); a promise only when it must wait (recall). */
  build(): ContextWindow | Promise<ContextWindow>;
  nodes(): ChatNodes;
  head(): number;
  /** Stores and links the summary `make` returns (null: none). */
  add(make: (nodes: ChatNodes, id: number) => Message | null): Promise<Message | null>;
}

/** A chat's summary state: the settings in force, one summary at a time, the fallbacks counted. */
export class ChatSummaries {
  readonly #loom: LoomSummaries;
  readonly #chat: ChatOptions;
  readonly #counter: TokenCounter;
  /** A summary is being written for this chat (outside its queue). */
  #summarizing = false;
  /** Summarizer answers replaced by the extractive summary. */
  fallbacks = 0;

  constructor(loom: LoomSummaries, chat: ChatOptions, counter: TokenCounter) {
    this.#loom = loom;
    this.#chat = chat;
    this.#counter = counter;
  }

  /** The chat's own (set at its creation, from the Loom's when not given): a stored summary's tokens were counted as it sends it. */
  get presentation(): SummaryPresentation {
    return this.#chat.summaryPresentation ?? "system";
  }

  /**
   * Builds; when the policy in force fires, plans a run in the queue, writes its summary
   * outside it (a summarizer may take seconds; appends go on meanwhile), then, back in the
   * queue, stores and attaches it if the run still applies, and builds again.
   */
  build(options: BuildOptions | undefined, what: string, chat: SummarizingChat): Promise<ContextWindow> {
    let call: SummaryOptions | undefined;
    try {
      const given = options === null || typeof options !== "object" ? undefined : options.summarize;
      call = checkSummaryOptions(given, `${what}.summarize`);
    } catch (error) {
      return Promise.reject(error);
    }
    // No await on the way when the build is synchronous and nothing is to be summarized (most builds).
    const planned = (context: ContextWindow): Planned => {
      if (this.#summarizing) return { context, job: null };
      const policy = policyFor(call, this.#chat.summarize, this.#loom);
      const job = policy ? planSummary(chat.nodes(), chat.head(), policy, conversationBudget(context)) : null;
      if (job) this.#summarizing = true; // one at a time: a concurrent build does not plan the same run
      return { context, job };
    };
    return chat
      .run(() => {
        const built = chat.build();
        return built instanceof Promise ? built.then(planned) : planned(built);
      })
      .then((first) => (first.job ? this.#summarize(first.job, chat) : first.context));
  }

  /** Writes the planned summary outside the queue, then stores it and builds again in it. */
  async #summarize(job: SummaryJob, chat: SummarizingChat): Promise<ContextWindow> {
    try {
      const text = await writeSummaryText(job, this.#counter, this.#loom);
      if (text.fallback) this.fallbacks++;
      return await chat.run(async () => {
        const presentation = this.presentation;
        await chat.add((nodes, id) => summaryMessage(nodes, chat.head(), job, text.text, id, this.#counter, presentation));
        return chat.build();
      });
    } finally {
      this.#summarizing = false;
    }
  }
}
