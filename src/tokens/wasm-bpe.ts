import { CtxloomError, describe } from "../errors.js";
import type { Encoding } from "./types.js";
import { loadBpeFile } from "#ctxloom/bpe-file";
import type { TokenCounter } from "./types.js";
import { Bpe, type BpeExports } from "./wasm-bpe-text.js";

/**
 * ctxloom's exact BPE counter: o200k_base and cl100k_base in a WebAssembly module of its own
 * (assembly/bpe/), with the same counts as gpt-tokenizer and tiktoken. The text crosses once,
 * as UTF-8 written into the module's input buffer; the split pattern, rank lookups and merges
 * run in WebAssembly. Its tables (ranks and Unicode classes) are built into the .wasm file at
 * build time; both encodings take about 7.1 MiB of linear memory once loaded (1 MiB of it
 * caches the counts of merged words, which repeat across texts).
 *
 * It is the default exact counter wherever WebAssembly runs. Where the module cannot load
 * (no WebAssembly; a runtime that refuses to compile bytes and was not handed the module; the
 * file out of reach), the default falls back to gpt-tokenizer (`loadEncoding`), which counts
 * the same; except on Workers, where the module always loads (see fallback.ts).
 */

const ENCODING_IDS: Record<Encoding, number> = { o200k_base: 0, cl100k_base: 1 };

let provided: WebAssembly.Module | undefined;
let instance: Promise<Bpe> | undefined;
let current: Bpe | undefined;
const loaded = new Map<Encoding, TokenCounter>();
const loading = new Map<Encoding, Promise<TokenCounter>>();

/**
 * Hands over the counter's module precompiled, for runtimes that refuse to compile bytes
 * (Cloudflare Workers: the workerd entry imports ctxloom-bpe.wasm and calls this).
 */
export function provideBpeModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new CtxloomError("INVALID_ARGUMENT", `provideBpeModule takes a WebAssembly.Module (import "ctxloom-bpe.wasm"); got ${describe(module)}.`);
  }
  provided ??= module;
}

/**
 * The module's exports, from the module handed over (Workers), or else the file beside the JS
 * (dist/ctxloom-bpe.wasm), loaded the way of this runtime: the "#ctxloom/bpe-file" import
 * maps Deno (imported as a WebAssembly module, no read permission needed), Node (read from
 * disk) and the rest (fetched) each to a module of its own, and Workers to none.
 */
async function bpeExports(): Promise<BpeExports> {
  if (provided) return (await WebAssembly.instantiate(provided, {})).exports as unknown as BpeExports;
  if (!loadBpeFile) throw new Error("no module was handed over (provideBpeModule), and this runtime loads no file");
  return (await loadBpeFile()) as unknown as BpeExports;
}

function bpeInstance(): Promise<Bpe> {
  instance ??= bpeExports().then((exports) => (current = new Bpe(exports)));
  // A failed load is not cached: the next call may run where it can load.
  instance.catch(() => (instance = undefined));
  return instance;
}

/** Lone surrogates have no UTF-8: refused, as everywhere in ctxloom. */
function checkText(text: string): void {
  if (typeof text !== "string") throw new CtxloomError("INVALID_ARGUMENT", `count takes a string; got ${describe(text)}.`);
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed ? !wellFormed.call(text) : /\p{Cs}/u.test(text)) {
    throw new CtxloomError("INVALID_CONTENT", "The text holds a lone surrogate (half of a UTF-16 pair), which has no UTF-8 form; fix its encoding first.");
  }
}

/**
 * The WebAssembly counter of an encoding, loading the module on first use.
 * @throws WASM_UNAVAILABLE when the module cannot load here; INVALID_ARGUMENT for an unknown encoding
 */
export function wasmBpeCounter(encoding: Encoding): Promise<TokenCounter> {
  if (typeof encoding !== "string" || !Object.hasOwn(ENCODING_IDS, encoding)) {
    return Promise.reject(new CtxloomError("INVALID_ARGUMENT", `encoding must be "o200k_base" or "cl100k_base"; got ${describe(encoding)}.`));
  }
  const id = ENCODING_IDS[encoding];
  const ready = loaded.get(encoding);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(encoding);
  if (!pending) {
    pending = bpeInstance()
      .catch((cause: unknown) => {
        throw new CtxloomError("WASM_UNAVAILABLE", `The BPE counter's WebAssembly module could not load here (${String(cause)}).`, { cause });
      })
      .then((bpe) => {
        bpe.init(id);
        // A token holds at most `longest` bytes, and a text has at least one UTF-8 byte per
        // UTF-16 unit: a linear lower bound that refuses what cannot fit before counting it.
        const longest = Math.max(1, bpe.exports.longest(id));
        const counter: TokenCounter = {
          name: encoding,
          exact: true,
          count: (text: string) => {
            checkText(text);
            return bpe.count(id, text);
          },
          atLeast: (text: string) => Math.ceil(text.length / longest),
          countUpTo: (text: string, max: number) => {
            checkText(text);
            return bpe.countUpTo(id, text, max, longest);
          },
          measure: (text: string, upTo?: number) => {
            checkText(text);
            return bpe.measure(id, text, upTo, longest);
          },
          fit: (text: string, maxTokens: number) => {
            checkText(text);
            return bpe.measure(id, text, maxTokens, longest).head(maxTokens).end;
          },
        };
        loaded.set(encoding, counter);
        return counter;
      })
      .finally(() => loading.delete(encoding));
    loading.set(encoding, pending);
  }
  return pending;
}

/** The WebAssembly counter of an encoding if it is loaded, else undefined. */
export function loadedWasmCounter(encoding: Encoding): TokenCounter | undefined {
  return loaded.get(encoding);
}

/** Bytes of linear memory the tables take (data segment and rank tables built so far); 0 before loading. */
export function wasmBpeTableBytes(): number {
  return current ? current.exports.tableBytes() : 0;
}

/** Bytes of the module's linear memory (it only grows): what counting a long text took at most; 0 before loading. */
export function wasmBpeMemoryBytes(): number {
  return current ? current.exports.memory.buffer.byteLength : 0;
}

/** Merge steps (pair scans, list steps of the long merge) of the last count: the complexity tests read it. */
export function lastMergeSteps(): number {
  return current ? current.exports.mergeSteps() : 0;
}

/**
 * Empties the counters' cache of merged words (both encodings, O(1)), so that the next texts
 * count as at first sight: benchmarks compare with counters whose caches they empty too.
 */
export function forgetBpePieces(): void {
  current?.exports.forget();
}
