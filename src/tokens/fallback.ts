// The exact counter's fallback where its WebAssembly module cannot load: gpt-tokenizer, an
// optional peer dependency imported only then (exact.ts), and announced once with a warning.
// Reached through the package's "#ctxloom/fallback" import, which the workerd condition maps to
// fallback-none.ts instead: a Worker always has the module, and its bundle stays without
// gpt-tokenizer's ranks (about 1.6 MiB gzip).
import type { Encoding } from "./types.js";
import { loadEncoding } from "./exact.js";
import type { TokenCounter } from "./types.js";

let announced = false;

export const loadFallback: ((encoding: Encoding) => Promise<TokenCounter>) | undefined = (encoding) => {
  if (!announced) {
    announced = true;
    console.warn(
      `ctxloom: the exact counter's WebAssembly module could not load here; counting ${encoding} with gpt-tokenizer instead ` +
        `(the same counts; slower to load and to count).`,
    );
  }
  return loadEncoding(encoding);
};
