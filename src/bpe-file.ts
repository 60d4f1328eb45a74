// The BPE counter's module file, loaded where no runtime-specific way applies (browsers,
// bundlers): fetched from beside the JS. Reached through the package's "#ctxloom/bpe-file"
// import, which maps Node to bpe-file-node.ts, Deno to bpe-file-deno.ts and Workers to
// bpe-file-none.ts: each runtime's bundle holds only its own way of loading the file.

/**
 * The module's exports, instantiated from dist/ctxloom-bpe.wasm beside dist/tokens/ (the
 * literal URL lets bundlers that follow `new URL(..., import.meta.url)` ship the file).
 * @throws when the file cannot be fetched or compiled here
 */
export const loadBpeFile: (() => Promise<WebAssembly.Exports>) | undefined = async () => {
  const url = new URL("../ctxloom-bpe.wasm", import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  return instance.exports;
};
