import type { TokenCounter } from "./types.js";

/**
 * The fast estimate: about 4 characters a token, rounded up: (length + 3) / 4.
 * With `tokensPerChar` (a model profile's figure), ceil(length * tokensPerChar) instead.
 * O(1): it never looks at the characters.
 */
export function heuristicCounter(tokensPerChar = 0.25): TokenCounter {
  // One counter per figure, frozen and shared: a Loom counting by the estimate asks for one per
  // chat, and a server keeps thousands of chats open (each object of theirs marked by every full
  // collection). Shared, the counts of system prompts kept per counter serve every chat too.
  let counter = made.get(tokensPerChar);
  if (!counter) made.set(tokensPerChar, (counter = Object.freeze(make(tokensPerChar))));
  return counter;
}

const made = new Map<number, TokenCounter>();

function make(tokensPerChar: number): TokenCounter {
  if (tokensPerChar === 0.25) {
    const count = (text: string) => (text.length + 3) >>> 2;
    return {
      name: "heuristic:0.25",
      exact: false,
      count,
      atLeast: count,
      fit: (text, max) => Math.min(text.length, Math.max(0, 4 * max)),
    };
  }
  const count = (text: string) => Math.ceil(text.length * tokensPerChar);
  return {
    name: `heuristic:${tokensPerChar}`,
    exact: false,
    count,
    atLeast: count,
    fit: (text, max) => {
      // The longest length whose estimate is at most max (the float guess corrected both ways).
      let n = Math.min(text.length, Math.max(0, Math.floor(max / tokensPerChar)));
      while (n > 0 && Math.ceil(n * tokensPerChar) > max) n--;
      while (n < text.length && Math.ceil((n + 1) * tokensPerChar) <= max) n++;
      return n;
    },
  };
}
