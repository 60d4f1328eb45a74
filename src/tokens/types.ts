/** An OpenAI encoding ctxloom counts exactly with tables of its own. */
export type Encoding = "o200k_base" | "cl100k_base";

/** Counts the tokens of a text. Implementations must be pure and synchronous. */
export interface TokenCounter {
  /** A stable name, e.g. "o200k_base" or "heuristic:0.25". */
  readonly name: string;
  /** True when counts are the model's own tokenizer's, not an estimate. */
  readonly exact: boolean;
  /** A whole, non-negative number of tokens. */
  count(text: string): number;
  /**
   * Optional: a number no greater than `count(text)`, found without counting (a linear
   * bound), so that a text that cannot fit is refused before it is counted.
   */
  atLeast?(text: string): number;
  /**
   * Optional: the end (a UTF-16 index) of the longest prefix of `text` that counts at most
   * `maxTokens`, cut where a token ends; `text.length` when all of it fits. Lets truncation
   * find its cut in one pass instead of counting prefixes.
   */
  fit?(text: string, maxTokens: number): number;
  /**
   * Optional: `count(text)` when it is at most `max`; else a number greater than `max` and at
   * most the count, found without counting all of it, so that a text far past a limit costs
   * what the limit does (the exact counters stop merging there).
   */
  countUpTo?(text: string, max: number): number;
  /**
   * @internal Optional: reads `text` once and returns what it measured: its count, the count
   * of any of its slices, and where to cut it to a number of tokens at either end, each
   * answered from that one reading (truncation's single pass; the WebAssembly counter has it).
   * With `upTo`, only as much of the text as a head of `upTo` tokens needs may be read:
   * `tokens` is then the count or any number above `upTo`.
   */
  measure?(text: string, upTo?: number): TextMeasure;
}

/** @internal A text measured once by a counter (TokenCounter.measure). */
export interface TextMeasure {
  /** The text's tokens (or, when measured up to a number, any number above it if the text counts more). */
  readonly tokens: number;
  /** Tokens of `text.slice(start, end)` (end defaults to the text's length). */
  count(start: number, end?: number): number;
  /** The end of the longest prefix counting at most `max` tokens, never inside a character, and its tokens. */
  head(max: number): { end: number; tokens: number };
  /** The start of the longest suffix counting at most `max` tokens, never inside a character, and its tokens. */
  tail(max: number): { start: number; tokens: number };
  /**
   * Optional: the text with `text.slice(start, end)` replaced by `insert`, and its tokens,
   * counted from the measure (a text cut to its ends around a marker is not counted anew).
   */
  replaced?(start: number, end: number, insert: string): { text: string; tokens: number };
}
