/** Counts the tokens of a text. Implementations must be pure and synchronous. */
export interface TokenCounter {
  /** A stable name, e.g. "o200k_base" or "heuristic:0.25". */
  readonly name: string;
  /** True when counts are the model's own tokenizer's, not an estimate. */
  readonly exact: boolean;
  /** A whole, non-negative number of tokens. */
  count(text: string): number;
}
