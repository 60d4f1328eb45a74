// The exact counter's fallback where its WebAssembly module cannot load: gpt-tokenizer, an
// optional peer dependency imported only then (exact.ts), and announced once with a warning
// (and in `loom.stats()`: exact-default.ts). Reached through the package's "#ctxloom/fallback"
// import, which the workerd condition maps to fallback-none.ts instead: a Worker always has the
// module, and its bundle stays without gpt-tokenizer's ranks (about 1.6 MiB gzip).
import type { Encoding } from "./types.js";
import { loadEncoding } from "./exact.js";
import type { TokenCounter } from "./types.js";

let announced = false;

/** gpt-tokenizer's counter of `encoding`; `why` says why the WebAssembly counter did not load (warned once). */
export const loadFallback: ((encoding: Encoding, why: string) => Promise<TokenCounter>) | undefined = (
  encoding,
  why,
) => {
  if (!announced) {
    announced = true;
    console.warn(
      `ctxloom: the exact counter's WebAssembly module could not load here (${why}); counting ${encoding} with ` +
        `gpt-tokenizer instead ` +
        `(the same counts; slower to load and to count). Ship ctxloom-bpe.wasm beside your bundle, or hand it over: ` +
        `Loom.open({ bpe }) with the module of "ctxloom/bpe.wasm", its bytes or its URL.`,
    );
  }
  return loadEncoding(encoding);
};
