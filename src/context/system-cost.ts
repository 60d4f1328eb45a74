// What a request's system and memory texts cost, and those texts cut to their slices. A chat's
// system prompt is the same text build after build: its count is kept (per counter, a few texts).
import { messageTokens } from "../tokens/chat.js";
import type { TokenCounter } from "../tokens/types.js";
import { truncateToTokens } from "./truncate.js";

/**
 * A system or memory text within `slice` tokens: the text itself when it fits, else cut. A long
 * text is never counted whole: truncation counts only the prefix it keeps.
 */
export function fitted(counter: TokenCounter, content: string, slice: number): string {
  if (content.length === 0) return "";
  if (content.length <= SYSTEM_COUNT_MAX_CHARS && systemCost(counter, content) <= slice) return content;
  return truncateToTokens(content, slice - systemCost(counter, ""), counter);
}

/** Counts of system texts by counter: a chat's system prompt is counted once, not at every build. */
const systemCounts = new WeakMap<TokenCounter, Map<string, number>>();
/** The same maps, for `forgetSystemTexts` (a WeakMap cannot be gone through). */
let countMaps: WeakRef<Map<string, number>>[] = [];
const SYSTEM_COUNTS_KEPT = 64;
/** Longer texts are counted each time: the map never holds a large memory text. */
const SYSTEM_COUNT_MAX_CHARS = 1 << 16;

export function systemCost(counter: TokenCounter, content: string): number {
  if (content.length > SYSTEM_COUNT_MAX_CHARS) return messageTokens(counter, { role: "system", content });
  let counts = systemCounts.get(counter);
  if (!counts) {
    systemCounts.set(counter, (counts = new Map()));
    countMaps.push(new WeakRef(counts));
  }
  let tokens = counts.get(content);
  if (tokens === undefined) {
    tokens = messageTokens(counter, { role: "system", content });
    if (counts.size >= SYSTEM_COUNTS_KEPT) counts.clear(); // memories change: keep the map small
    counts.set(content, tokens);
  }
  return tokens;
}

/**
 * Forgets every system text counted (a user's erasure: their system prompts leave memory); they are counted again when
 * next built.
 */
export function forgetSystemTexts(): void {
  for (const ref of countMaps) ref.deref()?.clear();
  countMaps = countMaps.filter((ref) => ref.deref() !== undefined);
}
