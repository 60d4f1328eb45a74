// How many turns' reasoning a context sends: `reasoningTurns`, the same setting at Loom.open
// (every chat), create (one chat, kept with it) and buildContext (one call), the nearest
// level that sets it winning. The context room applies it as a view (context/reasoning-view.ts):
// the chat keeps every reasoning part, and a context leaves out those of older turns.
import { CtxloomError, describe } from "../errors.js";

/**
 * The newest turns whose reasoning a context sends: a count (0 and up) or "all". A turn is an
 * answer: the assistant messages (and tool results) that follow a user message.
 */
export type ReasoningTurns = number | "all";

/** The default: the newest turn's reasoning is sent, older turns' is left out. */
export const DEFAULT_REASONING_TURNS = 1;

/** The largest count `reasoningTurns` takes (past it, say "all"). */
export const MAX_REASONING_TURNS = 0x7fffffff;

/** Checks `reasoningTurns` at one level: the value as given, or undefined when left out. @throws INVALID_ARGUMENT */
export function checkReasoningTurns(value: unknown, what: string): ReasoningTurns | undefined {
  if (value === undefined || value === "all") return value;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_REASONING_TURNS) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be how many of the newest turns send their reasoning (an integer from 0 to ` +
        `${MAX_REASONING_TURNS}) or "all"; got ${describe(value)}.`,
    );
  }
  return value;
}

/** The count a level's setting means ("all": Infinity), the default when no level sets it. */
export function reasoningTurnsOf(value: ReasoningTurns | undefined): number {
  if (value === undefined) return DEFAULT_REASONING_TURNS;
  return value === "all" ? Infinity : value;
}
