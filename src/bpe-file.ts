// The BPE counter's module file, loaded where no runtime-specific way applies (browsers,
// bundlers): fetched from beside the JS. Reached through the package's "#ctxloom/bpe-file"
// import, which maps Node to tokens/bpe-file-node.ts, Deno to tokens/bpe-file-deno.ts and
// Workers to tokens/bpe-file-none.ts: each runtime's bundle holds only its own way of loading
// the file. It sits at the root of dist/, beside dist/ctxloom-bpe.wasm, so that one literal
// "./ctxloom-bpe.wasm" names the file both unbundled and bundled: bundlers that follow
// `new URL(..., import.meta.url)` (Vite, webpack, Rollup with an assets plugin) find it beside
// this module and ship it; the others (esbuild) keep the URL, which then points beside the
// bundle, where their users copy ctxloom/bpe.wasm (docs/runtimes.md).

/**
 * The module's exports, instantiated from ctxloom-bpe.wasm beside this module (or the bundle).
 * @throws when the file cannot be fetched or compiled here
 */
export const loadBpeFile: (() => Promise<WebAssembly.Exports>) | undefined = async () => {
  const url = new URL("./ctxloom-bpe.wasm", import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  return instance.exports;
};
