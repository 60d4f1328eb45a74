// Engines that count the nodes walks and selections visit, for the O(W) node-count tests:
// the counting core (build/ctxloom.counting.wasm, compiled with COUNT_VISITS by
// scripts/build-wasm.mjs) and a JsEngine asked to count. The release engines do not count.
import { readFileSync } from "node:fs";
import { JsEngine, WasmEngine, type Engine, type EngineKind } from "../../src/engine/index.js";

let counting: WebAssembly.Module | undefined;

/** An engine of this kind whose `visited` counts. */
export async function countingEngine(kind: EngineKind, options: { maxMemoryMB?: number } = {}): Promise<Engine> {
  if (kind === "js") return new JsEngine({ countVisits: true });
  counting ??= new WebAssembly.Module(readFileSync(new URL("../../build/ctxloom.counting.wasm", import.meta.url)));
  return WasmEngine.create(counting, options);
}
