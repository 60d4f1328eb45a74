// A counter of the user's (a profile's own `counter`), checked when it is given: its shape, and
// its answers on a few texts, so that one returning -1, a fraction or NaN is refused before a
// chat counts with it (each count is checked again where it is taken: tokens/chat.ts).
import { CtxloomError, describe } from "../errors.js";
import { checkLabel } from "../message.js";
import { callCounter, countText } from "./chat.js";
import type { TokenCounter } from "./types.js";

/** Texts a counter is tried on: empty, ASCII, and CJK with an emoji (a surrogate pair). */
const PROBES = ["", "Hello, world: 42 tokens?", "日本語のテキスト 😀"];
const OPTIONAL = ["atLeast", "fit", "countUpTo", "measure"] as const;

/** Counters already tried (a profile is checked at every call that names it). */
const tried = new WeakSet<object>();

/**
 * Checks a TokenCounter given in a profile: `{ name, exact, count(text) }` with a non-empty
 * name (a chat keeps it), and, tried on a few texts, counts that are whole numbers from 0 to
 * MAX_TOKENS, no `atLeast` above its count and no `countUpTo` other than its count under a
 * large cap; what it throws is wrapped. @throws INVALID_ARGUMENT saying what is wrong
 */
export function checkCounter(counter: unknown, what: string): TokenCounter {
  const c = counter as Partial<TokenCounter> | null;
  if (c === null || typeof c !== "object" || typeof c.count !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be a TokenCounter { name, exact, count(text) }; got ${describe(counter)}.`,
    );
  }
  if (tried.has(c)) return c as TokenCounter;
  checkLabel(c.name, `${what}.name (kept with a chat, to find the counter again)`);
  if (typeof c.exact !== "boolean")
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.exact must be true or false; got ${describe(c.exact)}.`);
  for (const key of OPTIONAL) {
    if (c[key] !== undefined && typeof c[key] !== "function") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}.${key}, when given, must be a function; got ${describe(c[key])}.`,
      );
    }
  }
  const checked = c as TokenCounter;
  for (const text of PROBES) {
    const n = countText(checked, text); // whole, from 0 to MAX_TOKENS, or INVALID_ARGUMENT naming the counter
    if (checked.atLeast) {
      const least = callCounter(checked, () => checked.atLeast!(text));
      if (!(typeof least === "number" && least >= 0 && least <= n)) {
        const said = `atLeast(${JSON.stringify(text)}) gave ${describe(least)}, where its count is ${n}`;
        throw bad(checked, `${said}; atLeast must be a number from 0 to the count`);
      }
    }
    if (checked.countUpTo) {
      const upTo = callCounter(checked, () => checked.countUpTo!(text, n + 1));
      if (upTo !== n) {
        const said = `countUpTo(${JSON.stringify(text)}, ${n + 1}) gave ${describe(upTo)}, where its count is ${n}`;
        throw bad(checked, `${said}; under the cap it must be the count`);
      }
    }
  }
  tried.add(c);
  return checked;
}

const bad = (counter: TokenCounter, what: string): CtxloomError =>
  new CtxloomError(
    "INVALID_ARGUMENT",
    `The token counter ${describe(counter.name)} is not one ctxloom can count with: ${what}.`,
  );
