import type { TokenCounter } from "../tokens/types.js";

/** Where a text can be cut between sentences: after . ! ? or a line break, before the next word. */
const SENTENCE_END = /(?<=[.!?…。！？])\s+|\n+/g;

/**
 * The longest prefix of `text` whose count is at most `maxTokens`, cut at a sentence
 * boundary when at least one whole sentence fits, else at a word boundary, else
 * anywhere. O(sentences log) counts; only called on texts that are too long.
 */
export function truncateToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  if (maxTokens <= 0) return "";
  if (counter.count(text) <= maxTokens) return text;
  const ends: number[] = [];
  for (const m of text.matchAll(SENTENCE_END)) ends.push(m.index!);
  const bySentence = longestFitting(ends, (end) => text.slice(0, end).trimEnd(), maxTokens, counter);
  if (bySentence) return bySentence;
  const spaces: number[] = [];
  for (const m of text.matchAll(/\s+/g)) spaces.push(m.index!);
  const byWord = longestFitting(spaces, (end) => text.slice(0, end), maxTokens, counter);
  if (byWord) return byWord;
  const chars = Array.from({ length: text.length }, (_, i) => i);
  return longestFitting(chars, (end) => text.slice(0, end), maxTokens, counter) ?? "";
}

/** Binary search for the last cut whose prefix fits (counts grow with the prefix). */
function longestFitting(cuts: number[], prefix: (cut: number) => string, maxTokens: number, counter: TokenCounter): string | undefined {
  let lo = 0;
  let hi = cuts.length - 1;
  let best: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = prefix(cuts[mid]!);
    if (candidate.length > 0 && counter.count(candidate) <= maxTokens) {
      best = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** The first `maxChars` characters, cut at a word boundary where one is near, with an ellipsis. */
export function truncateToChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, Math.max(0, maxChars - 1));
  const space = cut.lastIndexOf(" ");
  return (space > maxChars * 0.6 ? cut.slice(0, space) : cut) + "…";
}
