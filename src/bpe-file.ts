// The BPE counter's module files, loaded where no runtime-specific way applies (browsers,
// bundlers): fetched from beside the JS. Reached through the package's "#ctxloom/bpe-file"
// import, which maps Node to tokens/bpe-file-node.ts, Deno to tokens/bpe-file-deno.ts and
// Workers to tokens/bpe-file-none.ts: each runtime's bundle holds only its own way of loading
// the files. It sits at the root of dist/, beside dist/ctxloom-bpe*.wasm, so that one literal
// "./ctxloom-bpe.wasm" names a file both unbundled and bundled: bundlers that follow
// `new URL(..., import.meta.url)` (Vite, webpack, Rollup with an assets plugin) find them beside
// this module and ship them; the others (esbuild) keep the URL, which then points beside the
// bundle, where their users copy ctxloom/bpe.wasm (docs/runtimes.md). A page fetches only the
// file of the encoding it counts with (o200k_base's, 1 MiB gzip, for every current OpenAI model).
import type { BpeFile, BpeFileLoader } from "./tokens/bpe-files.js";

/** Each file's URL, written out: bundlers see only literal `new URL("./file", import.meta.url)`. */
function urlOf(file: BpeFile): URL {
  if (file === "ctxloom-bpe-cl100k.wasm") return new URL("./ctxloom-bpe-cl100k.wasm", import.meta.url);
  if (file === "ctxloom-bpe-vocab.wasm") return new URL("./ctxloom-bpe-vocab.wasm", import.meta.url);
  return new URL("./ctxloom-bpe.wasm", import.meta.url);
}

/**
 * A module file compiled, fetched from beside this module (or the bundle).
 * @throws when the file cannot be fetched or compiled here
 */
export const loadBpeFile: BpeFileLoader | undefined = async (file) => {
  const url = urlOf(file);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
};
