import { PRIORITIES, ROLES, type Message } from "../message.js";
import { REPLY_PRIMING, messageTokens, type TokenCounter } from "../tokens/index.js";
import type { SummarizedMessage } from "./extractive.js";
import type { SummaryLedger } from "./ledger.js";
import { planSummaryRun, summaryBudget, summaryThreshold, type PlanMessage } from "./run-plan.js";
import type { SummaryPolicy } from "./policy.js";
import { presentSummary, type SummaryPresentation } from "./present.js";
import { summarizeRun, type Summarizer, type SummaryText } from "./run.js";
import type { SummaryTree } from "./tree.js";

/** A chat's tree with its summaries (the chat's nodes are one). */
export interface SummarizedTree extends SummaryTree {
  readonly summaries: SummaryLedger;
}

/** What the planner reads of a built context: how much of the window the conversation may take. */
export interface BuiltUsage {
  usage: { limit: number; system: number; memory: number; input: number; conversation: number };
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
export function conversationBudget(context: BuiltUsage): number {
  const u = context.usage;
  return u.limit - REPLY_PRIMING - u.system - u.memory - u.input;
}

/**
 * True when the summarized path ending at `head` holds at least `threshold` tokens. Walks
 * back from the head only until it knows: O(entries within the threshold), never the whole
 * history (walks of 64, 128, ... entries).
 */
export function reachesThreshold(nodes: SummaryTree, head: number, threshold: number): boolean {
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
export function planSummary(
  nodes: SummarizedTree,
  head: number,
  policy: SummaryPolicy,
  budget: number,
): SummaryJob | null {
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
      id,
      role: ROLES[e.role(nodes.tree, id)]!,
      priority: PRIORITIES[e.priority(nodes.tree, id)]!,
      tokens: e.tokens(nodes.tree, id),
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
    first,
    last,
    messages,
    previousSummary,
    replaced: run.tokens,
    maxTokens: summaryBudget(policy, budget, run.tokens),
    timeoutMs: policy.timeoutMs ?? 30_000,
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
function fenceTurn(nodes: SummarizedTree, visible: PlanMessage[]): PlanMessage[] {
  let user = visible.length - 1;
  while (user >= 0 && visible[user]!.role !== "user") user--;
  const summaries = nodes.summaries.entries;
  if (user < 0 || summaries.length === 0) return visible;
  const e = nodes.engine;
  const t = nodes.tree;
  const turn = new Set<number>();
  for (let i = user; i < visible.length; i++) turn.add(visible[i]!.id); // originals, from the user message down
  const top = e.depth(t, visible[user]!.id);
  let fence = top;
  for (const s of summaries) {
    if (turn.has(e.summaryLast(t, s.id))) fence = Math.min(fence, e.depth(t, e.summaryFirst(t, s.id)));
  }
  if (fence === top) return visible;
  // An entry's depth is its first message's: entries above the fence lie wholly above it.
  return visible.map((m) =>
    e.depth(t, m.id) >= fence && m.priority !== "critical" ? { ...m, priority: "critical" as const } : m,
  );
}

/** Who writes a summary: the Loom's summarizer and its prompt, when it sets them. */
export interface SummaryWriter {
  summarizer?: Summarizer;
  prompt?: string;
}

/** The summary's text: the summarizer's, or the extractive one (with the reason). Never rejects. */
export function writeSummaryText(
  job: SummaryJob,
  counter: TokenCounter,
  settings: SummaryWriter,
): Promise<SummaryText> {
  const options: Parameters<typeof summarizeRun>[4] = { timeoutMs: job.timeoutMs };
  if (settings.summarizer) options.summarizer = settings.summarizer;
  if (settings.prompt) options.prompt = settings.prompt;
  return summarizeRun(job.messages, job.previousSummary, job.maxTokens, counter, options);
}

/**
 * The summary message to store as message `id`, or null when the run no longer applies:
 * its last message is not on the path to `head` any more, or a summary made meanwhile
 * shares part of it, or the text would save nothing. Its tokens are those of the messages
 * that present it. O(summaries x depth).
 */
export function summaryMessage(
  nodes: SummarizedTree,
  head: number,
  job: SummaryJob,
  text: string,
  id: number,
  counter: TokenCounter,
  presentation: SummaryPresentation,
): Message | null {
  if (
    head < 0 ||
    nodes.isSummary(head) ||
    !nodes.isAncestor(job.last, head) ||
    nodes.summaries.overlaps(job.first, job.last)
  )
    return null;
  let tokens = 0;
  for (const m of presentSummary(id, text, presentation)) tokens += messageTokens(counter, m);
  if (tokens >= nodes.summaries.visibleRunTokens(job.first, job.last)) return null;
  const parent = nodes.parent(job.first);
  return {
    id,
    parentId: parent < 0 ? null : parent,
    role: "system",
    content: text,
    priority: "high",
    tokens,
    createdAt: Date.now(),
    kind: "summary",
    covers: { first: job.first, last: job.last },
  };
}
