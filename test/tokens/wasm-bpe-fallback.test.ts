// How the default exact counter is chosen: the WebAssembly counter where its module loads; a
// module handed over precompiled where compiling bytes is refused (as on Workers); gpt-tokenizer
// where neither is there. Each case in a fresh module graph, with compiling refused the way a
// runtime that forbids it refuses (WebAssembly.compile rejects).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

const src = join(dirname(fileURLToPath(import.meta.url)), "../../src");
const wasmFile = join(src, "ctxloom-bpe.wasm");
const cl100kFile = join(src, "ctxloom-bpe-cl100k.wasm");
const code = async (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: { code?: string }) => e.code,
  );

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
    const compiled = await WebAssembly.compile(readFileSync(cl100kFile));
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error("compiling WebAssembly bytes is not allowed here"));
    const { tokens, bpe } = await freshModules();
    bpe.provideBpeModule(compiled);
    const counter = await tokens.counterFor("gpt-4");
    expect(counter).toBe(bpe.loadedWasmCounter("cl100k_base"));
    expect(counter.count("I'LL be there")).toBe(5);
  });

  it("one encoding a module: o200k_base's module handed over counts o200k_base only, cl100k_base needs its own", async () => {
    const o200k = await WebAssembly.compile(readFileSync(wasmFile));
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error("compiling WebAssembly bytes is not allowed here"));
    const { bpe } = await freshModules();
    bpe.provideBpeModule(o200k);
    expect((await bpe.wasmBpeCounter("o200k_base")).count("Hello, world!")).toBe(4);
    const refused = await bpe.wasmBpeCounter("cl100k_base").catch((e: Error & { code?: string }) => e);
    expect((refused as { code?: string }).code).toBe("WASM_UNAVAILABLE");
    expect(String((refused as Error).message)).toContain("ctxloom-bpe-cl100k.wasm");
    // Its tables are o200k_base's alone: about 1.7 MB, where both encodings took 2.4 MB.
    expect(readFileSync(wasmFile).length).toBeLessThan(1_800_000);
  });

  it("provideBpeModule refuses anything but one of ctxloom's counter modules (INVALID_ARGUMENT)", async () => {
    const { bpe } = await freshModules();
    const core = await WebAssembly.compile(readFileSync(join(src, "../build/ctxloom.wasm")));
    for (const bad of [readFileSync(wasmFile), "ctxloom-bpe.wasm", undefined, {}, core]) {
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
