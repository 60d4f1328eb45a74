// `import core from "./ctxloom.wasm"`: Workers and bundlers (wrangler's CompiledWasm rule) hand
// over the core as a precompiled WebAssembly.Module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
