import type { Engine } from "./types.js";
import type { SimilarityIndex } from "./similarity-types.js";
import { JsSimilarity } from "./similarity-js.js";
import { WasmSimilarity } from "./similarity-wasm.js";
import { WasmEngine } from "./wasm.js";

export type { SimilarityIndex, SearchHits } from "./similarity-types.js";

const bound = new WeakMap<Engine, SimilarityIndex>();

/** The similarity index that lives beside an engine (the WASM one shares its memory). One per engine. */
export function similarityFor(engine: Engine): SimilarityIndex {
  let index = bound.get(engine);
  if (!index) {
    index = engine instanceof WasmEngine ? new WasmSimilarity(engine) : new JsSimilarity();
    bound.set(engine, index);
  }
  return index;
}

export { JsSimilarity, WasmSimilarity };
