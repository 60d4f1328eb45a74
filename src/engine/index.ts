import { CtxloomError } from "../errors.js";
import { coreWasmBase64 } from "./core-wasm.js";
import { JsEngine } from "./js.js";
import type { Engine, EngineKind } from "./types.js";
import { WasmEngine, type WasmSource } from "./wasm.js";

export type { Engine, EngineKind } from "./types.js";
export type { WasmSource } from "./wasm.js";
export { JsEngine } from "./js.js";
export { WasmEngine } from "./wasm.js";

let embedded: Promise<WebAssembly.Module> | undefined;

/** The core compiled from the bytes embedded in this package, once per process. */
export function embeddedModule(): Promise<WebAssembly.Module> {
  embedded ??= WebAssembly.compile(decodeBase64(coreWasmBase64));
  // A failed compile is not cached: the next call may run where compiling is allowed.
  embedded.catch(() => (embedded = undefined));
  return embedded;
}

/**
 * Makes `module` the core the default engine runs on, in place of the embedded bytes: the
 * Workers entry hands over the core imported as a module (Workers refuse to compile bytes).
 */
export function provideCoreModule(module: WebAssembly.Module): void {
  embedded = Promise.resolve(module);
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** How a Loom's core runs: which engine, the WASM module to use, and its memory cap (part of LoomOptions). */
export interface EngineOptions {
  /** "wasm" or "js"; unset: WASM, falling back to JS where the embedded core cannot load. */
  engine?: EngineKind;
  /**
   * The core as a compiled module or bytes, for runtimes that cannot compile the embedded bytes.
   * One that cannot load is refused (WASM_UNAVAILABLE), never replaced by the JS engine.
   */
  wasm?: WasmSource;
  /** Cap on the WASM engine's memory, in MiB. */
  maxMemoryMB?: number;
}

/**
 * Creates the engine a Loom runs on. Throws WASM_UNAVAILABLE when WASM was asked for (by
 * `engine: "wasm"`, or by passing a core in `wasm`: the user wants that module) and cannot load.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  if (options.engine === "js") return new JsEngine();
  try {
    const source = options.wasm ?? (await embeddedModule());
    return await WasmEngine.create(source, { maxMemoryMB: options.maxMemoryMB });
  } catch (cause) {
    if (options.wasm !== undefined) {
      throw new CtxloomError(
        "WASM_UNAVAILABLE",
        `The core passed as Loom.open({ wasm }) could not be loaded (${String(cause)}). Pass ctxloom's own core: ` +
          `the module of "ctxloom/wasm" (or its bytes), compiled by this runtime; or leave wasm out.`,
        { cause },
      );
    }
    if (options.engine === undefined) return new JsEngine();
    if (cause instanceof CtxloomError) throw cause;
    throw new CtxloomError(
      "WASM_UNAVAILABLE",
      `The WebAssembly core could not be compiled here (${String(cause)}). On Cloudflare Workers import ` +
        `"ctxloom" through the workerd condition (wrangler does) or pass Loom.open({ wasm: core, bpe }) ` +
        `(the modules of "ctxloom/wasm" and "ctxloom/bpe.wasm"); ` +
        `elsewhere use Loom.open({ engine: "js" }).`,
      { cause },
    );
  }
}
