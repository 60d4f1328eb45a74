// The fallback counter (issue 22, item 6): gpt-tokenizer is an optional peer, imported only where
// the WebAssembly counter cannot load, announced once with a warning; not installed, the
// fallback fails with WASM_UNAVAILABLE saying how to install it. Each case in a fresh module
// graph, with compiling refused the way a runtime that forbids it refuses.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock("gpt-tokenizer/encoding/o200k_base");
  vi.resetModules();
});

async function withoutWasm() {
  vi.resetModules();
  vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error("compiling WebAssembly bytes is not allowed here"));
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  return {
    warn,
    counting: await import("../../src/models/counting.js"),
    exact: await import("../../src/tokens/exact.js"),
  };
}

describe("gpt-tokenizer, the fallback counter", () => {
  it("is loaded only where the WebAssembly counter cannot, and announced once", async () => {
    const { warn, counting, exact } = await withoutWasm();
    const o200k = await counting.counterFor("gpt-4o");
    const cl100k = await counting.counterFor("gpt-4");
    expect(o200k).toBe(exact.loadedEncoding("o200k_base"));
    expect(cl100k).toBe(exact.loadedEncoding("cl100k_base"));
    expect(o200k.count("Hello, world!")).toBe(4);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain("gpt-tokenizer");
  });

  it("where WebAssembly loads, gpt-tokenizer is never imported and nothing is announced", async () => {
    vi.resetModules();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { counterFor } = await import("../../src/models/counting.js");
    const { loadedEncoding } = await import("../../src/tokens/exact.js");
    expect((await counterFor("gpt-4o")).count("Hello, world!")).toBe(4);
    expect(loadedEncoding("o200k_base")).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it("not installed: WASM_UNAVAILABLE saying how to install it, and a later call may still load", async () => {
    vi.doMock("gpt-tokenizer/encoding/o200k_base", () => {
      throw new Error("Cannot find package 'gpt-tokenizer' imported from ctxloom");
    });
    const { counting } = await withoutWasm();
    const error = await counting.counterFor("gpt-4o").then(
      () => undefined,
      (e: { code?: string; message: string }) => e,
    );
    expect(error?.code).toBe("WASM_UNAVAILABLE");
    expect(error?.message).toContain("npm install gpt-tokenizer");
    vi.doUnmock("gpt-tokenizer/encoding/o200k_base");
    expect((await counting.counterFor("gpt-4o")).count("Hello, world!")).toBe(4);
  });
});
