import { CtxloomError } from "../errors.js";
import type { SearchHits, SimilarityIndex } from "./similarity-types.js";
import type { WasmEngine } from "./wasm.js";

/** The similarity exports of assembly/index.ts (raw bindings: numbers only). */
interface SimilarityExports {
  memory: WebAssembly.Memory;
  createIndex(dim: number, quantized: number): number;
  dropIndex(index: number): void;
  clearIndex(index: number): void;
  indexRows(index: number): number;
  indexBlock(index: number): number;
  reserveRows(index: number, rows: number): number;
  addRows(index: number, n: number, src: number): number;
  removeRow(index: number, row: number): number;
  readRow(index: number, row: number, out: number): void;
  reserveInput(bytes: number): number;
  topK(index: number, query: number, k: number, candidates: number, minScore: number): number;
  scoreRows(index: number, query: number, list: number, n: number): number;
  resultsAddress(): number;
  readPass(index: number): number;
}

function outOfMemory(what: string): CtxloomError {
  return new CtxloomError(
    "OUT_OF_MEMORY",
    `The WASM engine could not grow its memory to ${what}. Raise Loom.open({ maxMemoryMB }), ` +
      `drop embedding indexes you no longer need, or run with { engine: "js" }.`,
  );
}

/** Rows copied into WASM memory per call of addRows: bounds the input buffer (about 1 MiB). */
const CHUNK_BYTES = 1 << 20;

/** The similarity index on the WASM core, in the same linear memory as the engine's trees. */
export class WasmSimilarity implements SimilarityIndex {
  readonly kind = "wasm" as const;
  readonly #engine: WasmEngine;
  readonly #x: SimilarityExports;
  #dims: number[] = [];
  // Views over linear memory; a grow (ours or the engine's) detaches the old buffer, so
  // they are rebuilt whenever the memory's buffer is no longer the one they view.
  #buffer: ArrayBuffer;
  #f32: Float32Array;
  #i32: Int32Array;

  constructor(engine: WasmEngine) {
    this.#engine = engine;
    this.#x = engine.rawExports() as unknown as SimilarityExports;
    this.#buffer = this.#x.memory.buffer;
    this.#f32 = new Float32Array(this.#buffer);
    this.#i32 = new Int32Array(this.#buffer);
  }

  /** Rebuilds the views (and the engine's) when memory grew since they were made. */
  #sync(): void {
    if (this.#buffer !== this.#x.memory.buffer) {
      this.#buffer = this.#x.memory.buffer;
      this.#f32 = new Float32Array(this.#buffer);
      this.#i32 = new Int32Array(this.#buffer);
      this.#engine.memoryMoved();
    }
  }

  createIndex(dimension: number, quantized: boolean): number {
    const index = this.#x.createIndex(dimension, quantized ? 1 : 0);
    if (index < 0) throw outOfMemory("hold a new embedding index");
    this.#sync();
    this.#dims[index] = dimension;
    return index;
  }

  dropIndex(index: number): void {
    this.#x.dropIndex(index);
  }

  clearIndex(index: number): void {
    this.#x.clearIndex(index);
  }

  reserveRows(index: number, rows: number): void {
    const ok = this.#x.reserveRows(index, rows);
    this.#sync();
    if (!ok) throw outOfMemory(`hold ${rows} embeddings in one index`);
  }

  addRows(index: number, vectors: Float32Array, keys: Int32Array): void {
    const dim = this.#dims[index]!;
    const n = keys.length;
    // Room for every row first: a chunk below cannot then fail half way.
    this.reserveRows(index, this.rowCount(index) + n);
    const chunk = Math.max(1, Math.floor(CHUNK_BYTES / ((dim + 1) * 4)));
    for (let i = 0; i < n; i += chunk) {
      const m = Math.min(chunk, n - i);
      const src = this.#x.reserveInput(m * (dim + 1) * 4);
      this.#sync();
      // only the first chunk can get here: later ones reuse the buffer
      if (src === 0) throw outOfMemory(`take ${m} embeddings`);
      this.#f32.set(vectors.subarray(i * dim, (i + m) * dim), src >>> 2);
      this.#i32.set(keys.subarray(i, i + m), (src >>> 2) + m * dim);
      this.#x.addRows(index, m, src); // cannot fail: the rows are reserved
    }
  }

  removeRow(index: number, row: number): number {
    return this.#x.removeRow(index, row);
  }

  rowCount(index: number): number {
    return this.#x.indexRows(index);
  }

  rowKey(index: number, row: number): number {
    this.#sync();
    return this.#i32[(this.#x.indexBlock(index) >>> 2) + row]!;
  }

  readRow(index: number, row: number, out: Float32Array): void {
    const dim = this.#dims[index]!;
    const at = this.#x.reserveInput(dim * 4);
    this.#sync();
    if (at === 0) throw outOfMemory("read an embedding");
    this.#x.readRow(index, row, at);
    out.set(this.#f32.subarray(at >>> 2, (at >>> 2) + dim));
  }

  search(index: number, query: Float32Array, k: number, candidates: number, minScore: number): SearchHits {
    const dim = this.#dims[index]!;
    const at = this.#x.reserveInput(dim * 4);
    this.#sync();
    if (at === 0) throw outOfMemory("take a query");
    this.#f32.set(query.subarray(0, dim), at >>> 2);
    const count = this.#x.topK(index, at, k, candidates, minScore);
    this.#sync();
    if (count < 0) throw outOfMemory(`search for the best ${k} of ${this.rowCount(index)} embeddings`);
    const base = this.#x.resultsAddress() >>> 2;
    return {
      count,
      scores: this.#f32.subarray(base, base + count),
      keys: this.#i32.subarray(base + k, base + k + count),
    };
  }

  scoreRows(index: number, query: Float32Array, rows: Int32Array): Float32Array {
    const dim = this.#dims[index]!;
    const n = rows.length;
    if (typeof this.#x.scoreRows !== "function") {
      throw new CtxloomError(
        "WASM_UNAVAILABLE",
        "This WebAssembly core cannot score listed embeddings (recall's ranking): pass the core this package ships " +
          '(ctxloom/wasm), or use { engine: "js" }.',
      );
    }
    const at = this.#x.reserveInput((dim + n) * 4);
    this.#sync();
    if (at === 0) throw outOfMemory(`take a query and ${n} rows to score`);
    this.#f32.set(query.subarray(0, dim), at >>> 2);
    this.#i32.set(rows, (at >>> 2) + dim);
    const count = this.#x.scoreRows(index, at, at + dim * 4, n);
    this.#sync();
    if (count < 0) throw outOfMemory(`score ${n} embeddings`);
    const base = this.#x.resultsAddress() >>> 2;
    return this.#f32.subarray(base, base + n);
  }

  /** Reads the index's whole f32 matrix and does nothing else: the benchmark's floor for a scan. */
  readPass(index: number): number {
    return this.#x.readPass(index);
  }
}
