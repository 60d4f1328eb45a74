// The default exact counter and which one it is: ctxloom's WebAssembly BPE counter, from the
// module handed over (`Loom.open({ bpe })`, the workerd entry) or the file beside the JS; or,
// where that module cannot load, gpt-tokenizer (an optional peer, announced once: a warning,
// and `loom.stats()`). The fallback is reached through the package's "#ctxloom/fallback"
// import, which maps Workers to none (fallback.ts).
import { CtxloomError } from "../errors.js";
import { loadFallback } from "#ctxloom/fallback";
import type { Encoding, TokenCounter } from "./types.js";
import { bpeFileOf } from "./bpe-files.js";
import { provideBpeModule, wasmBpeCounter } from "./wasm-bpe.js";

/**
 * The counter's module as `Loom.open({ bpe })` takes it: compiled (`import bpe from "ctxloom/bpe.wasm"`), its bytes, or
 * its URL.
 */
export type BpeSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL;

/** Which exact counter counts in this process: the WebAssembly one, gpt-tokenizer, or none loaded yet. */
export interface ExactCounterState {
  counter: "wasm" | "gpt-tokenizer" | null;
  /** Why the WebAssembly counter did not load, when gpt-tokenizer counts in its place. */
  fallback: string | null;
}

let state: ExactCounterState = { counter: null, fallback: null };
/** A module was handed over since the last fallback: the WebAssembly counter is worth another try. */
let handed = false;

/**
 * Hands the counter's module over (`Loom.open({ bpe })`), for where the file beside the JS is
 * out of reach: a bundle whose bundler does not ship it (esbuild), a Worker built without the
 * workerd condition. A counter already running stays (the same module counts the same).
 * @throws WASM_UNAVAILABLE when it does not compile here or is not ctxloom's counter
 */
export async function useBpeSource(source: BpeSource): Promise<void> {
  let module: WebAssembly.Module;
  try {
    if (source instanceof WebAssembly.Module) module = source;
    else if (source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`${source.href}: HTTP ${response.status}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    } else module = await WebAssembly.compile(source as BufferSource);
    if (!bpeFileOf(module))
      throw new Error("it does not say which tables it carries: not ctxloom's BPE counter (of this version)");
  } catch (cause) {
    throw new CtxloomError(
      "WASM_UNAVAILABLE",
      `The token counter's module passed as Loom.open({ bpe }) could not be loaded (${String(cause)}). Pass ` +
        `ctxloom's own: ` +
        `the module of "ctxloom/bpe.wasm" (o200k_base), "ctxloom/bpe-cl100k.wasm" or "ctxloom/bpe-vocab.wasm", its ` +
        `bytes or its URL; or leave bpe out.`,
      { cause },
    );
  }
  provideBpeModule(module);
  handed = true;
}

/** Which exact counter counts in this process (`loom.stats().counter`). */
export function exactCounterState(): ExactCounterState {
  return { ...state };
}

/**
 * The default exact counter: the WebAssembly one, or gpt-tokenizer where it cannot load (not on
 * Workers), announced once. Once fallen back, the module is not looked for again (a browser
 * would fetch a missing file for every chat) until one is handed over.
 */
export function loadExactCounter(encoding: Encoding): Promise<TokenCounter> {
  const fallback = loadFallback;
  if (fallback && state.counter === "gpt-tokenizer" && !handed) return fallback(encoding, state.fallback ?? "");
  return wasmBpeCounter(encoding).then(
    (counter) => {
      state = { counter: "wasm", fallback: null };
      return counter;
    },
    (error: unknown) => {
      if (!fallback || !(error instanceof CtxloomError) || error.code !== "WASM_UNAVAILABLE") throw error;
      const cause = error.cause as { message?: unknown } | undefined;
      const why = String(cause?.message ?? cause);
      handed = false;
      return fallback(encoding, why).then((counter) => {
        if (state.counter !== "wasm") state = { counter: "gpt-tokenizer", fallback: why };
        return counter;
      });
    },
  );
}
