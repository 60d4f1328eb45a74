// The options of a build's recall and what recall gives the builder, apart from the build's
// other types (types.ts names them and exports them again).
import type { Message } from "../message.js";

/** Where recall looks: the path to the head, every branch of the chat, or all the user's chats. */
export type RecallScope = "branch" | "chat" | "user";

/** The options of `buildContext({ recall })`. */
export interface BuildRecallOptions {
  /** The text to recall for; default: the build's input, else the newest user message of the branch. */
  query?: string;
  /** Exchanges holding the best matches for the query, user and assistant messages alike (default 5). */
  prompts?: number;
  /** For each such exchange's answer, the most similar answers of other exchanges (default 0). */
  answersPerPrompt?: number;
  /** The newest exchanges of the scope not in the window (default 0). */
  recent?: number;
  /** Messages whose vector is less similar than this cosine similarity are left out (default: none). */
  minScore?: number;
  /** "branch", "chat" (default) or "user". */
  scope?: RecallScope;
}

/**
 * How a build's recall fell short of its embedder (`ctx.recallDegraded`): the build did not wait
 * past the embedder's `recallTimeoutMs`, and recalled with what it had.
 */
export interface RecallDegraded {
  /**
   * "timeout": the embedder had not answered when the wait ended (its calls go on in the
   * background, within their `timeoutMs`); "failed": it threw or answered badly.
   */
  reason: "timeout" | "failed";
  /**
   * True: the query had no vector, so matches were found by their words alone (the lexical
   * channel; the answers' vectors already made still find similar answers). False: the query
   * had its vector, and only `pending` messages had none yet.
   */
  lexicalOnly: boolean;
  /**
   * Messages of the recall's scope still waiting for their vectors (found by their words only); they are embedded in
   * the background.
   */
  pending: number;
  /** The embedder's error ("EMBEDDER_FAILED: ..."), or null when it was only slow with the queued messages. */
  error: string | null;
}

/** What a recall hook gives the builder: the text to add to the memory message and the messages it holds. */
export interface RecallFill {
  text: string;
  messages: Message[];
}
