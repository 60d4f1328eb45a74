import { CtxloomError, describe } from "../errors.js";
import type { Encoding } from "./types.js";
import { HeapBpe, type BpeCore } from "./bpe.js";
import type { TokenCounter } from "./types.js";

/**
 * The exact counter on gpt-tokenizer, loaded lazily: the fallback where ctxloom's WebAssembly
 * counter cannot load (wasm-bpe.ts). gpt-tokenizer is an optional peer dependency (30 MB of
 * ranks installed): it is imported only when this is called, and nothing is ever fetched. It
 * gives the same counts as OpenAI's tiktoken, in about 0.3 s and 20 MB of heap for o200k_base.
 */

// Text that looks like a special token ("<|endoftext|>") is counted as plain text, as it
// is when a chat API receives it in a message.
const PLAIN = { disallowedSpecial: new Set<string>() };

const loaded = new Map<Encoding, TokenCounter>();
const merges = new Map<Encoding, HeapBpe>();

/** @internal The heap merger behind a loaded encoding (tests count its steps). */
export function heapBpeOf(encoding: Encoding): HeapBpe | undefined {
  return merges.get(encoding);
}
const loading = new Map<Encoding, Promise<TokenCounter>>();

function checkEncoding(encoding: unknown): Encoding {
  if (encoding !== "o200k_base" && encoding !== "cl100k_base") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `encoding must be "o200k_base" or "cl100k_base"; got ${describe(encoding)}.`,
    );
  }
  return encoding;
}

/** gpt-tokenizer could not be imported: most likely not installed (it is an optional peer dependency). */
function notInstalled(cause: unknown): never {
  throw new CtxloomError(
    "WASM_UNAVAILABLE",
    `gpt-tokenizer, ctxloom's exact counter where its WebAssembly counter cannot run, could not be imported ` +
      `(${String(cause)}). ` +
      `It is an optional peer dependency: npm install gpt-tokenizer, or count with the heuristic (Loom.open({ ` +
      `counter: "heuristic" })).`,
    { cause },
  );
}

/**
 * Loads an encoding's counter on gpt-tokenizer (once per process) and returns it.
 * @throws WASM_UNAVAILABLE when gpt-tokenizer (an optional peer dependency) is not installed
 */
export function loadEncoding(encoding: Encoding): Promise<TokenCounter> {
  checkEncoding(encoding);
  const ready = loaded.get(encoding);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(encoding);
  if (!pending) {
    // Each import() carries its own .catch: bundlers then leave a missing gpt-tokenizer to run time.
    pending = (
      encoding === "o200k_base"
        ? import("gpt-tokenizer/encoding/o200k_base").catch(notInstalled)
        : import("gpt-tokenizer/encoding/cl100k_base").catch(notInstalled)
    )
      .then((api) => {
        const counter = exactCounter(encoding, api.default, (text) => api.countTokens(text, PLAIN));
        loaded.set(encoding, counter);
        return counter;
      })
      .finally(() => loading.delete(encoding));
    loading.set(encoding, pending);
  }
  return pending;
}

/**
 * The counter over gpt-tokenizer's tables: its own merge for short pieces, the heap merge
 * (bpe.ts) for long ones, a linear lower bound, and cuts found in one pass over token ends.
 * Falls back to gpt-tokenizer's plain count if its internals ever change shape.
 */
function exactCounter(encoding: Encoding, api: unknown, plain: (text: string) => number): TokenCounter {
  const core = (api as { bytePairEncodingCoreProcessor?: Partial<BpeCore> }).bytePairEncodingCoreProcessor;
  if (
    !core ||
    !(core.tokenSplitRegex instanceof RegExp) ||
    !Array.isArray(core.bytePairRankDecoder) ||
    typeof core.getBpeRankFromBytes !== "function" ||
    typeof core.getBpeRankFromString !== "function" ||
    typeof core.bytePairEncode !== "function"
  ) {
    return { name: encoding, exact: true, count: plain };
  }
  const bpe = new HeapBpe(core as BpeCore);
  merges.set(encoding, bpe);
  return {
    name: encoding,
    exact: true,
    count: (text) => bpe.count(text),
    countUpTo: (text, max) => bpe.countUpTo(text, max),
    atLeast: (text) => Math.ceil(text.length / bpe.maxTokenBytes),
    fit: (text, maxTokens) => fitByEnds(bpe, text, maxTokens),
  };
}

/**
 * The end of the longest prefix that counts at most `maxTokens`, at a token end. Only a
 * prefix of at most maxTokens x (longest token) units can fit, and the prefix encoded
 * grows from a guess (at most doubling): the work is O(c log c) for the c units kept,
 * whatever the text's length. The cut is then checked by counting the prefix itself (BPE of a prefix
 * may differ at its end) and moved back until it fits (almost always at once).
 */
function fitByEnds(bpe: HeapBpe, text: string, maxTokens: number): number {
  if (maxTokens <= 0) return 0;
  const bound = Math.min(text.length, maxTokens * bpe.maxTokenBytes);
  // A first guess of 4 units a token; then grown by what the tokens seen so far suggest.
  let size = Math.min(bound, maxTokens * 4 + 256);
  let cut: number;
  for (;;) {
    const ends = bpe.ends(size === text.length ? text : text.slice(0, size), maxTokens);
    if (ends.length > maxTokens) {
      cut = ends[maxTokens - 1]!;
      break;
    }
    if (size === text.length) return text.length;
    if (size === bound) {
      const high = text.charCodeAt(size - 1);
      cut = high >= 0xd800 && high < 0xdc00 ? size - 1 : size; // never inside a surrogate pair
      break;
    }
    const guess = Math.ceil(((size * (maxTokens + 1)) / Math.max(1, ends.length)) * 1.1) + 64;
    size = Math.min(bound, Math.max(size + 256, Math.min(2 * size, guess)));
  }
  for (;;) {
    const ends = bpe.ends(text.slice(0, cut), maxTokens);
    if (ends.length <= maxTokens) return cut;
    cut = ends[maxTokens - 1]!;
  }
}

/** The encoding's counter if it is loaded, else undefined. */
export function loadedEncoding(encoding: Encoding): TokenCounter | undefined {
  return loaded.get(encoding);
}
