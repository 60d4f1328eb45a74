import { CtxloomError, describe } from "../errors.js";
import type { Encoding } from "./types.js";
import { loadBpeFile } from "#ctxloom/bpe-file";
import { PACKAGE_NAMES, bpeFileOf, type BpeFile } from "./bpe-files.js";
import type { TokenCounter } from "./types.js";
import { Bpe, type BpeExports } from "./wasm-bpe-text.js";

/**
 * ctxloom's exact BPE counter: o200k_base and cl100k_base in WebAssembly modules of their own
 * (assembly/bpe/, one encoding a module), with the same counts as gpt-tokenizer and tiktoken.
 * The text crosses once, as UTF-8 written into the module's input buffer; the split pattern,
 * rank lookups and merges run in WebAssembly. Its tables (ranks and Unicode classes) are built
 * into the .wasm files at build time; o200k_base takes about 4.6 MiB of linear memory once
 * loaded (512 KiB of it caches the counts of merged words, which repeat across texts).
 *
 * It is the default exact counter wherever WebAssembly runs. Where the module cannot load
 * (no WebAssembly; a runtime that refuses to compile bytes and was not handed the module; the
 * file out of reach), the default falls back to gpt-tokenizer (`loadEncoding`), which counts
 * the same; except on Workers, where a module handed over always loads (see fallback.ts).
 */

const PLACES: Record<Encoding, { file: BpeFile; id: number }> = {
  o200k_base: { file: "ctxloom-bpe.wasm", id: 0 },
  cl100k_base: { file: "ctxloom-bpe-cl100k.wasm", id: 1 },
};

const provided = new Map<BpeFile, WebAssembly.Module>();
const instances = new Map<BpeFile, Promise<Bpe>>();
/** Every instance loaded, the vocabularies' too (stats and benchmarks read them). */
const running = new Set<Bpe>();
/** The instance that counted last (lastMergeSteps). */
let lastUsed: Bpe | undefined;
const loaded = new Map<Encoding, TokenCounter>();
const loading = new Map<Encoding, Promise<TokenCounter>>();

/**
 * Hands over a counter's module precompiled, for runtimes that refuse to compile bytes
 * (Cloudflare Workers: the workerd entry imports ctxloom-bpe.wasm and calls this). Each module
 * carries one encoding (or none: ctxloom-bpe-vocab.wasm, for vocabularies loaded at run time).
 * @throws INVALID_ARGUMENT when it is not one of ctxloom's counter modules
 */
export function provideBpeModule(module: WebAssembly.Module): void {
  const file = module instanceof WebAssembly.Module ? bpeFileOf(module) : undefined;
  if (!file) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `provideBpeModule takes one of ctxloom's counter modules (import "ctxloom/bpe.wasm", ` +
        `"ctxloom/bpe-cl100k.wasm" or "ctxloom/bpe-vocab.wasm"); got ${describe(module)}.`,
    );
  }
  if (!provided.has(file)) provided.set(file, module);
}

/** A module handed over for this file, if any. */
export function providedBpeModule(file: BpeFile): WebAssembly.Module | undefined {
  return provided.get(file);
}

/**
 * @internal A new instance of a module file: the module handed over (Workers), or else the file beside
 * the JS (dist/), loaded the way of this runtime: the "#ctxloom/bpe-file" import maps Deno
 * (imported as a WebAssembly module, no read permission needed), Node (read from disk) and the
 * rest (fetched) each to a module of its own, and Workers to none.
 */
export async function bpeInstance(file: BpeFile): Promise<Bpe> {
  const handed = provided.get(file);
  let exports: WebAssembly.Exports;
  if (handed) exports = (await WebAssembly.instantiate(handed, {})).exports;
  else {
    if (!loadBpeFile) {
      throw new Error(
        `no module was handed over for ${file} ("${PACKAGE_NAMES[file]}": Loom.open({ bpe })), and this runtime ` +
          `loads no file`,
      );
    }
    const found = await loadBpeFile(file).catch((cause: unknown) => {
      throw new Error(`${file} (${PACKAGE_NAMES[file]}) did not load: ${String(cause)}`, { cause });
    });
    exports = found instanceof WebAssembly.Module ? (await WebAssembly.instantiate(found, {})).exports : found;
  }
  const bpe = new Bpe(exports as unknown as BpeExports);
  running.add(bpe);
  return bpe;
}

function sharedInstance(file: BpeFile): Promise<Bpe> {
  let instance = instances.get(file);
  if (!instance) {
    instance = bpeInstance(file);
    instances.set(file, instance);
    // A failed load is not cached: the next call may run where it can load.
    instance.catch(() => instances.delete(file));
  }
  return instance;
}

/** Lone surrogates have no UTF-8: refused, as everywhere in ctxloom. */
function checkText(text: string): void {
  if (typeof text !== "string")
    throw new CtxloomError("INVALID_ARGUMENT", `count takes a string; got ${describe(text)}.`);
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed ? !wellFormed.call(text) : /\p{Cs}/u.test(text)) {
    throw new CtxloomError(
      "INVALID_CONTENT",
      "The text holds a lone surrogate (half of a UTF-16 pair), which has no UTF-8 form; fix its encoding first.",
    );
  }
}

/**
 * The WebAssembly counter of an encoding, loading the module on first use.
 * @throws WASM_UNAVAILABLE when the module cannot load here; INVALID_ARGUMENT for an unknown encoding
 */
export function wasmBpeCounter(encoding: Encoding): Promise<TokenCounter> {
  if (typeof encoding !== "string" || !Object.hasOwn(PLACES, encoding)) {
    return Promise.reject(
      new CtxloomError(
        "INVALID_ARGUMENT",
        `encoding must be "o200k_base" or "cl100k_base"; got ${describe(encoding)}.`,
      ),
    );
  }
  const { file, id } = PLACES[encoding];
  const ready = loaded.get(encoding);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(encoding);
  if (!pending) {
    pending = sharedInstance(file)
      .catch((cause: unknown) => {
        throw new CtxloomError(
          "WASM_UNAVAILABLE",
          `The BPE counter's WebAssembly module could not load here (${String(cause)}).`,
          { cause },
        );
      })
      .then((bpe) => {
        bpe.init(id);
        const counter = bpeCounter(encoding, bpe, id);
        loaded.set(encoding, counter);
        return counter;
      })
      .finally(() => loading.delete(encoding));
    loading.set(encoding, pending);
  }
  return pending;
}

/**
 * @internal The counter of encoding `id` in an instance whose ranks are laid out: a text that normalizes
 * (Qwen's NFC) is rewritten by `prepare` first.
 */
export function bpeCounter(name: string, bpe: Bpe, id: number, prepare?: (text: string) => string): TokenCounter {
  // A token holds at most `longest` bytes, and a text has at least one UTF-8 byte per
  // UTF-16 unit: a linear lower bound that refuses what cannot fit before counting it.
  const longest = Math.max(1, bpe.exports.longest(id));
  const ready = (text: string): string => {
    checkText(text);
    lastUsed = bpe;
    return prepare ? prepare(text) : text;
  };
  const counter: TokenCounter = {
    name,
    exact: true,
    count: (text: string) => bpe.count(id, ready(text)),
    atLeast: (text: string) => Math.ceil(text.length / longest),
    countUpTo: (text: string, max: number) => bpe.countUpTo(id, ready(text), max, longest),
  };
  // A text rewritten before counting has other offsets than the caller's: no measures, no cuts.
  if (!prepare) {
    counter.measure = (text: string, upTo?: number) => bpe.measure(id, ready(text), upTo, longest);
    counter.fit = (text: string, maxTokens: number) =>
      bpe.measure(id, ready(text), maxTokens, longest).head(maxTokens).end;
  }
  return counter;
}

/** The WebAssembly counter of an encoding if it is loaded, else undefined. */
export function loadedWasmCounter(encoding: Encoding): TokenCounter | undefined {
  return loaded.get(encoding);
}

/**
 * Bytes of linear memory the tables take (data segments and rank tables built so far, every instance); 0 before
 * loading.
 */
export function wasmBpeTableBytes(): number {
  let bytes = 0;
  for (const bpe of running) bytes += bpe.exports.tableBytes();
  return bytes;
}

/** Bytes of the instances' linear memory (it only grows): what counting a long text took at most; 0 before loading. */
export function wasmBpeMemoryBytes(): number {
  let bytes = 0;
  for (const bpe of running) bytes += bpe.exports.memory.buffer.byteLength;
  return bytes;
}

/** Merge steps (pair scans, list steps of the long merge) of the last count: the complexity tests read it. */
export function lastMergeSteps(): number {
  return lastUsed ? lastUsed.exports.mergeSteps() : 0;
}

/**
 * Empties the counters' cache of merged words (both encodings, O(1)), so that the next texts
 * count as at first sight: benchmarks compare with counters whose caches they empty too.
 */
export function forgetBpePieces(): void {
  for (const bpe of running) bpe.exports.forget();
}
