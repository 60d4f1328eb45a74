import type { Engine } from "../engine/types.js";
import type { Message } from "../message.js";

/**
 * What summaries read of a chat's tree: the engine's tree (shape, numbers, summary runs) and
 * the messages by id. Declared here so that the summary room needs nothing of the chat room;
 * the chat's nodes (tree/nodes.ts) are one.
 */
export interface SummaryTree {
  readonly engine: Engine;
  /** The chat's tree in `engine`. */
  readonly tree: number;
  /** Message `id` as a new object. */
  message(id: number): Message;
  /** The parent of `id` (-1: a root). */
  parent(id: number): number;
  /** True when `a` is `id` or one of its ancestors. */
  isAncestor(a: number, id: number): boolean;
  /** True when `id` is a summary node. */
  isSummary(id: number): boolean;
}
