import type { Encoding } from "../tokens/types.js";

export type { Encoding };
export interface CatalogEntry {
  name: string;
  contextWindow: number;
  /** Known BPE encoding (OpenAI models only); others are counted with tokensPerChar. */
  encoding?: Encoding;
  /** Tokens per character for the heuristic counter (about 0.25 for English with most BPE vocabularies). */
  tokensPerChar: number;
  source: string;
}
