import { heuristicCounter } from "./heuristic.js";
import type { TokenCounter } from "./types.js";

export type { TokenCounter } from "./types.js";
export { heuristicCounter } from "./heuristic.js";
export { messageTokens, type CountableMessage } from "./chat.js";

const defaultCounter = heuristicCounter();

/** The counter used for a chat's messages. */
export function counterFor(_model: string): TokenCounter {
  return defaultCounter;
}
