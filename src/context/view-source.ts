// What a build's views read of a chat (its tool calls, reasoning and compactions, and the cache
// of the messages views made) and what a view is: the messages a request sends otherwise than the
// chat holds them, with what each costs there.
import type { CompactionProvider, Message } from "../message.js";
import { ClearingCache } from "./clearing.js";

/** What a chat keeps between builds for its views: the clearing states and the messages views made. */
export class ToolViewCache {
  readonly clearing = new ClearingCache();
  #made = new Map<string, { message: Message; tokens: number }>();

  /** The view message under `key`, made once by `make`. */
  made(
    key: string,
    make: () => { message: Message; tokens: number } | null,
  ): { message: Message; tokens: number } | null {
    const hit = this.#made.get(key);
    if (hit) return hit;
    const out = make();
    if (out === null) return null;
    if (this.#made.size >= MADE_KEPT) this.#made.clear(); // a chat's views change slowly: keep the map small
    this.#made.set(key, out);
    return out;
  }

  #parts = new Map<string, Map<number, ViewMade | null>>();

  /**
   * Message `id` as a parts view of `kind` (a format, and whether its reasoning is kept) sends it,
   * made once by `make` (null: as the chat holds it). A chat whose every answer reasons holds one
   * entry per message in reach, per kind: no string key is made for them.
   */
  parts(kind: string, id: number, make: () => ViewMade | null): ViewMade | null {
    let byId = this.#parts.get(kind);
    if (!byId) this.#parts.set(kind, (byId = new Map()));
    const hit = byId.get(id);
    if (hit !== undefined) return hit;
    const out = make();
    if (byId.size >= PARTS_KEPT) byId.clear(); // the messages in reach change slowly: keep each map bounded
    byId.set(id, out);
    return out;
  }
}

/** A message a view made, and what it costs as sent. */
export type ViewMade = { message: Message; tokens: number };

const MADE_KEPT = 1024;
const PARTS_KEPT = 16_384;

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
  /** Whether any message of the chat holds reasoning (reasoning or redacted-reasoning parts). */
  readonly reasoning: boolean;
  /** Whether message `id` holds reasoning. */
  reasoningIn(id: number): boolean;
  /** Whether any message of the chat holds a provider's compaction. */
  readonly compactions: boolean;
  /** Whether message `id` holds a compaction (made by `provider`, when given). */
  compactionIn(id: number, provider?: CompactionProvider): boolean;
  /** The first message of the chat that made a call of this id. */
  firstCallOwner(callId: string): number;
  readonly cache: ToolViewCache;
}

/**
 * How a message is sent in a view ("renamed": its calls' ids made unique in the request, see
 * renameCalls; "parts": reasoning or a compaction left out, see reasoning-view.ts).
 */
export type ViewKind = "cleared" | "truncated" | "inputs" | "renamed" | "parts";

/** A build's view: the messages sent otherwise than the chat holds them. */
export interface ContextView {
  /** Their ids and, for Engine.swapTokens, what each costs as sent. */
  readonly ids: Int32Array;
  readonly tokens: Int32Array;
  /** The message sent for each. */
  readonly messages: Map<number, Message>;
  readonly kinds: Map<number, ViewKind>;
}
