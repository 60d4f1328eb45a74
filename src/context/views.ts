// A context's view of the chat's tool results: what a request sends in place of a result too
// large (its head and tail around a marker) and of older results (a placeholder naming the
// message), with what each costs, for the selection to count. Nothing in the chat changes.
//
// The view covers the entries of the head's summarized path that a selection could reach:
// walked newest first until even at their cheapest they pass the conversation's room. O(W).
import { CRITICAL, FLAG_SUMMARY, FLAG_TOOL_CALLS, ROLE_TOOL, ROLE_USER } from "../engine/types.js";
import type { Message } from "../message.js";
import { countText, messageTokens } from "../tokens/chat.js";
import { imageRuleFor } from "../tokens/parts.js";
import { clearedThrough } from "./clearing.js";
import { cutToolResult } from "./tool-result.js";
import { MIN_TOOL_RESULT_TOKENS, clearTrigger, truncateCap, type ToolResultPolicy } from "../models/tool-results.js";
import type { ContextSource } from "./types.js";
import type { ContextView, ToolViewSource, ViewKind } from "./view-source.js";

/** No view, no clearing (shared: read only). */
const NO_VIEW: { view: ContextView | null; clearing: boolean } = Object.freeze({ view: null, clearing: false });

/**
 * What a context reports of its view: results cleared and cut among the messages it sends, and the tokens that saved.
 */
export interface ViewReport {
  cleared: { count: number; tokens: number; ids: number[] };
  truncated: { count: number; tokens: number; ids: number[] };
}

/**
 * The view of a build whose conversation has `room` tokens, with the request holding `fixed`
 * tokens besides and `limit` at most (null when every message goes as the chat holds it), and
 * whether clearing is under way (the request, with nothing cleared, passes its trigger).
 */
export function toolView(
  source: ContextSource,
  policy: ToolResultPolicy,
  room: number,
  fixed: number,
  limit: number,
): { view: ContextView | null; clearing: boolean } {
  const none = NO_VIEW;
  const tv = source.toolViews;
  if (!tv || source.head < 0 || !tv.toolCalls) return none;
  const cap = policy.truncate ? truncateCap(policy.truncate, limit) : Infinity;
  const clear = policy.clear;
  // The head's own unit, which the model is about to read, is cut to fit beside the user's turn.
  const newest = policy.truncate ? newestUnitCaps(source, cap, room) : null;
  if (!clear && tv.largestResult <= cap && !newest && !tv.reusedCalls) return none;
  const { engine: e, tree: t, head } = source;
  const boundary = clear
    ? clearedThrough({ engine: e, tree: t, toolName: (id) => tv.toolName(id) }, head, clear, tv.cache.clearing)
    : -1;
  const excluded = clear && clear.exclude.length > 0 ? new Set(clear.exclude) : null;
  const rule = imageRuleFor(source.profile.name);
  const count = (m: Message) => messageTokens(source.counter, m, rule);

  const cut: number[] = [];
  const clearable: number[] = [];
  const calls: number[] = []; // assistant messages with calls and tool results, when some call ids are reused
  let full = 0; // the conversation with nothing cleared (results cut)
  let cheapest = 0; // with everything clearable cleared, at a token each
  const trigger = clear ? clearTrigger(clear, limit) - fixed : 0;
  let seen = 0;
  for (let max = 256; ; max *= 2) {
    const n = e.walkSummarized(t, head, max);
    const ids = e.ids.slice(0, n - seen); // the entries not seen yet, oldest first
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i]!;
      if (e.flags(t, id) & FLAG_SUMMARY) {
        full += e.tokens(t, id);
        cheapest += e.tokens(t, id);
        continue;
      }
      const tokens = e.tokens(t, id);
      if (tv.reusedCalls && (e.role(t, id) === ROLE_TOOL || e.flags(t, id) & FLAG_TOOL_CALLS)) calls.push(id);
      const isResult = e.role(t, id) === ROLE_TOOL && e.priority(t, id) !== CRITICAL;
      const cutTo = isResult ? Math.min(tokens, newest?.get(id) ?? cap) : tokens;
      if (cutTo < tokens) cut.push(id);
      full += cutTo;
      if (isResult && id <= boundary && !excluded?.has(tv.toolName(id))) {
        clearable.push(id);
        cheapest += 1;
      } else cheapest += cutTo;
    }
    seen = n;
    if (n < max || (cheapest > room && (!clear || full > trigger))) break;
  }
  const active = clear !== null && full > trigger;
  const messages = new Map<number, Message>();
  const kinds = new Map<number, ViewKind>();
  const costs = new Map<number, number>();
  const put = (id: number, kind: ViewKind, made: { message: Message; tokens: number } | null) => {
    if (!made) return;
    messages.set(id, made.message);
    kinds.set(id, kind);
    costs.set(id, made.tokens);
  };
  const cleared = active ? new Set(clearable) : null;
  if (cleared) {
    for (const id of clearable)
      put(
        id,
        "cleared",
        tv.cache.made(`c${id}`, () => placeholder(source.message(id), count)),
      );
  }
  for (const id of cut) {
    if (cleared?.has(id)) continue;
    const keep = policy.truncate!.keep;
    const to = newest?.get(id) ?? cap;
    put(
      id,
      "truncated",
      tv.cache.made(`t${id}:${to}:${keep}`, () => truncated(source, id, to, keep, count)),
    );
  }
  if (cleared && clear!.inputs) clearInputs(source, cleared, count, put, messages);
  if (calls.length > 0) renameCalls(source, tv, calls, messages, kinds, costs);
  if (costs.size === 0) return { view: null, clearing: active };
  const ids = Int32Array.from(costs.keys());
  return { view: { ids, tokens: Int32Array.from(ids, (id) => costs.get(id)!), messages, kinds }, clearing: active };
}

/**
 * The caps of the results of the head's own tool unit (the results the model is about to read)
 * that do not fit beside its call and the newest user message in `room` (or pass `cap`): the
 * room left shared among them, the smaller results whole. Null when the head ends no unit or
 * its results all fit.
 */
function newestUnitCaps(source: ContextSource, cap: number, room: number): Map<number, number> | null {
  const { engine: e, tree: t } = source;
  const results: number[] = [];
  let x = source.head;
  for (; x >= 0 && e.role(t, x) === ROLE_TOOL; x = e.parent(t, x)) results.push(x);
  if (results.length === 0 || x < 0 || !(e.flags(t, x) & FLAG_TOOL_CALLS)) return null;
  let left = room - e.tokens(t, x); // the call message
  for (let u = e.parent(t, x); u >= 0; u = e.parent(t, u)) {
    if (e.role(t, u) !== ROLE_USER) continue;
    left -= e.tokens(t, u); // the newest user message, always sent
    break;
  }
  // Smallest first: each takes its share of what is left, or all of itself when that is less.
  const bySize = results
    .map((id) => ({ id, tokens: e.tokens(t, id) }))
    .sort((a, b) => a.tokens - b.tokens || a.id - b.id);
  let caps: Map<number, number> | null = null;
  for (let i = 0; i < bySize.length; i++) {
    const r = bySize[i]!;
    const share = Math.min(cap, Math.floor(left / (bySize.length - i)));
    if (r.tokens <= share) {
      left -= r.tokens;
      continue;
    }
    (caps ??= new Map()).set(r.id, Math.max(MIN_TOOL_RESULT_TOKENS, share));
    left -= share;
  }
  return caps;
}

/**
 * The marker a cleared result is sent as: short (a request may hold hundreds), naming the message that holds it whole.
 */
export function clearedText(id: number): string {
  return `[cleared: message ${id}]`;
}

function placeholder(m: Message, count: (m: Message) => number): { message: Message; tokens: number } {
  const message: Message = { ...m, content: clearedText(m.id) };
  delete message.parts;
  message.tokens = count(message);
  return { message, tokens: message.tokens };
}

/** Tool result `id` cut to cost at most `cap`; null when not even its fields fit. */
function truncated(
  source: ContextSource,
  id: number,
  cap: number,
  keep: "head-tail" | "head" | "tail",
  count: (m: Message) => number,
): { message: Message; tokens: number } | null {
  const m = source.message(id);
  const bare: Message = { ...m, content: "" };
  delete bare.parts;
  const others = m.parts?.filter((p) => p.type !== "text") ?? [];
  if (others.length > 0) bare.parts = others;
  const overhead = count(bare);
  if (overhead >= cap) return null;
  const content = cutToolResult(m.content, cap - overhead, source.counter, keep, id);
  const message: Message = { ...bare, content };
  if (others.length > 0) message.parts = [{ type: "text", text: content }, ...others];
  message.tokens = count(message);
  return message.tokens < m.tokens ? { message, tokens: message.tokens } : null;
}

/**
 * Calls whose id an earlier message of the chat used too, and their results, sent with the id
 * made unique (`<id>-m<message id>`): a provider refuses a request where two calls share an id
 * (Anthropic: "tool_use ids must be unique"), while servers that number calls per response reuse
 * them across steps. The first message to use an id keeps it, so a request's start never changes.
 */
function renameCalls(
  source: ContextSource,
  tv: ToolViewSource,
  ids: number[],
  messages: Map<number, Message>,
  kinds: Map<number, ViewKind>,
  costs: Map<number, number>,
): void {
  const { engine: e, tree: t, counter } = source;
  const unique = (callId: string, owner: number) =>
    tv.firstCallOwner(callId) === owner ? callId : `${callId}-m${owner}`;
  for (const id of ids) {
    const owner = e.role(t, id) === ROLE_TOOL ? unitOf(source, id) : id;
    if (owner < 0) continue;
    const base = messages.get(id) ?? source.message(id);
    let delta = 0;
    const renamed: Message = { ...base };
    if (base.toolCallId !== undefined) {
      const to = unique(base.toolCallId, owner);
      if (to === base.toolCallId) continue;
      renamed.toolCallId = to;
      delta += countText(counter, to) - countText(counter, base.toolCallId);
    } else if (base.toolCalls) {
      if (base.toolCalls.every((c) => unique(c.id, owner) === c.id)) continue;
      renamed.toolCalls = base.toolCalls.map((c) => {
        const to = unique(c.id, owner);
        delta += countText(counter, to) - countText(counter, c.id);
        return to === c.id ? c : { ...c, id: to };
      });
    } else continue;
    renamed.tokens = base.tokens + delta; // (a message's count is the sum of its fields')
    messages.set(id, renamed);
    if (!kinds.has(id)) kinds.set(id, "renamed");
    costs.set(id, renamed.tokens);
  }
}

/** The assistant message whose calls tool result `id` answers, or -1. */
function unitOf(source: ContextSource, id: number): number {
  const { engine: e, tree: t } = source;
  let x = e.parent(t, id);
  while (x >= 0 && e.role(t, x) === ROLE_TOOL) x = e.parent(t, x);
  return x >= 0 && e.flags(t, x) & FLAG_TOOL_CALLS ? x : -1;
}

/** The calls of cleared results sent with `{}` as their arguments (`clear: { inputs: true }`). */
function clearInputs(
  source: ContextSource,
  cleared: Set<number>,
  count: (m: Message) => number,
  put: (id: number, kind: ViewKind, made: { message: Message; tokens: number }) => void,
  messages: Map<number, Message>,
): void {
  const byCall = new Map<number, Set<string>>();
  for (const id of cleared) {
    const x = unitOf(source, id);
    if (x < 0) continue;
    const calls = byCall.get(x) ?? new Set<string>();
    calls.add((messages.get(id) ?? source.message(id)).toolCallId!);
    byCall.set(x, calls);
  }
  for (const [id, calls] of byCall) {
    const m = source.message(id);
    const message: Message = {
      ...m,
      toolCalls: m.toolCalls!.map((c) =>
        calls.has(c.id) ? { ...c, function: { ...c.function, arguments: "{}" } } : c,
      ),
    };
    message.tokens = count(message);
    if (message.tokens < m.tokens) put(id, "inputs", { message, tokens: message.tokens });
  }
}

/**
 * What the view changed among the messages `sent`, read while its counts are in the engine
 * (Engine.swapTokens): `view.tokens` then holds the chat's own counts.
 */
export function viewReport(view: ContextView | null, sent: ArrayLike<number>): ViewReport {
  const report: ViewReport = { cleared: { count: 0, tokens: 0, ids: [] }, truncated: { count: 0, tokens: 0, ids: [] } };
  if (!view) return report;
  const saved = new Map<number, number>();
  for (let k = 0; k < view.ids.length; k++)
    saved.set(view.ids[k]!, view.tokens[k]! - view.messages.get(view.ids[k]!)!.tokens);
  for (let k = 0; k < sent.length; k++) {
    const id = sent[k]!;
    const kind = view.kinds.get(id);
    if (kind !== "cleared" && kind !== "truncated") continue;
    const r = report[kind];
    r.count++;
    r.tokens += saved.get(id)!;
    r.ids.push(id);
  }
  return report;
}
