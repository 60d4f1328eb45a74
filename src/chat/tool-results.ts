// How a chat sends its tool results and reasoning: its own `toolResults` (`create({ toolResults })`,
// kept with it) over its Loom's, key by key, and its own `reasoningTurns` over its Loom's. A
// build's own settings go over these (build-plan.ts).
import { checkToolResultLevel, toolResultPolicy, type ToolResultPolicy } from "../models/tool-results.js";
import { checkReasoningTurns } from "../models/reasoning.js";
import type { ChatRecord } from "../store/types.js";
import { storeCorrupt } from "./restore.js";

/**
 * A chat's policy: its own settings over the Loom's. @throws STORE_CORRUPT when the ones kept with the chat are
 * malformed
 */
export function chatToolResults(record: ChatRecord, loom: ToolResultPolicy): ToolResultPolicy {
  const kept = record.options?.toolResults;
  if (kept === undefined) return loom;
  try {
    return toolResultPolicy(checkToolResultLevel(kept, "options.toolResults"), loom, "options.toolResults");
  } catch (error) {
    throw storeCorrupt(record.id)(`its options.toolResults are malformed: ${(error as Error).message}`);
  }
}

/** Checks the `reasoningTurns` kept with a chat. @throws STORE_CORRUPT when it is malformed */
export function checkKeptReasoningTurns(record: ChatRecord): void {
  try {
    checkReasoningTurns(record.options?.reasoningTurns, "options.reasoningTurns");
  } catch (error) {
    throw storeCorrupt(record.id)(`its options.reasoningTurns is malformed: ${(error as Error).message}`);
  }
}
