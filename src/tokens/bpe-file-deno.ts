// "#ctxloom/bpe-file" under the deno condition: Deno imports the BPE counter's module file as
// a WebAssembly module, which needs no read permission (see ../bpe-file.ts). The specifier is
// computed, which only Deno's loader takes: this file is never in another runtime's bundle.

/** The module's exports, imported from dist/ctxloom-bpe.wasm beside dist/tokens/. @throws when Deno cannot import it */
export const loadBpeFile: (() => Promise<WebAssembly.Exports>) | undefined = async () => {
  const url = new URL("../ctxloom-bpe.wasm", import.meta.url);
  return (await import(/* @vite-ignore */ url.href)) as WebAssembly.Exports;
};
