import type { TokenCounter } from "../tokens/types.js";

/** What a summarizer reads of each message. */
export interface SummarizedMessage {
  /** Who wrote it. */
  role: "system" | "user" | "assistant" | "tool";
  /** Its text (a tool call's message may have none). */
  content: string;
  /** Its author's name, where the message has one. */
  name?: string;
  /** The tools an assistant message called, with their JSON arguments. */
  toolCalls?: readonly { id: string; function: { name: string; arguments: string } }[];
  /** The call a tool result answers. */
  toolCallId?: string;
}

const LABEL = { system: "System", user: "User", assistant: "Assistant", tool: "Tool" } as const;
const SENTENCE = /^[\s\S]*?[.!?…。！？](?=\s|$)/u;
const MAX_LINE_CHARS = 200;
const GAP = "...";

/**
 * A summary that needs no model: one line per message with its first sentence (tool calls
 * as `name(arguments)`, results under the call's name), the first two and the last two
 * lines always, as many lines between as fit, evenly spread, and "..." wherever lines were
 * left out. Deterministic; never more than `maxTokens` by `counter`. O(n log n) counts.
 */
export function extractiveSummary(
  messages: readonly SummarizedMessage[],
  maxTokens: number,
  counter: TokenCounter,
  previousSummary?: string,
): string {
  const callNames = new Map<string, string>();
  const lines: string[] = [];
  for (const m of messages) {
    for (const call of m.toolCalls ?? []) callNames.set(call.id, call.function.name);
    lines.push(lineOf(m, callNames));
  }
  const head = previousSummary ? [clip(firstSentences(previousSummary, 3), 400)] : [];
  const render = (kept: number[]): string => {
    const out = [...head];
    let last = -1;
    for (const i of kept) {
      if (i > last + 1) out.push(GAP);
      out.push(lines[i]!);
      last = i;
    }
    if (last < lines.length - 1) out.push(GAP);
    return out.join("\n");
  };
  const fits = (text: string): boolean => counter.count(text) <= maxTokens;

  const n = lines.length;
  const ends = n <= 4 ? [...lines.keys()] : [0, 1, n - 2, n - 1];
  if (!fits(render(ends))) return shrink(render(ends), maxTokens, counter);
  // Binary search the most middle lines that fit, spread evenly over the middle.
  const middle = Math.max(0, n - 4);
  const pick = (k: number): number[] => {
    const kept = new Set(ends);
    for (let j = 0; j < k; j++) kept.add(2 + Math.floor(((j + 0.5) * middle) / k));
    return [...kept].sort((a, b) => a - b);
  };
  let lo = 0;
  let hi = middle;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(render(pick(mid)))) lo = mid;
    else hi = mid - 1;
  }
  return render(pick(lo));
}

function lineOf(m: SummarizedMessage, callNames: Map<string, string>): string {
  const who = m.name ? `${LABEL[m.role]} (${m.name})` : LABEL[m.role];
  if (m.toolCalls && m.toolCalls.length > 0) {
    const calls = m.toolCalls
      .map((c) => `${c.function.name}(${clip(c.function.arguments.replace(/\s+/g, " "), 80)})`)
      .join(", ");
    const said = m.content.trim() ? ` ${clip(firstSentences(m.content, 1), MAX_LINE_CHARS)}` : "";
    return `${who}:${said} [called ${calls}]`;
  }
  if (m.role === "tool") {
    const name = (m.toolCallId !== undefined && callNames.get(m.toolCallId)) || "tool";
    return `Result of ${name}: ${clip(firstSentences(m.content, 1), MAX_LINE_CHARS)}`;
  }
  return `${who}: ${clip(firstSentences(m.content, 1), MAX_LINE_CHARS)}`;
}

/** The first `count` sentences of a text, whitespace collapsed. */
function firstSentences(text: string, count: number): string {
  let rest = text.replace(/\s+/g, " ").trim();
  let out = "";
  for (let i = 0; i < count && rest; i++) {
    const match = SENTENCE.exec(rest);
    const sentence = match ? match[0] : rest;
    out += (out ? " " : "") + sentence.trim();
    rest = rest.slice(sentence.length).trim();
  }
  return out;
}

/** At most `max` code points, with an ellipsis when cut (never half a surrogate pair). */
function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max - 1).join("") + "…";
}

/** The longest prefix of whole code points of `text` that fits `maxTokens` (binary search on counts). */
function shrink(text: string, maxTokens: number, counter: TokenCounter): string {
  const points = Array.from(text);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (counter.count(points.slice(0, mid).join("") + "…") <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "" : points.slice(0, lo).join("") + "…";
}
