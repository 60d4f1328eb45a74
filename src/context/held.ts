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
  // (declared only: no field is defined before the constructor sets each in order)
  declare memory: ContextWindow["memory"];
  declare memoryRevision: ContextWindow["memoryRevision"];
  declare input: ContextWindow["input"];
  declare usage: ContextWindow["usage"];
  declare pressure: ContextWindow["pressure"];
  declare recalled: ContextWindow["recalled"];
  declare recallDegraded: ContextWindow["recallDegraded"];
  declare evicted: ContextWindow["evicted"];
  declare cleared: ContextWindow["cleared"];
  declare truncated: ContextWindow["truncated"];
  declare compressed: ContextWindow["compressed"];
  declare summary: ContextWindow["summary"];
  declare model: ContextWindow["model"];
  declare budget: ContextWindow["budget"];
  declare format: ContextWindow["format"];
  declare messages: ContextWindow["messages"];
  declare system: ContextWindow["system"];
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
    // one: no context is made first to be copied. Each as `this.<name> =`, which V8 counts (before
    // any runs) to size the object: 17 fields set through an alias went to a property array made
    // anew as it grew (320 bytes a context more, measured by heap sampling).
    this.memory = b.memory;
    this.memoryRevision = b.memoryRevision;
    this.input = b.input;
    this.usage = b.usage;
    this.pressure = b.pressure;
    Object.defineProperty(this, "conversation", HeldContext.conversation);
    this.recalled = b.recalled;
    this.recallDegraded = b.recallDegraded;
    this.evicted = b.evicted;
    this.cleared = b.cleared;
    this.truncated = b.truncated;
    this.compressed = b.compressed;
    this.summary = b.summary;
    this.model = b.model;
    this.budget = b.budget;
    this.format = format;
    this.messages = messages;
    this.system = system;
  }
}
