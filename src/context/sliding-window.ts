import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { Engine } from "../engine/types.js";
import {
  MAX_TOKENS,
  PRIORITIES,
  checkMessageInput,
  priorityCode,
  type MessageExtras,
  type MessageInput,
  type Priority,
  type ToolCall,
} from "../message.js";
import { messageTokens } from "../tokens/chat.js";
import { heuristicCounter } from "../tokens/heuristic.js";
import type { TokenCounter } from "../tokens/types.js";
import { toTranscript } from "./format.js";
import { checkToolResult, unfinished } from "./tool-units.js";

/** A message held by a sliding window. */
export interface WindowMessage extends MessageExtras {
  /** Who the message is from. */
  role: MessageInput["role"];
  /** The message's text. */
  content: string;
  /** How much it matters: the lowest priorities leave first. */
  priority: Priority;
  /** Tokens it costs in a request (cookbook rules, with the window's counter). */
  tokens: number;
}

/** Options of `loom.slidingWindow()`. */
export interface WindowOptions {
  /** The window's size in tokens. */
  maxTokens: number;
  /** Counts tokens; default the fast estimate, about 4 characters a token. */
  counter?: TokenCounter;
}

/** What `win.stats()` returns. */
export interface WindowStats {
  /** Messages held. */
  messages: number;
  /** Tokens held. */
  tokens: number;
  /** The window's size in tokens. */
  maxTokens: number;
  /** Tokens held as a percentage of the window's size. */
  usagePercent: number;
  /** Messages held, by priority. */
  byPriority: Record<Priority, number>;
  /** Messages added since the window was made. */
  added: number;
  /** Messages that left to make room. */
  evicted: number;
  /** Messages refused: larger than the window, or tool results whose call was evicted. */
  rejected: number;
}

/**
 * The sliding window, standalone: messages go in at the tail; when the window is
 * full, whole messages leave lowest priority first, oldest first (an assistant message
 * with tool calls leaves with its results). A message larger than the whole window is
 * refused. The newest message always gets in if it fits alone, even if that evicts more
 * important ones: the window follows the conversation. Runs on the engine's core.
 *
 * The window never holds a tool call without its result: when a message other than a
 * tool result follows an assistant message whose calls are not all answered, that
 * unfinished unit (the assistant message and the results it has) is evicted first.
 */
export class SlidingWindow {
  /** The window's size in tokens. */
  readonly maxTokens: number;
  readonly #engine: Engine;
  readonly #window: number;
  readonly #counter: TokenCounter;
  readonly #bySlot: (WindowMessage | undefined)[] = [];
  /** The newest assistant message with tool calls still in the window, and the calls it has answers for. */
  #open: {
    slot: number;
    calls: readonly ToolCall[];
    answered: Set<string>;
    priority: Priority;
    evicted: boolean;
  } | null = null;
  #added = 0;
  #evicted = 0;
  #rejected = 0;
  #closed = false;
  readonly #onClose: () => void;

  /** @internal Use `loom.slidingWindow({ maxTokens })`. */
  constructor(engine: Engine, options: WindowOptions, onClose: () => void) {
    const o = checkOptions<WindowOptions>(options, "slidingWindow(options)", ["maxTokens", "counter"]);
    this.maxTokens = checkInteger(o.maxTokens, "maxTokens", 1, MAX_TOKENS);
    if (o.counter !== undefined && (o.counter === null || typeof o.counter.count !== "function")) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `counter must be a TokenCounter { name, exact, count(text) }; got ${describe(o.counter)}.`,
      );
    }
    this.#counter = o.counter ?? heuristicCounter();
    this.#engine = engine;
    this.#window = engine.createWindow(this.maxTokens);
    this.#onClose = onClose;
  }

  /**
   * Adds a message, evicting what it must. Returns false when the message cannot be in the
   * window: larger than the window alone (nothing is evicted), or a tool result whose call
   * was evicted or would be to make room. A refused tool result takes its call's unit out
   * with it: a call without all its results is never kept.
   * @throws INVALID_ROLE, INVALID_CONTENT, INVALID_PRIORITY, INVALID_TOOL_CALL
   */
  add(input: MessageInput): boolean {
    this.#checkLive();
    const m = checkMessageInput(input);
    const open = this.#open;
    let unit = -1;
    if (m.role === "tool") {
      m.priority = checkToolResult(open, m.toolCallId!, (input as MessageInput).priority).priority;
      if (open!.evicted) {
        this.#rejected++;
        return false; // its call was evicted: a lone result must not be sent
      }
      unit = open!.slot;
    } else if (open && unfinished(open)) {
      // Those calls will never get their results: the unfinished unit leaves the window.
      if (!open.evicted) this.#forget(this.#engine.windowEvictUnit(this.#window, open.slot));
      this.#open = null;
    }
    const tokens = messageTokens(this.#counter, m);
    const { slot, evicted } = this.#engine.windowAdd(this.#window, tokens, priorityCode(m.priority), unit);
    this.#forget(evicted);
    if (slot < 0) {
      this.#rejected++;
      // A refused result leaves its call unanswered for good: the unit goes too, so that
      // the window never holds a call without all its results.
      if (unit >= 0 && !this.#open!.evicted) this.#forget(this.#engine.windowEvictUnit(this.#window, unit));
      return false;
    }
    const message: WindowMessage = { ...m, tokens };
    this.#bySlot[slot] = Object.freeze(message);
    this.#added++;
    if (m.toolCalls)
      this.#open = { slot, calls: m.toolCalls, answered: new Set(), priority: m.priority, evicted: false };
    else if (m.role === "tool") this.#open!.answered.add(m.toolCallId!);
    else this.#open = null;
    return true;
  }

  /** Drops the texts of evicted slots. */
  #forget(evicted: Int32Array): void {
    for (const s of evicted) {
      this.#bySlot[s] = undefined;
      if (s === this.#open?.slot) this.#open.evicted = true;
    }
    this.#evicted += evicted.length;
  }

  /** The messages held, oldest first. */
  get messages(): WindowMessage[] {
    this.#checkLive();
    return Array.from(this.#engine.windowSlots(this.#window), (s) => ({ ...this.#bySlot[s]! }));
  }

  /** Tokens held. O(1). */
  get tokenCount(): number {
    this.#checkLive();
    return this.#engine.windowTokens(this.#window);
  }

  /** Messages held. O(1). */
  get messageCount(): number {
    this.#checkLive();
    return this.#engine.windowCount(this.#window);
  }

  /** The window as one formatted string: a "Role: text" block per message. */
  format(): string {
    return toTranscript(this.messages);
  }

  /** What the window holds and has done: counts, tokens, usage, by priority. */
  stats(): WindowStats {
    const messages = this.messages;
    const byPriority = Object.fromEntries(PRIORITIES.map((p) => [p, 0])) as Record<Priority, number>;
    for (const m of messages) byPriority[m.priority]++;
    const tokens = this.tokenCount;
    return {
      messages: messages.length,
      tokens,
      maxTokens: this.maxTokens,
      usagePercent: Math.round((1000 * tokens) / this.maxTokens) / 10,
      byPriority,
      added: this.#added,
      evicted: this.#evicted,
      rejected: this.#rejected,
    };
  }

  /** Closes the window, freeing its memory in the engine. Later calls throw WINDOW_CLOSED; closing twice is fine. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#engine.dropWindow(this.#window);
    this.#onClose();
  }

  #checkLive(): void {
    if (this.#closed)
      throw new CtxloomError(
        "WINDOW_CLOSED",
        "This window was closed (or its Loom was); create a new one with loom.slidingWindow({ maxTokens }).",
      );
  }
}
