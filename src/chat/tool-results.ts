// How a chat sends its tool results: its own `toolResults` (`create({ toolResults })`, kept with
// it) over its Loom's, key by key. A build's own settings go over these (build-plan.ts).
import { checkToolResultLevel, toolResultPolicy, type ToolResultPolicy } from "../models/tool-results.js";
import type { ChatRecord } from "../store/types.js";
import { storeCorrupt } from "./restore.js";

/** A chat's policy: its own settings over the Loom's. @throws STORE_CORRUPT when the ones kept with the chat are malformed */
export function chatToolResults(record: ChatRecord, loom: ToolResultPolicy): ToolResultPolicy {
  const kept = record.options?.toolResults;
  if (kept === undefined) return loom;
  try {
    return toolResultPolicy(checkToolResultLevel(kept, "options.toolResults"), loom, "options.toolResults");
  } catch (error) {
    throw storeCorrupt(record.id)(`its options.toolResults are malformed: ${(error as Error).message}`);
  }
}
