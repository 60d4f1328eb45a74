import type { Encoding, TokenCounter } from "../tokens/types.js";
import type { OpenEncoding } from "../tokens/vocabulary-tables.js";

export type { Encoding, OpenEncoding };

/** Size classes: they set the history limits a chat may opt into. */
export type SizeClass = "tiny" | "small" | "medium" | "large" | "xlarge";

/**
 * A model described by hand: a name and a window are enough; the size class follows from
 * the window and tokensPerChar defaults to 0.25 (about 4 characters a token).
 */
export type ModelInput = Pick<ModelProfile, "name" | "contextWindow"> & Partial<ModelProfile>;

/**
 * An AI SDK model object (`openai("gpt-5")`, `anthropic("claude-sonnet-4-6")`): its `modelId`
 * is looked up as a name, its `provider` ("openai.responses", "anthropic.messages") helps read
 * an id the catalog lacks. Any object with these two strings and no `contextWindow` is one.
 */
export interface LanguageModelRef {
  /** The provider's name ("openai", "anthropic.messages", ...). */
  readonly provider: string;
  /** The model's id at its provider ("gpt-5", "claude-sonnet-4-5", ...). */
  readonly modelId: string;
}

/** What a model may be given as: a name, a profile (described by hand), or an AI SDK model object. */
export type ModelRef = string | ModelInput | LanguageModelRef;

/** Options of `getModelProfile`. */
export interface ProfileOptions {
  /**
   * Refuse a name the catalog lacks (UNKNOWN_MODEL) instead of reading it by its family
   * ("claude-sonnet-9" as the newest documented Claude of its tier, with a warning).
   */
  strict?: boolean;
}

/** The history limits of a size class. */
export interface HistoryLimits {
  /** Turns (a user message and its answer) kept at most. */
  maxTurns: number;
  /** Characters kept of each message. */
  maxCharsPerTurn: number;
  /** Characters of memory text kept. */
  memoryMaxChars: number;
}

/** What ctxloom knows of a model. Custom profiles are accepted anywhere a model name is. */
export interface ModelProfile {
  /** The model's name, as `getModelProfile` and the budgets take it. */
  name: string;
  /** The model's context window in tokens (input and output together). */
  contextWindow: number;
  /**
   * The most input tokens a request may carry, where the provider caps input below the window
   * (gpt-5: 272,000 of 400,000). Budgets never give more than this.
   */
  maxInputTokens?: number;
  /** The model's size class, which picks its default history limits. */
  sizeClass: SizeClass;
  /** Tokens per character, for the heuristic counter when the encoding is unknown. */
  tokensPerChar: number;
  /**
   * The model's tokenizer, where known: an OpenAI encoding (counted exactly, its tables loaded on
   * first use), or an open model's (exact once its tokenizer file is registered with
   * registerEncoding; until then, the estimate).
   */
  encoding?: Encoding | OpenEncoding;
  /** A counter of your own (another tokenizer); it wins over `encoding` and the heuristic. */
  counter?: TokenCounter;
  /** History limits (applied only when a chat or call opts in); default: the size class's row of the table below. */
  historyLimits?: HistoryLimits;
  /**
   * Set when the name is not in the catalog and was read by its family or provider: the
   * catalog model whose profile it took ("claude-sonnet-4-5" for "claude-sonnet-9").
   */
  inferredFrom?: string;
}

export interface CatalogEntry {
  name: string;
  /** The context window: input and output together. */
  contextWindow: number;
  /**
   * The most input tokens a request may carry, where the provider caps input below the
   * window (gpt-5: 272,000 of a 400,000 window, the rest kept for the reply).
   */
  maxInputTokens?: number;
  /**
   * Known tokenizer: OpenAI's encodings, or an open model's (exact once registered); others are counted with
   * tokensPerChar.
   */
  encoding?: Encoding | OpenEncoding;
  /** Tokens per character for the heuristic counter (about 0.25 for English with most BPE vocabularies). */
  tokensPerChar: number;
  source: string;
}
