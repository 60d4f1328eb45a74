// The exact counter's fallback where its WebAssembly module cannot load: gpt-tokenizer. Reached
// through the package's "#ctxloom/fallback" import, which the workerd condition maps to
// fallback-none.ts instead: a Worker always has the module, and its bundle stays without
// gpt-tokenizer's ranks (about 1.6 MiB gzip).
import type { Encoding } from "./types.js";
import { loadEncoding } from "./exact.js";
import type { TokenCounter } from "./types.js";

export const loadFallback: ((encoding: Encoding) => Promise<TokenCounter>) | undefined = loadEncoding;
