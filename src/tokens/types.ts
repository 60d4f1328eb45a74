/** A tokenizer encoding ctxloom can count exactly. */
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
}
