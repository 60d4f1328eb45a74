import { CtxloomError, describe } from "../errors.js";
import type { Encoding } from "../models/types.js";
import type { TokenCounter } from "./types.js";

/**
 * Exact BPE counters, loaded lazily: nothing is loaded until a chat or a call needs an
 * encoding, and nothing is ever fetched (the ranks ship inside the npm packages).
 *
 * The default backend is gpt-tokenizer: the same counts as OpenAI's tiktoken, about
 * 0.3 s and 20 MB of heap to load o200k_base, against js-tiktoken's 0.8 s and 100 MB
 * (measured here; `npm run bench` prints both). That fits a Cloudflare Worker's 128 MB.
 * js-tiktoken stays available as `tiktokenCounter(encoding)`.
 */

// Text that looks like a special token ("<|endoftext|>") is counted as plain text, as it
// is when a chat API receives it in a message.
const PLAIN = { disallowedSpecial: new Set<string>() };

const loaded = new Map<Encoding, TokenCounter>();
const loading = new Map<Encoding, Promise<TokenCounter>>();

function checkEncoding(encoding: unknown): Encoding {
  if (encoding !== "o200k_base" && encoding !== "cl100k_base") {
    throw new CtxloomError("INVALID_ARGUMENT", `encoding must be "o200k_base" or "cl100k_base"; got ${describe(encoding)}.`);
  }
  return encoding;
}

/** Loads an encoding's exact counter (once per process) and returns it. */
export function loadEncoding(encoding: Encoding): Promise<TokenCounter> {
  checkEncoding(encoding);
  const ready = loaded.get(encoding);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(encoding);
  if (!pending) {
    pending = (encoding === "o200k_base" ? import("gpt-tokenizer/encoding/o200k_base") : import("gpt-tokenizer/encoding/cl100k_base"))
      .then(({ countTokens }) => {
        const counter: TokenCounter = { name: encoding, exact: true, count: (text) => countTokens(text, PLAIN) };
        loaded.set(encoding, counter);
        return counter;
      })
      .finally(() => loading.delete(encoding));
    loading.set(encoding, pending);
  }
  return pending;
}

/** The encoding's counter if it is loaded, else undefined. */
export function loadedEncoding(encoding: Encoding): TokenCounter | undefined {
  return loaded.get(encoding);
}

/** An exact counter on js-tiktoken (OpenAI's tiktoken ported to JS), for those who want that implementation. */
export async function tiktokenCounter(encoding: Encoding): Promise<TokenCounter> {
  checkEncoding(encoding);
  const [{ Tiktoken }, ranks] = await Promise.all([
    import("js-tiktoken/lite"),
    encoding === "o200k_base" ? import("js-tiktoken/ranks/o200k_base") : import("js-tiktoken/ranks/cl100k_base"),
  ]);
  const tiktoken = new Tiktoken(ranks.default);
  return { name: `tiktoken:${encoding}`, exact: true, count: (text) => tiktoken.encode(text, [], []).length };
}
