// What a chat tells the app as it compacts: a summary about to be written and written (by its
// trigger or `chat.compact()`), and a context that clears tool results the chat's previous
// context sent whole (`toolResults: { clear }`). `Loom.open({ onCompaction })` hears them.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message } from "../message.js";
import type { SummaryNotice } from "../summary/chat-summaries.js";
import type { ContextWindow } from "../context/types.js";
import type { ChatNodes } from "./nodes.js";

/** Why a summary is made: the trigger in force, passed in a build, or `chat.compact()`. */
export type SummaryReason = "trigger" | "compact";

/** What every event of a chat carries: whose chat it is. */
export interface ChatEvent {
  /** The user the chat belongs to. */
  userId: string;
  /** The chat's id. */
  chatId: string;
}

/** A summary is about to be written (the summarizer is called next, outside the chat's queue). */
export interface SummaryStartEvent extends ChatEvent {
  /** Always "summary-start". */
  type: "summary-start";
  /** Why the summary is made. */
  reason: SummaryReason;
  /** The run it will stand for: its oldest and newest message ids. */
  first: number;
  /** The newest message id of the run. */
  last: number;
  /** Tokens the run costs in a context today. */
  tokens: number;
}

/** A summary was written and stored (or no longer applied: `summary` null), with how. */
export interface SummaryEndEvent extends ChatEvent {
  /** Always "summary". */
  type: "summary";
  /** Why the summary was made. */
  reason: SummaryReason;
  /** The oldest message id of the run it stands for. */
  first: number;
  /** The newest message id of the run it stands for. */
  last: number;
  /**
   * The summary stored (`covers` names its run), or null when the run no longer applied (another branch moved on, or
   * the text saved nothing).
   */
  summary: Message | null;
  /**
   * "llm" when the summarizer's text was used, else "extractive" (`fallback` says why, when a summarizer was given).
   */
  source: "llm" | "extractive";
  /** Why the summarizer's text was not used (it threw, timed out or returned something unusable), when it was not. */
  fallback?: string;
}

/**
 * A context clears tool results the chat's previous context (in this Loom) sent whole: sent from now on as
 * placeholders.
 */
export interface ClearEvent extends ChatEvent {
  /** Always "clear". */
  type: "clear";
  /** The tool results newly cleared, in path order (`chat.get(id)` still gives each whole). */
  ids: number[];
  /** The tokens that saves in each request from now on. */
  tokens: number;
}

/** What `Loom.open({ onCompaction })` hears. */
export type CompactionEvent = SummaryStartEvent | SummaryEndEvent | ClearEvent;

/**
 * `Loom.open({ onCompaction })`: called, synchronously, at each event; what it throws fails the call that caused it (a
 * build, `chat.compact()`).
 */
export type CompactionListener = (event: CompactionEvent) => void;

/** Checks `Loom.open({ onCompaction })`. @throws INVALID_ARGUMENT */
export function checkCompactionListener(value: unknown): CompactionListener | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `onCompaction must be a function (event) => void; got ${describe(value)}.`,
    );
  }
  return value as CompactionListener;
}

/** Options of `chat.compact()`. */
export interface CompactOptions {
  /**
   * Told to the summarizer beside its prompt (what to keep, what to drop: "keep the open
   * questions"). The extractive summary (no summarizer given) does not read it.
   */
  instructions?: string;
}

/** Checks `chat.compact(options)`: the instructions, or undefined. @throws INVALID_ARGUMENT */
export function checkCompactOptions(options: unknown): string | undefined {
  const o = checkOptions<CompactOptions>(options, "compact(options)", ["instructions"]);
  if (o.instructions === undefined) return undefined;
  if (typeof o.instructions !== "string" || o.instructions.trim().length === 0 || o.instructions.length > 10_000) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `compact(options).instructions must be a non-empty string of at most 10,000 characters; got ` +
        `${describe(o.instructions)}.`,
    );
  }
  return o.instructions;
}

/** The tool results a context clears that the previous one did not, kept per chat. */
export class ClearedSince {
  #previous: ReadonlySet<number> = new Set();

  /** The ids among `cleared` the previous call did not have (and remembers `cleared`). */
  next(cleared: readonly number[]): number[] {
    const previous = this.#previous;
    this.#previous = new Set(cleared);
    return cleared.filter((id) => !previous.has(id));
  }

  /** Tells `listener` what `context` clears that the chat's previous context did not, with the tokens that saves. */
  hear(context: ContextWindow, chat: ClearingChat, listener: CompactionListener): void {
    const ids = this.next(context.cleared.ids);
    if (ids.length === 0) return;
    const { userId, id: chatId } = chat.record;
    const nodes = chat.nodes();
    const sent = new Map(context.conversation.map((m) => [m.id, m.tokens]));
    const tokens = ids.reduce((n, id) => n + nodes.engine.tokens(nodes.tree, id) - sent.get(id)!, 0);
    listener({ type: "clear", userId, chatId, ids, tokens });
  }
}

/** What ClearedSince reads of a chat: whose it is, and its tree. */
export interface ClearingChat {
  readonly record: { readonly userId: string; readonly id: string };
  nodes(): Pick<ChatNodes, "engine" | "tree">;
}

/** A summary notice as the app hears it. */
export function summaryEvent(userId: string, chatId: string, n: SummaryNotice): CompactionEvent {
  const run = { userId, chatId, reason: n.reason, first: n.first, last: n.last };
  if (n.summary === undefined) return { type: "summary-start", ...run, tokens: n.tokens };
  return {
    type: "summary",
    ...run,
    summary: n.summary,
    source: n.source!,
    ...(n.fallback ? { fallback: n.fallback } : {}),
  };
}
