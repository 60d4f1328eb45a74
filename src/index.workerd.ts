// The public API on Cloudflare Workers (the "workerd" export condition; wrangler resolves it).
// Workers refuse to compile WebAssembly bytes at run time, so this entry imports the core as
// a module (wrangler and miniflare hand it over precompiled) and makes it the default engine's
// core (`Loom.open({ wasm })`, when given, wins); likewise the exact token counter's module.
// Everything else is the main entry.
import bpeModule from "./ctxloom-bpe.wasm";
import coreModule from "./ctxloom.wasm";
import { provideCoreModule } from "./engine/index.js";
import { Loom as MainLoom } from "./index.js";
import { provideBpeModule } from "./tokens/wasm-bpe.js";

provideCoreModule(coreModule);
provideBpeModule(bpeModule);

export * from "./index.js";

/**
 * The main entry's Loom, bound in this module: a bundler that takes the module for free of side
 * effects (package.json lists dist/index.workerd.js, not the sources) drops it whole only when
 * none of its own bindings is used, and a Worker uses the Loom.
 */
export const Loom = MainLoom;
export type Loom = MainLoom;
