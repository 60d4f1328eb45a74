// js-tiktoken (OpenAI's tiktoken ported to JS) as a TokenCounter: the reference the tests hold
// ctxloom's counters to, and a competitor in the benches. A devDependency only: the library
// counts with its WebAssembly BPE (gpt-tokenizer where WebAssembly cannot run).
import type { Encoding, TokenCounter } from "../../src/tokens/types.js";

/** An exact counter on js-tiktoken; text that looks like a special token counts as plain text. */
export async function tiktokenCounter(encoding: Encoding): Promise<TokenCounter> {
  const [{ Tiktoken }, ranks] = await Promise.all([
    import("js-tiktoken/lite"),
    encoding === "o200k_base" ? import("js-tiktoken/ranks/o200k_base") : import("js-tiktoken/ranks/cl100k_base"),
  ]);
  const tiktoken = new Tiktoken(ranks.default);
  return { name: `tiktoken:${encoding}`, exact: true, count: (text) => tiktoken.encode(text, [], []).length };
}
