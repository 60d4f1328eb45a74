// ctxloom/tokens on Cloudflare Workers (the "workerd" export condition): Workers refuse to
// compile WebAssembly bytes at run time, so the exact counter's module is imported as a module
// and handed over, as the main entry's Workers build does. Everything else is ctxloom/tokens.
import bpeModule from "./ctxloom-bpe.wasm";
import { provideBpeModule } from "./tokens/wasm-bpe.js";

provideBpeModule(bpeModule);

export * from "./tokens-entry.js";
