// The BPE counter's module files: one encoding each (scripts/build-bpe.mjs), so that a bundle
// or a Worker ships only the tables it counts with.

/** A module file of the counter: o200k_base's, cl100k_base's, or the one a vocabulary is written into at run time. */
export type BpeFile = "ctxloom-bpe.wasm" | "ctxloom-bpe-cl100k.wasm" | "ctxloom-bpe-vocab.wasm";

/**
 * What "#ctxloom/bpe-file" exports: a module file loaded the way of this runtime (a module, or one instance's exports).
 */
export type BpeFileLoader = (file: BpeFile) => Promise<WebAssembly.Module | WebAssembly.Exports>;

/** The package's name for each file (`import bpe from "ctxloom/bpe.wasm"`). */
export const PACKAGE_NAMES: Readonly<Record<BpeFile, string>> = {
  "ctxloom-bpe.wasm": "ctxloom/bpe.wasm",
  "ctxloom-bpe-cl100k.wasm": "ctxloom/bpe-cl100k.wasm",
  "ctxloom-bpe-vocab.wasm": "ctxloom/bpe-vocab.wasm",
};

/**
 * What a module carries, from its custom section (the build writes it): its file, or undefined if it is not ctxloom's
 * counter.
 */
export function bpeFileOf(module: WebAssembly.Module): BpeFile | undefined {
  const sections = WebAssembly.Module.customSections(module, "ctxloom-bpe");
  if (sections.length !== 1) return undefined;
  const carries = new TextDecoder().decode(sections[0]);
  if (carries === "o200k_base") return "ctxloom-bpe.wasm";
  if (carries === "cl100k_base") return "ctxloom-bpe-cl100k.wasm";
  if (carries === "") return "ctxloom-bpe-vocab.wasm";
  return undefined;
}
