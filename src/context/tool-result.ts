// Tool results too large for a request: a caller cannot split what a tool returned, so a
// context sends its head and its tail around a marker that says how much was left out (see
// views.ts; the chat keeps it whole). truncateToolResult cuts a text the same way.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { MAX_TOKENS } from "../message.js";
import { callCounter, countText } from "../tokens/chat.js";
import type { TokenCounter } from "../tokens/types.js";
import type { TextMeasure } from "../tokens/types.js";
import { graphemeStart, headEnd, measureOf, measuredIndex, tokensOf, truncateToTokens } from "./truncate.js";
import type { ToolResultKeep } from "../models/tool-results.js";

export type { ToolResultKeep } from "../models/tool-results.js";

const KEEPS: readonly ToolResultKeep[] = ["head-tail", "head", "tail"];

function checkKeep(keep: unknown, what = "keep"): ToolResultKeep {
  if (!KEEPS.includes(keep as ToolResultKeep)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be "head-tail", "head" or "tail"; got ${describe(keep)}.`);
  }
  return keep as ToolResultKeep;
}

/** The marker put where a tool result was cut (naming its message, when it is one the chat holds). */
export function omissionMarker(omitted: number, total: number, id?: number): string {
  const of = id === undefined ? "" : ` (message ${id})`;
  return `\n[... ${grouped(omitted)} of ${grouped(total)} tokens of this tool result${of} omitted ...]\n`;
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** What {@link truncateToolResult} takes besides the text. */
export interface TruncateOptions {
  /** The most tokens the result may count (a whole number from 1 up). */
  maxTokens: number;
  /** The counter that counts them (a `TokenCounter`: `loadEncoding`, `heuristicCounter`, a model's own). */
  counter: TokenCounter;
  /** What to keep: "head-tail" (default), "head" or "tail". */
  keep?: ToolResultKeep;
}

const TRUNCATE_KEYS = ["maxTokens", "counter", "keep"] as const;

/**
 * `text` cut to at most `maxTokens` by `counter`: its head and its tail (or one of them, by
 * `keep`), cut at line, sentence or word boundaries where they can be and never inside a
 * character, around a marker saying how many of its `total` tokens were left out. `text`
 * itself when it fits. When not even the marker fits, as much of the marker as fits.
 * @throws INVALID_CONTENT when `text` is not a string; INVALID_ARGUMENT for missing, bad or unknown options.
 */
export function truncateToolResult(text: string, options: TruncateOptions): string {
  if (typeof text !== "string")
    throw new CtxloomError("INVALID_CONTENT", `text must be a string; got ${describe(text)}.`);
  if (options === undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "truncateToolResult(text, options) needs its options: { maxTokens, counter, keep? }.",
    );
  }
  const o = checkOptions<TruncateOptions>(options, "truncateToolResult(text, options)", TRUNCATE_KEYS);
  const maxTokens = checkInteger(o.maxTokens, "maxTokens", 1, MAX_TOKENS);
  const counter = o.counter;
  if (counter === null || typeof counter !== "object" || typeof counter.count !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `counter must be a TokenCounter { name, exact, count(text) }; got ${describe(counter)}.`,
    );
  }
  return cutToolResult(text, maxTokens, counter, checkKeep(o.keep ?? "head-tail"));
}

/**
 * truncateToolResult without the checks (the append path checked its policy once). A counter
 * that can measure reads the text once: its total, both cuts, the omitted count and the
 * checks of nicer boundaries come from that reading; the cut text is counted once at the end.
 */
export function cutToolResult(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  keep: ToolResultKeep,
  id?: number,
): string {
  const m = measureOf(counter, text);
  const total = m ? m.tokens : countText(counter, text);
  if (total <= maxTokens) return text;
  let room = maxTokens - countText(counter, omissionMarker(total, total, id));
  for (let round = 0; room > 0 && round < 64; round++) {
    const headRoom = keep === "head" ? room : keep === "tail" ? 0 : Math.ceil(room / 2);
    const head = headRoom > 0 ? headEnd(text, headRoom, counter, m) : 0;
    const tail = room - headRoom > 0 ? tailStart(text, room - headRoom, counter, m, head) : text.length;
    const marker = omissionMarker(tokensOf(text, head, tail, counter, m), total, id);
    const { cut, tokens } = joined(text, head, tail, marker, counter, m);
    const over = tokens - maxTokens;
    if (over <= 0) return cut;
    room -= over; // tokens do not quite add up across the joins: ask for that much less
  }
  // Not even the marker fits beside a piece of the text: the shortest marker that fits.
  const short = `[${grouped(total)} tokens omitted]`;
  return countText(counter, short) <= maxTokens ? short : truncateToTokens("[omitted]", maxTokens, counter);
}

/** text.slice(0, head) + marker + text.slice(tail) and its count: from the measure when it can. */
function joined(
  text: string,
  head: number,
  tail: number,
  marker: string,
  counter: TokenCounter,
  m: TextMeasure | undefined,
): { cut: string; tokens: number } {
  if (m?.replaced) {
    const r = callCounter(counter, () => m.replaced!(head, tail, marker));
    if (
      r !== null &&
      typeof r === "object" &&
      typeof r.text === "string" &&
      Number.isInteger(r.tokens) &&
      r.tokens >= 0
    )
      return { cut: r.text, tokens: r.tokens };
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The token counter ${describe(counter.name)}'s measure replaced a slice with ${describe(r)}.`,
    );
  }
  const cut = text.slice(0, head) + marker + text.slice(tail);
  return { cut, tokens: countText(counter, cut) };
}

/** Where a text can start after a cut: after a line break, else after a sentence's end, else after a space. */
const STARTS = [/\n+/g, /(?<=[.!?…。！？])\s+/g, /\s+/g];
const TRIES = 4;

/**
 * The longest suffix of `text` counting at most `maxTokens`, starting at a line, sentence
 * or word boundary when one of the few nearest does, else at a grapheme cluster's start.
 * Counts only suffixes up to about twice what is kept (gallop, then bisect); a counter that
 * can measure reads the text once instead.
 */
export function suffixToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  if (maxTokens <= 0 || text.length === 0) return "";
  return text.slice(tailStart(text, maxTokens, counter, measureOf(counter, text), 0));
}

/** Where suffixToTokens' suffix starts, at or after `from` (m: the whole text's measure, if the counter has one). */
function tailStart(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  m: TextMeasure | undefined,
  from: number,
): number {
  const n = text.length;
  if (maxTokens <= 0 || from >= n) return n;
  const fits = (start: number) => tokensOf(text, start, n, counter, m) <= maxTokens;
  let lo: number; // the longest fitting start on a cluster boundary
  if (m) {
    lo = Math.max(
      from,
      clusterAtOrAfter(
        text,
        measuredIndex(counter, () => m.tail(maxTokens).start, text),
      ),
    );
    while (lo < n && !fits(lo)) lo = clusterAtOrAfter(text, lo + 1);
  } else {
    lo = n; // a start that fits
    let hi = from; // a start that does not (unless the whole text fits)
    for (let len = Math.max(16, maxTokens); ; len *= 2) {
      const start = Math.max(from, graphemeStart(text, Math.max(0, n - len)));
      if (!fits(start)) {
        hi = start;
        break;
      }
      lo = start;
      if (start === from) return from;
    }
    while (lo - hi > 1) {
      const mid = graphemeStart(text, (lo + hi) >>> 1);
      if (mid <= hi || mid >= lo) break;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
  }
  if (lo === from) return from;
  // Move forward to a nicer boundary nearby; never for more than half of it: a far boundary
  // would throw most of the tail away.
  const until = lo + ((n - lo) >>> 1);
  for (const pattern of STARTS) {
    let tries = 0;
    for (const match of text.slice(lo, until + 1).matchAll(pattern)) {
      const start = lo + match.index! + match[0].length;
      if (start > until || ++tries > TRIES) break;
      if (fits(start)) return start;
    }
  }
  return lo;
}

/** `i` if a grapheme cluster starts there, else the start of the next one. */
function clusterAtOrAfter(text: string, i: number): number {
  if (i <= 0) return 0;
  let j = Math.min(i, text.length);
  while (j < text.length && graphemeStart(text, j) !== j) j++;
  return j;
}
