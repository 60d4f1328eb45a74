// The exact counter's module handed over like the core's (Loom.open({ bpe })), and the counter
// in use named by loom.stats(): the WebAssembly one, gpt-tokenizer where its module could not
// load (and why, warned once), or the heuristic. Each case in a fresh module graph; where a
// runtime refuses to compile bytes, WebAssembly.compile rejects, as it does there.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

const src = join(dirname(fileURLToPath(import.meta.url)), "../../src");
const bpeBytes = readFileSync(join(src, "ctxloom-bpe.wasm"));
const REFUSED = "compiling WebAssembly bytes is not allowed here";
/** "Hello, world!" as a gpt-4o message: 4 tokens of o200k_base and the message's overhead. */
const EXACT = 8;
const code = async (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: { code?: string }) => e.code,
  );

async function freshLoom() {
  vi.resetModules();
  return (await import("../../src/chat/loom.js")).Loom;
}

/** Opens a chat on gpt-4o (o200k_base) and appends a message: the first exact count loads the counter. */
async function countOnce(loom: {
  user(id: string): { create(o: object): Promise<{ append(m: object): Promise<{ tokens: number }> }> };
}) {
  const chat = await loom.user("u").create({ model: "gpt-4o" });
  return (await chat.append({ role: "user", content: "Hello, world!" })).tokens;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe("loom.stats().counter", () => {
  it("names the WebAssembly counter once it counts, null before; the heuristic when counting is heuristic", async () => {
    const Loom = await freshLoom();
    const loom = await Loom.open();
    expect(loom.stats()).toMatchObject({ counter: null, counterFallback: null });
    const tokens = await countOnce(loom);
    expect(loom.stats()).toMatchObject({ counter: "wasm", counterFallback: null });
    const estimate = await Loom.open({ counter: "heuristic" });
    expect(estimate.stats()).toMatchObject({ counter: "heuristic", counterFallback: null });
    expect(tokens).toBeGreaterThan(0);
  });

  it("names gpt-tokenizer and why where the module cannot load, warns once, and does not look for the module per chat", async () => {
    const compile = vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error(REFUSED));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const Loom = await freshLoom();
    const loom = await Loom.open({ engine: "js" });
    await countOnce(loom);
    expect(loom.stats().counter).toBe("gpt-tokenizer");
    expect(loom.stats().counterFallback).toContain(REFUSED);
    const tries = compile.mock.calls.length;
    await countOnce(loom);
    await countOnce(loom);
    expect(compile.mock.calls.length).toBe(tries); // a browser would fetch the missing file again for each chat
    expect(warn.mock.calls.filter(([m]) => String(m).includes("with gpt-tokenizer"))).toHaveLength(1);
    expect(String(warn.mock.calls[0]![0])).toContain("Loom.open({ bpe })");
  });
});

describe("Loom.open({ bpe })", () => {
  it("a module handed over counts where compiling bytes is refused, without a fallback", async () => {
    const module = await WebAssembly.compile(bpeBytes); // before compiling is refused
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error(REFUSED));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const Loom = await freshLoom();
    const loom = await Loom.open({ engine: "js", bpe: module });
    expect(await countOnce(loom)).toBe(EXACT);
    expect(loom.stats()).toMatchObject({ counter: "wasm", counterFallback: null });
    expect(warn).not.toHaveBeenCalled();
  });

  it("after a fallback, a Loom handed the module counts with it again", async () => {
    const module = await WebAssembly.compile(bpeBytes);
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(new Error(REFUSED));
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const Loom = await freshLoom();
    await countOnce(await Loom.open({ engine: "js" }));
    const loom = await Loom.open({ engine: "js", bpe: module });
    expect(loom.stats().counter).toBe("gpt-tokenizer"); // nothing counted since
    await countOnce(loom);
    expect(loom.stats()).toMatchObject({ counter: "wasm", counterFallback: null });
  });

  it("takes the module's bytes and its URL", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/ctxloom-bpe.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(bpeBytes);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const Loom = await freshLoom();
      const byUrl = await Loom.open({ bpe: new URL(`http://127.0.0.1:${port}/ctxloom-bpe.wasm`) });
      expect(await countOnce(byUrl)).toBe(EXACT);
      expect(byUrl.stats().counter).toBe("wasm");
      expect(await code(Loom.open({ bpe: new URL(`http://127.0.0.1:${port}/missing.wasm`) }))).toBe("WASM_UNAVAILABLE");
      const byBytes = await Loom.open({ bpe: new Uint8Array(bpeBytes) });
      expect(await countOnce(byBytes)).toBe(EXACT);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses what is not a module, bytes or a URL (INVALID_ARGUMENT), and a module that is not the counter (WASM_UNAVAILABLE)", async () => {
    const Loom = await freshLoom();
    for (const bad of ["ctxloom-bpe.wasm", 42, {}, null, [1, 2]])
      expect(await code(Loom.open({ bpe: bad as never }))).toBe("INVALID_ARGUMENT");
    expect(await code(Loom.open({ bpe: new Uint8Array([0, 97, 115, 109]) }))).toBe("WASM_UNAVAILABLE"); // not WebAssembly
    const core = readFileSync(join(dirname(src), "dist/ctxloom.wasm")); // ctxloom's core: a module, not the counter
    expect(await code(Loom.open({ bpe: core }))).toBe("WASM_UNAVAILABLE");
    const loom = await Loom.open();
    expect(loom.stats().counter).toBe(null); // a refused call handed nothing over
  });
});
