// How the default exact counter is chosen: the WebAssembly counter where its module loads; a
// module handed over precompiled where compiling bytes is refused (as on Workers); gpt-tokenizer
// where neither is there. Each case in a fresh module graph, with compiling refused the way a
// runtime that forbids it refuses (WebAssembly.compile rejects).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

const wasmFile = join(dirname(fileURLToPath(import.meta.url)), "../../src/ctxloom-bpe.wasm");
const code = async (promise: Promise<unknown>) => promise.then(() => "resolved", (e: { code?: string }) => e.code);

async function freshModules() {
  vi.resetModules();
  return {
    tokens: await import("../../src/models/counting.js"),
    bpe: await import("../../src/tokens/wasm-bpe.js"),
    exact: await import("../../src/tokens/exact.js"),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe("choosing the exact counter", () => {
  it("where the module cannot compile, counterFor falls back to gpt-tokenizer, and a later load succeeds", async () => {
    const compiled = await WebAssembly.compile(readFileSync(wasmFile)); // before compiling is refused
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error("compiling WebAssembly bytes is not allowed here"));
    const { tokens, bpe, exact } = await freshModules();
    expect(await code(bpe.wasmBpeCounter("o200k_base"))).toBe("WASM_UNAVAILABLE");
    const counter = await tokens.counterFor("gpt-4o");
    expect(bpe.loadedWasmCounter("o200k_base")).toBeUndefined();
    expect(counter).toBe(exact.loadedEncoding("o200k_base"));
    expect(counter.count("Hello, world!")).toBe(4);
    // a failed load is not cached: handed the module, the WebAssembly counter loads
    bpe.provideBpeModule(compiled);
    const wasm = await bpe.wasmBpeCounter("o200k_base");
    expect(wasm.count("Hello, world!")).toBe(4);
    expect(tokens.countTokens([{ role: "user", content: "Hello, world!" }], { model: "gpt-4o" })).toBe(3 + 1 + 4 + 3);
  });

  it("a module handed over (the workerd entry's way) loads where compiling bytes is refused", async () => {
    const compiled = await WebAssembly.compile(readFileSync(wasmFile));
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error("compiling WebAssembly bytes is not allowed here"));
    const { tokens, bpe } = await freshModules();
    bpe.provideBpeModule(compiled);
    const counter = await tokens.counterFor("gpt-4");
    expect(counter).toBe(bpe.loadedWasmCounter("cl100k_base"));
    expect(counter.count("I'LL be there")).toBe(5);
  });

  it("provideBpeModule refuses anything but a WebAssembly.Module (INVALID_ARGUMENT)", async () => {
    const { bpe } = await freshModules();
    for (const bad of [readFileSync(wasmFile), "ctxloom-bpe.wasm", undefined, {}]) {
      let error: { code?: string } | undefined;
      try {
        bpe.provideBpeModule(bad as never);
      } catch (e) {
        error = e as { code?: string };
      }
      expect(error?.code).toBe("INVALID_ARGUMENT");
    }
  });
});
