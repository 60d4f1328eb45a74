// What the two friends tell each other: a topic is a fact one of them states once (with the
// friend's reaction and often a detail turn), and the questions asked about it much later,
// mostly in other words (topics-events.ts, topics-traits.ts). Placeholders: {me} the owner's name, {you} the friend's short name,
// {they} {them} {their} the owner's pronouns, {when} a relative time ("last weekend"), and
// the topic's own slots. A question names the turns it needs (its evidence).

import type { Rand } from "./rand.js";

export type Kind = "single-hop" | "multi-hop" | "temporal" | "open-domain";
export type Slots = Record<string, string>;

export interface Ask {
  kind: Kind;
  /** The turns it needs: the statement, the detail (or the second statement of a two-part topic). */
  on: readonly ("state" | "detail")[];
  q: readonly string[];
  a: string;
  /** Only when the owner has this topic once (the question does not say which one). */
  once?: boolean;
}

export interface Topic {
  name: string;
  /** How many times one speaker may bring it up (different values each time). */
  most: number;
  /** Slot values; `fresh` refuses a value the conversation already used. */
  draw(r: Rand, fresh: (value: string) => boolean): Slots;
  state: readonly string[];
  react: readonly string[];
  /** A detail the owner adds after the reaction; with `later`, a second statement in a later session instead. */
  detail?: readonly string[];
  later?: boolean;
  /** The statement carries {when}: the event has a date. */
  dated?: boolean;
  ask: readonly Ask[];
  /** For a speaker who brought it up more than once: a question over all the statements. */
  many?: { q: readonly string[]; a: string };
}

/** The first value of `list` (from a random start) that `fresh` accepts. */
export function pickFresh<T>(
  r: Rand,
  list: readonly T[],
  fresh: (value: string) => boolean,
  key: (v: T) => string = String,
): T {
  const start = r.int(list.length);
  for (let i = 0; i < list.length; i++) {
    const v = list[(start + i) % list.length]!;
    if (fresh(key(v))) return v;
  }
  return list[start]!;
}

/** Pronoun slots of a third party: {x_they} {x_They} {x_them} {x_their}. */
export function pronouns(prefix: string, they: "he" | "she"): Slots {
  const [them, their] = they === "he" ? ["him", "his"] : ["her", "her"];
  return {
    [`${prefix}_they`]: they,
    [`${prefix}_They`]: they === "he" ? "He" : "She",
    [`${prefix}_them`]: them,
    [`${prefix}_their`]: their,
  };
}

export const q = (kind: Kind, on: Ask["on"], a: string, ...qs: string[]): Ask => ({ kind, on, q: qs, a });
export const once = (ask: Ask): Ask => ({ ...ask, once: true });
