import type { Message } from "../message.js";
import type { ContextWindow } from "./types.js";

/**
 * A context whose `conversation` is made when first read, from the ids the build selected
 * and the chat's `held` reader (see ContextSource.held): a server that never reads it makes
 * no Message per message sent.
 *
 * `conversation` is an own enumerable accessor (spread, JSON and structuredClone see the
 * array), and every context shares the same getter and setter, with the state in private
 * fields. A getter made per context would not do: each one gives its object a hidden class of
 * its own, which only full collections free, and which keeps the whole context (messages
 * sent included) alive through every minor collection until then. Measured on a server loop,
 * that took a third of each minor collection's work and sent the contexts to the old space.
 */
export function withHeldConversation(
  base: ContextBase,
  format: ContextWindow["format"],
  messages: ContextWindow["messages"],
  system: string,
  ids: HeldIds,
  held: (id: number) => Message,
): ContextWindow {
  return new HeldContext(base, format, messages, system, ids, held) as unknown as ContextWindow;
}

/** The ids of the messages sent, oldest first, or what makes them when first asked (a run of the chat's path). */
export type HeldIds = Int32Array | (() => Int32Array);

/** What every format's context holds besides its messages and system text. */
export type ContextBase = Omit<ContextWindow, "format" | "messages" | "system">;

class HeldContext {
  readonly #ids: HeldIds;
  readonly #held: (id: number) => Message;
  #made: Message[] | undefined;

  static readonly conversation: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: HeldContext): Message[] {
      if (this.#made) return this.#made;
      const ids = this.#ids;
      return (this.#made = Array.from(typeof ids === "function" ? ids() : ids, (id) => this.#held(id)));
    },
    set(this: HeldContext, value: Message[]) {
      this.#made = value;
    },
  };

  constructor(
    b: ContextBase,
    format: ContextWindow["format"],
    messages: ContextWindow["messages"],
    system: string,
    ids: HeldIds,
    held: (id: number) => Message,
  ) {
    this.#ids = ids;
    this.#held = held;
    // The fields in the order of a context made in one piece (window.ts's windowOf), set one by
    // one: no context is made first to be copied.
    const o = this as unknown as Record<keyof ContextWindow, unknown>;
    o.memory = b.memory;
    o.memoryRevision = b.memoryRevision;
    o.input = b.input;
    o.usage = b.usage;
    o.pressure = b.pressure;
    Object.defineProperty(this, "conversation", HeldContext.conversation);
    o.recalled = b.recalled;
    o.recallDegraded = b.recallDegraded;
    o.evicted = b.evicted;
    o.cleared = b.cleared;
    o.truncated = b.truncated;
    o.compressed = b.compressed;
    o.summary = b.summary;
    o.model = b.model;
    o.budget = b.budget;
    o.format = format;
    o.messages = messages;
    o.system = system;
  }
}
