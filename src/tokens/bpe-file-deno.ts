// "#ctxloom/bpe-file" under the deno condition: Deno imports the BPE counter's module files as
// WebAssembly modules, which needs no read permission (see ../bpe-file.ts). The specifier is
// computed, which only Deno's loader takes: this file is never in another runtime's bundle.
// An import is one instance: a second vocabulary (ctxloom-bpe-vocab.wasm) needs the module
// handed over (Loom.open({ bpe })).
import type { BpeFileLoader } from "./bpe-files.js";

/** A module file's instance, imported from dist/ beside dist/tokens/. @throws when Deno cannot import it */
export const loadBpeFile: BpeFileLoader | undefined = async (file) => {
  const url = new URL(`../${file}`, import.meta.url);
  return (await import(/* @vite-ignore */ url.href)) as WebAssembly.Exports;
};
