// The public API on Cloudflare Workers (the "workerd" export condition; wrangler resolves it).
// Workers refuse to compile WebAssembly bytes at run time, so this entry imports the core as
// a module (wrangler and miniflare hand it over precompiled) and makes it Loom.open's default;
// likewise the exact token counter's module. Everything else is the same as the main entry.
import bpeModule from "./ctxloom-bpe.wasm";
import coreModule from "./ctxloom.wasm";
import { Loom as BaseLoom, type LoomOptions } from "./index.js";
import { provideBpeModule } from "./tokens/wasm-bpe.js";

provideBpeModule(bpeModule);

export * from "./index.js";

/** `Loom` with the precompiled core as the default `wasm` source. */
export class Loom extends BaseLoom {
  /**
   * Opens a Loom on the core imported as a module; `options.wasm`, when given, wins.
   * @throws as `Loom.open` in the main entry
   */
  static override open<T extends BaseLoom>(this: new (...args: ConstructorParameters<typeof BaseLoom>) => T, options?: LoomOptions): Promise<T> {
    // Anything but an options object goes through unchanged, so it fails exactly as it does elsewhere.
    const withCore =
      typeof options === "object" && options !== null && !Array.isArray(options) && options.wasm === undefined
        ? { ...options, wasm: coreModule }
        : (options ?? { wasm: coreModule });
    return BaseLoom.open.call(this, withCore) as Promise<T>;
  }
}
