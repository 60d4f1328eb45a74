// chat.redact(id): a message's content erased where it is kept (the store, this Loom's memory,
// recall's indexes and queue, the summaries that stand for it), the tree's shape kept.
import { CtxloomError, describe, fromStore } from "../errors.js";
import type { Message, ToolCall } from "../message.js";
import type { MessageRedaction } from "../store/types.js";
import { extractiveSummary, type SummarizedMessage } from "../summary/extractive.js";
import { presentSummary, type SummaryPresentation } from "../summary/present.js";
import { messageTokens, type TokenCounter } from "../tokens/index.js";
import type { ChatNodes } from "./nodes.js";
import { residentColumns, type LoomContext } from "./sync.js";

/** The content a redacted message keeps (or a single space, when the message counted fewer tokens). */
export const REDACTED = "[redacted]";

/** What a redaction needs of its chat. */
export interface RedactTarget {
  ctx: LoomContext;
  userId: string;
  chatId: string;
  nodes: ChatNodes;
  counter: TokenCounter;
  presentation: SummaryPresentation;
}

/**
 * Redacts message `id` and redoes the summaries whose run holds it (see Chat.redact), store
 * first: when the store refuses, nothing changes here either. Each changed message and summary
 * is counted again as it is now sent, so that contexts count them exactly. Returns the message
 * as it is now.
 */
export async function redactMessage(t: RedactTarget, id: number): Promise<Message> {
  const { ctx, nodes, userId, chatId } = t;
  if (nodes.isSummary(id)) {
    throw new CtxloomError(
      "WRONG_ROLE",
      `Message ${id} is a summary; redact the message it quotes (one of ${describeRun(nodes, id)}) and its ` +
        `summaries are redone.`,
    );
  }
  const store = ctx.store;
  if (typeof store.redactMessages !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The store ${describe(store.name)} cannot redact messages (it has no redactMessages method); every store of ` +
        `ctxloom has one.`,
    );
  }
  const original = nodes.message(id);
  const message = redacted(original, t.counter);
  const changes: MessageRedaction[] = [message];
  for (const s of coveringSummaries(nodes, id)) {
    const redone = redoneSummary(nodes, s, message, t);
    changes.push({ id: s, content: redone.text, tokens: redone.tokens });
  }
  const done = await fromStore("redacting a message", () => store.redactMessages!(userId, chatId, changes));
  if (done === false)
    throw new CtxloomError("UNKNOWN_CHAT", `Chat ${chatId} is no longer in the store; it was deleted elsewhere.`);
  // The memory store's columns are the chat's own: the store changed them. A copy is changed here.
  if (nodes.columns !== residentColumns(store, userId, chatId))
    for (const c of changes) nodes.columns.rewrite(c.id, c.content, c.toolCalls, c.tokens);
  // What they cost now (never more than before; the store keeps it too): selections and usage count them so.
  for (const c of changes) nodes.engine.setTokens(nodes.tree, c.id, c.tokens);
  ctx.recall?.forgetMessages(
    userId,
    chatId,
    changes.map((c) => c.id),
  );
  return nodes.message(id);
}

/** The fields of `m` besides its content that a count reads (its parts go with a redaction). */
const fieldsOf = (m: Message) => ({
  role: m.role,
  ...(m.name === undefined ? {} : { name: m.name }),
  ...(m.toolCallId === undefined ? {} : { toolCallId: m.toolCallId }),
});

/**
 * A message's redaction: its content becomes REDACTED (a single space where that would count
 * more tokens than the message did, so that a redaction never makes a context cost more), or
 * empty for an assistant message with tool calls (which may be); its parts go; its tool calls
 * keep their ids and names, their arguments become "{}".
 */
function redacted(m: Message, counter: TokenCounter): MessageRedaction {
  const out: MessageRedaction = { id: m.id, content: REDACTED, tokens: 0 };
  const calls = m.toolCalls?.map(
    (c): ToolCall => ({
      ...c,
      function: { ...c.function, arguments: c.function.arguments.length > 2 ? "{}" : c.function.arguments },
    }),
  );
  if (calls) out.toolCalls = calls;
  if (m.role === "assistant" && calls) out.content = "";
  else if (messageTokens(counter, { ...fieldsOf(m), content: REDACTED }) > m.tokens) out.content = " ";
  out.tokens = messageTokens(counter, { ...fieldsOf(m), content: out.content, ...(calls ? { toolCalls: calls } : {}) });
  return out;
}

/** Summaries whose run holds message `id`, oldest first. */
function coveringSummaries(nodes: ChatNodes, id: number): number[] {
  const { engine: e, tree } = nodes;
  return nodes.summaries.entries
    .map((s) => s.id)
    .filter((s) => nodes.isAncestor(e.summaryFirst(tree, s), id) && nodes.isAncestor(id, e.summaryLast(tree, s)))
    .sort((a, b) => a - b);
}

function describeRun(nodes: ChatNodes, s: number): string {
  return `${nodes.engine.summaryFirst(nodes.tree, s)}..${nodes.engine.summaryLast(nodes.tree, s)}`;
}

/**
 * Summary `s`'s new text and what it costs as presented: the extractive summary of its run as
 * it reads once `change` is made (the summarizer's text may quote the message), within the
 * tokens it was counted at; REDACTED (or a space) when nothing fits.
 */
function redoneSummary(
  nodes: ChatNodes,
  s: number,
  change: MessageRedaction,
  t: RedactTarget,
): { text: string; tokens: number } {
  const { engine: e, tree } = nodes;
  const first = e.summaryFirst(tree, s);
  const last = e.summaryLast(tree, s);
  const run = nodes.walk(last, e.depth(tree, last) - e.depth(tree, first) + 1).map((m): SummarizedMessage => {
    const out: SummarizedMessage = { role: m.role, content: m.id === change.id ? change.content : m.content };
    if (m.name !== undefined) out.name = m.name;
    const calls = m.id === change.id ? change.toolCalls : m.toolCalls;
    if (calls) out.toolCalls = calls;
    if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
    return out;
  });
  const limit = e.tokens(tree, s);
  const cost = (text: string) =>
    presentSummary(s, text, t.presentation).reduce((n, m) => n + messageTokens(t.counter, m), 0);
  let max = limit - cost("");
  for (let i = 0; i < 8 && max > 0; i++) {
    const text = extractiveSummary(run, max, t.counter);
    const tokens = cost(text);
    if (tokens <= limit && text.length > 0) return { text, tokens };
    max -= Math.max(1, tokens - limit);
  }
  const text = cost(REDACTED) <= limit ? REDACTED : " ";
  return { text, tokens: cost(text) };
}
