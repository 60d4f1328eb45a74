// What a chat keeps for the views of its contexts (views.ts), and what a view reads of the
// chat beside the engine and its messages.
import type { Message } from "../message.js";
import { ClearingCache } from "./clearing.js";

/** What a chat keeps between builds for its views: the clearing states and the messages views made. */
export class ToolViewCache {
  readonly clearing = new ClearingCache();
  #made = new Map<string, { message: Message; tokens: number }>();

  /** The view message under `key`, made once by `make`. */
  made(key: string, make: () => { message: Message; tokens: number } | null): { message: Message; tokens: number } | null {
    const hit = this.#made.get(key);
    if (hit) return hit;
    const out = make();
    if (out === null) return null;
    if (this.#made.size >= MADE_KEPT) this.#made.clear(); // a chat's views change slowly: keep the map small
    this.#made.set(key, out);
    return out;
  }
}

const MADE_KEPT = 1024;

/** What a view reads of a chat besides the engine and its messages. */
export interface ToolViewSource {
  /** The most tokens a tool result of the chat costs (0: it holds none). */
  readonly largestResult: number;
  /** Whether any message of the chat made tool calls. */
  readonly toolCalls: boolean;
  /** The name of the tool whose call tool result `id` answers. */
  toolName(id: number): string;
  /** Whether two messages of the chat made calls of the same id. */
  readonly reusedCalls: boolean;
  /** The first message of the chat that made a call of this id. */
  firstCallOwner(callId: string): number;
  readonly cache: ToolViewCache;
}
