import { CtxloomError } from "../errors.js";
import {
  LEXICAL_MAX_DOCS,
  LEXICAL_MAX_TF,
  alreadyIndexed,
  checkLexicalAdd,
  checkLexicalQuery,
  checkLexicalRemove,
  type LexicalHits,
  type LexicalIndex,
  type LexicalPlace,
  type LexicalScoring,
} from "./lexical.js";

/** The lexical exports of assembly/index.ts (raw bindings: numbers only). */
interface LexicalExports {
  memory: WebAssembly.Memory;
  LEXICAL_OUT_OF_MEMORY: WebAssembly.Global;
  LEXICAL_BAD_DOC: WebAssembly.Global;
  LEXICAL_PRESENT: WebAssembly.Global;
  LEXICAL_MAX_DOCS: WebAssembly.Global;
  LEXICAL_MAX_TF: WebAssembly.Global;
  lexicalCreate(): number;
  lexicalDrop(index: number): void;
  lexicalAdd(index: number, doc: number, n: number, src: number, prev: number, segment: number): number;
  lexicalRemove(index: number, n: number, src: number): number;
  lexicalQuery(
    index: number,
    n: number,
    src: number,
    k: number,
    k1: number,
    b: number,
    window: number,
    segment: number,
  ): number;
  lexicalInput(bytes: number): number;
  lexicalResults(): number;
  lexicalDocs(index: number): number;
  lexicalHas(index: number, doc: number): number;
  lexicalTerms(index: number): number;
  lexicalBytes(index: number): number;
}

function outOfMemory(what: string): CtxloomError {
  return new CtxloomError(
    "OUT_OF_MEMORY",
    `The WASM engine could not grow its memory to ${what}. Raise Loom.open({ maxMemoryMB }), ` +
      `drop lexical indexes you no longer need, or run with { engine: "js" }.`,
  );
}

/**
 * The lexical index on the WASM core, in the same linear memory as the engine's trees.
 * `moved` is called after any call that grew memory (the engine rebuilds its views).
 */
export class WasmLexical implements LexicalIndex {
  readonly kind = "wasm" as const;
  readonly #x: LexicalExports;
  readonly #moved: () => void;
  #buffer: ArrayBuffer;
  #u32: Uint32Array;
  #i32: Int32Array;
  #f64: Float64Array;

  constructor(exports: WebAssembly.Exports, moved: () => void) {
    this.#x = exports as unknown as LexicalExports;
    this.#moved = moved;
    const { LEXICAL_MAX_DOCS: docs, LEXICAL_MAX_TF: tf } = this.#x;
    if (
      !(docs instanceof WebAssembly.Global) ||
      docs.value !== LEXICAL_MAX_DOCS ||
      !(tf instanceof WebAssembly.Global) ||
      tf.value !== LEXICAL_MAX_TF
    ) {
      throw new CtxloomError(
        "WASM_UNAVAILABLE",
        "This WebAssembly core has no lexical index of this package's version: pass the core this package ships " +
          '(ctxloom/wasm), or use { engine: "js" }.',
      );
    }
    this.#buffer = this.#x.memory.buffer;
    this.#u32 = new Uint32Array(this.#buffer);
    this.#i32 = new Int32Array(this.#buffer);
    this.#f64 = new Float64Array(this.#buffer);
  }

  /** Rebuilds the views (and the engine's) when memory grew since they were made. */
  #sync(): void {
    if (this.#buffer !== this.#x.memory.buffer) {
      this.#buffer = this.#x.memory.buffer;
      this.#u32 = new Uint32Array(this.#buffer);
      this.#i32 = new Int32Array(this.#buffer);
      this.#f64 = new Float64Array(this.#buffer);
      this.#moved();
    }
  }

  /** Copies terms and counts into the core's input buffer; its address. */
  #input(terms: Uint32Array, counts: Uint32Array, what: string): number {
    const at = this.#x.lexicalInput(Math.max(8, terms.length * 8));
    this.#sync();
    if (at === 0) throw outOfMemory(what);
    this.#u32.set(terms, at >>> 2);
    this.#u32.set(counts, (at >>> 2) + terms.length);
    return at;
  }

  create(): number {
    const index = this.#x.lexicalCreate();
    this.#sync();
    if (index < 0) throw outOfMemory("hold a new lexical index");
    return index;
  }

  drop(index: number): void {
    this.#x.lexicalDrop(index);
  }

  add(index: number, doc: number, terms: Uint32Array, counts: Uint32Array, place?: LexicalPlace): void {
    const { prev, segment } = checkLexicalAdd(doc, terms, counts, place);
    const at = this.#input(terms, counts, `take a message of ${terms.length} terms`);
    const status = this.#x.lexicalAdd(index, doc, terms.length, at, prev, segment);
    this.#sync();
    if (status === this.#x.LEXICAL_PRESENT.value) throw alreadyIndexed(doc);
    if (status === this.#x.LEXICAL_OUT_OF_MEMORY.value)
      throw outOfMemory(`index document ${doc} (${terms.length} terms)`);
    if (status !== 0)
      throw new CtxloomError("INVALID_ARGUMENT", `The core refused lexical document ${doc} (status ${status}).`);
  }

  remove(index: number, docs: ArrayLike<number>): number {
    checkLexicalRemove(docs);
    if (docs.length === 0) return 0;
    const at = this.#x.lexicalInput(docs.length * 4);
    this.#sync();
    if (at === 0) throw outOfMemory(`list ${docs.length} documents to remove`);
    this.#i32.set(docs, at >>> 2);
    return this.#x.lexicalRemove(index, docs.length, at);
  }

  query(index: number, terms: Uint32Array, counts: Uint32Array, k: number, scoring?: LexicalScoring): LexicalHits {
    const { k1, b, window, segment } = checkLexicalQuery(terms, counts, k, scoring);
    const at = this.#input(terms, counts, `take a query of ${terms.length} terms`);
    const count = this.#x.lexicalQuery(index, terms.length, at, k, k1, b, window, segment);
    this.#sync();
    if (count < 0) throw outOfMemory(`score a query over ${this.docs(index)} documents`);
    const base = this.#x.lexicalResults();
    return {
      count,
      scores: this.#f64.subarray(base >>> 3, (base >>> 3) + count),
      docs: this.#i32.subarray((base >>> 2) + 2 * k, (base >>> 2) + 2 * k + count),
    };
  }

  has(index: number, doc: number): boolean {
    return this.#x.lexicalHas(index, doc) !== 0;
  }

  docs(index: number): number {
    return this.#x.lexicalDocs(index);
  }

  terms(index: number): number {
    return this.#x.lexicalTerms(index);
  }

  bytes(index: number): number {
    return this.#x.lexicalBytes(index);
  }
}
