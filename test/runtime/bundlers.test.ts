// The edge as users build it: one fixture app (fixtures/bundlers/) built from the installed
// package by the bundlers users run, each run where it ships, and checked for the WASM engine,
// the exact counter (loom.stats().counter === "wasm", no gpt-tokenizer fallback) and its size.
// - esbuild for the browser, ctxloom/bpe.wasm copied beside the bundle (esbuild does not ship
//   assets named by new URL(..., import.meta.url)), in headless Chromium;
// - Vite (build of an index.html app), which ships ctxloom-bpe.wasm by itself, in Chromium;
// - a Worker bundled as wrangler does (workerd condition, .wasm as CompiledWasm modules), and a
//   Worker bundled by a bundler that does not know workerd, handed the core and the counter's
//   module (Loom.open({ wasm, bpe })), each in workerd through miniflare (modules: true).
// wrangler itself needs Node 22 (this machine's CI runs Node 20): its bundle is esbuild's under
// the same conditions and module rules (bundle.ts). The figures printed go to docs/runtimes.md.
import { Miniflare } from "miniflare";
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { installedPackage, repoRoot, type InstalledPackage } from "../package/fixture.js";
import { bundle, type Bundle } from "./bundle.js";

const here = dirname(fileURLToPath(import.meta.url));
/** "Hello, world!" as a gpt-4o message: 4 tokens of o200k_base and the message's overhead. */
const EXACT = 8;
const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
};

interface FirstRequest {
  engine: string;
  counter: string | null;
  counterFallback: string | null;
  tokens: number;
  messages: number;
  ms: number;
}

/** Headless Chromium: the one @sparticuz/chromium unpacks (npm ci brings it), else Debian's; with neither, why. */
async function launchChromium(): Promise<Browser | string> {
  const flags = ["--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"];
  const tries = [
    async () => ({
      path: await sparticuz.executablePath(),
      args: sparticuz.args.filter((a) => a !== "--single-process"),
    }),
    async () => ({ path: "/usr/bin/chromium", args: ["--no-sandbox"] }),
  ];
  const why: string[] = [];
  for (const attempt of tries) {
    try {
      const { path, args } = await attempt();
      return await chromium.launch({
        executablePath: path,
        args: [...args, ...flags],
        headless: true,
        timeout: 60_000,
      });
    } catch (e) {
      why.push(String((e as Error).message ?? e).split("\n")[0]!);
    }
  }
  return why.join("; ");
}

const launched = await launchChromium();
const found = typeof launched === "string" ? { why: launched } : {};
if ("why" in found)
  console.warn(
    `bundlers.test.ts: the browser bundles are skipped, no browser: ${found.why}. Enable it with: sudo apt-get install -y chromium.`,
  );

let pkg: InstalledPackage;
let app: string;
const browser: Browser | undefined = typeof launched === "string" ? undefined : launched;
const servers: Server[] = [];
const sizes: string[] = [];

/** Serves a folder's files on an ephemeral port of the loopback interface; returns its origin. */
async function serve(dir: string): Promise<string> {
  const server = createServer((req, res) => {
    const path = req.url === "/" ? "index.html" : decodeURIComponent(req.url!.slice(1));
    try {
      const body = readFileSync(join(dir, path));
      res.writeHead(200, { "content-type": MIME[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Loads the page and returns the app's first request, with the wall time from navigation to its answer. */
async function runPage(
  url: string,
): Promise<FirstRequest & { wallMs: number; requests: string[]; warnings: string[] }> {
  const tab = await browser!.newPage();
  try {
    const errors: string[] = [];
    const requests: string[] = [];
    const warnings: string[] = [];
    tab.on("console", (m) => void (m.type() === "warning" && warnings.push(m.text())));
    tab.on("pageerror", (e) => errors.push(String(e)));
    tab.on("request", (r) => requests.push(new URL(r.url()).pathname));
    const started = performance.now();
    await tab.goto(url, { timeout: 30_000 });
    await tab.waitForFunction(() => "ctxloomResult" in globalThis, undefined, { timeout: 30_000 });
    const out = (await tab.evaluate(
      () => (globalThis as unknown as { ctxloomResult: Promise<unknown> }).ctxloomResult,
    )) as FirstRequest;
    const wallMs = performance.now() - started;
    expect(errors).toEqual([]);
    return { ...out, wallMs, requests, warnings };
  } finally {
    await tab.close();
  }
}

/** Bytes and gzip bytes of a folder's files by kind. */
function measure(dir: string): { js: number; jsGzip: number; wasm: number; wasmGzip: number; files: string[] } {
  const out = { js: 0, jsGzip: 0, wasm: 0, wasmGzip: 0, files: [] as string[] };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    out.files.push(entry.name);
    if (entry.name.endsWith(".js")) (out.js += bytes.length), (out.jsGzip += gzipSync(bytes).length);
    if (entry.name.endsWith(".wasm")) (out.wasm += bytes.length), (out.wasmGzip += gzipSync(bytes).length);
  }
  return out;
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
function record(
  name: string,
  size: { js: number; jsGzip: number; wasm: number; wasmGzip: number },
  run: { ms: number; wallMs?: number },
) {
  const wall = run.wallMs === undefined ? "" : `, ${run.wallMs.toFixed(0)} ms as the client saw it`;
  sizes.push(
    `${name}: JS ${kib(size.js)} (${kib(size.jsGzip)} gzip), .wasm ${kib(size.wasm)} (${kib(size.wasmGzip)} gzip); first request ${run.ms.toFixed(0)} ms${wall}`,
  );
}

beforeAll(async () => {
  pkg = await installedPackage();
  app = join(pkg.project, "bundlers-app");
  rmSync(app, { recursive: true, force: true });
  cpSync(join(here, "fixtures/bundlers"), app, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  if (sizes.length > 0) console.log(`bundlers.test.ts, sizes and first requests:\n  ${sizes.join("\n  ")}`);
});

describe.skipIf("why" in found)("browser bundles in headless Chromium", () => {
  test("esbuild: the bundle and ctxloom/bpe.wasm beside it run the WASM engine and the exact WebAssembly counter", async () => {
    const built: Bundle = await bundle(pkg.project, "bundlers-app/app.js", ["browser"]);
    const out = join(app, "esbuild-out");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "app.js"), built.code);
    writeFileSync(
      join(out, "index.html"),
      `<!doctype html><meta charset="utf-8"><script type="module" src="./app.js"></script>`,
    );
    // The recipe: copy the counter's module beside the bundle (the package exports it as ctxloom/bpe.wasm).
    copyFileSync(createRequire(join(app, "app.js")).resolve("ctxloom/bpe.wasm"), join(out, "ctxloom-bpe.wasm"));
    const run = await runPage(await serve(out));
    expect(run).toMatchObject({ engine: "wasm", counter: "wasm", counterFallback: null, tokens: EXACT, messages: 3 });
    expect(run.requests).toContain("/ctxloom-bpe.wasm"); // fetched beside the bundle, not a folder above
    const size = measure(out);
    // gpt-tokenizer is not in the app: its ranks (2.4 MB of JS for o200k) never enter the bundle.
    expect(size.js).toBeLessThan(1_000_000);
    record("esbuild (browser)", size, run);
  });

  test("esbuild without the file beside the bundle: gpt-tokenizer (installed) counts, announced once in the console and in stats", async () => {
    // The app installed the optional peer (found through nodePaths): esbuild puts its ranks in the bundle.
    const built: Bundle = await bundle(
      pkg.project,
      "bundlers-app/app.js",
      ["browser"],
      [join(repoRoot, "node_modules")],
    );
    const out = join(app, "esbuild-bare");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "app.js"), built.code);
    writeFileSync(
      join(out, "index.html"),
      `<!doctype html><meta charset="utf-8"><script type="module" src="./app.js"></script>`,
    );
    const run = await runPage(await serve(out));
    expect(run).toMatchObject({ engine: "wasm", counter: "gpt-tokenizer", tokens: EXACT });
    expect(run.counterFallback).toContain("ctxloom-bpe.wasm: HTTP 404");
    expect(run.warnings.filter((w) => w.includes("with gpt-tokenizer"))).toHaveLength(1);
    expect(run.requests.filter((r) => r.endsWith("ctxloom-bpe.wasm"))).toEqual(["/ctxloom-bpe.wasm"]); // looked for once, beside the bundle
    sizes.push(
      `esbuild (browser) without the file, gpt-tokenizer bundled: JS ${kib(measure(out).js)}; first request ${run.ms.toFixed(0)} ms`,
    );
  });

  test("Vite: the build ships ctxloom-bpe.wasm as an asset by itself, and the page counts with it", async () => {
    const { build } = await import("vite");
    const outDir = join(app, "vite-out");
    await build({
      root: app,
      configFile: false,
      logLevel: "silent",
      build: { outDir, emptyOutDir: true, reportCompressedSize: false },
    });
    const size = measure(outDir);
    // Vite ships the three counter modules as assets (each named by its own URL); a page fetches its own.
    expect(size.files.filter((f) => /^ctxloom-bpe-[\w-]+\.wasm$/.test(f))).toHaveLength(3);
    const run = await runPage(await serve(outDir));
    expect(run).toMatchObject({ engine: "wasm", counter: "wasm", counterFallback: null, tokens: EXACT, messages: 3 });
    // One encoding a module: the page fetches o200k_base's (1 MiB gzip at most), never cl100k_base's.
    const fetched = run.requests.filter((r) => r.endsWith(".wasm") && r.includes("ctxloom-bpe"));
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatch(/\/assets\/ctxloom-bpe-[\w]+\.wasm$/);
    expect(fetched[0]).not.toMatch(/cl100k|vocab/);
    const served = readFileSync(join(outDir, fetched[0]!.slice(1)));
    expect(gzipSync(served).length).toBeLessThanOrEqual(1024 * 1024);
    expect(run.requests.filter((r) => r.endsWith(".js"))).toHaveLength(1); // no lazy chunk of gpt-tokenizer fetched
    expect(size.js).toBeLessThan(1_000_000);
    record("Vite (browser)", size, run);
  });
});

describe("Workers bundles in workerd (miniflare, modules: true)", () => {
  /** Writes the bundle and its .wasm modules to a folder and runs the first request there, as Cloudflare's test tooling loads a Worker. */
  async function firstRequest(name: string, built: Bundle, listed = false): Promise<FirstRequest & { wallMs: number }> {
    const dir = join(app, `${name}-out`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "worker.mjs"), built.code);
    for (const [file, bytes] of built.wasm) writeFileSync(join(dir, file), bytes);
    const script = join(dir, "worker.mjs");
    // modules: true reads the bundle's imports itself; `listed` hands it the modules as an upload does.
    const modules = listed
      ? [
          { type: "ESModule" as const, path: script, contents: built.code },
          ...[...built.wasm].map(([file, bytes]) => ({
            type: "CompiledWasm" as const,
            path: join(dir, file),
            contents: bytes,
          })),
        ]
      : true;
    const mf = new Miniflare({
      compatibilityDate: "2025-09-01",
      modules,
      modulesRoot: dir,
      ...(listed
        ? {}
        : { scriptPath: script, modulesRules: [{ type: "CompiledWasm" as const, include: ["**/*.wasm"] }] }),
    });
    try {
      await mf.ready;
      const started = performance.now();
      const response = await mf.dispatchFetch("http://localhost/");
      const text = await response.text();
      const wallMs = performance.now() - started;
      if (!response.ok) throw new Error(text);
      return { ...(JSON.parse(text) as FirstRequest), wallMs };
    } finally {
      await mf.dispose();
    }
  }

  test("bundled as wrangler does (workerd condition): the WASM engine and the exact counter, no gpt-tokenizer", async () => {
    const built = await bundle(pkg.project, "bundlers-app/worker-wrangler.js", ["workerd", "worker", "browser"]);
    expect(built.inputs).toContain("node_modules/ctxloom/dist/index.workerd.js");
    const run = await firstRequest("wrangler", built);
    expect(run).toMatchObject({ engine: "wasm", counter: "wasm", counterFallback: null, tokens: EXACT, messages: 3 });
    expect(built.gzipBytes).toBeLessThan(3_000_000); // the free plan's limit, .wasm modules included
    record("Worker, wrangler's conditions", sizeOf(built), run);
  });

  test("bundled without the workerd condition, handed Loom.open({ wasm: core, bpe }) from ctxloom/wasm and ctxloom/bpe.wasm", async () => {
    const built = await bundle(pkg.project, "bundlers-app/worker.js", ["worker", "browser"]);
    expect(built.inputs).toContain("node_modules/ctxloom/dist/index.js");
    expect([...built.wasm.keys()].sort()).toEqual(["ctxloom-bpe.wasm", "ctxloom.wasm"]);
    // The main entry keeps the fallback's import("gpt-tokenizer/...") (not installed here), which
    // never runs once the counter is handed over; miniflare's own reading of the imports refuses a
    // module it cannot find, so the modules are listed, as an upload lists them.
    expect(built.code).toContain('import("gpt-tokenizer/encoding/o200k_base")');
    const run = await firstRequest("other", built, true);
    expect(run).toMatchObject({ engine: "wasm", counter: "wasm", counterFallback: null, tokens: EXACT, messages: 3 });
    expect(built.code.length).toBeLessThan(1_000_000); // no gpt-tokenizer ranks bundled (2.4 MB of JS for o200k)
    record("Worker, another bundler + { wasm, bpe }", sizeOf(built), run);
  });
});

/** A Worker bundle's JS and .wasm modules, raw and gzip. */
function sizeOf(built: Bundle) {
  const wasm = [...built.wasm.values()];
  return {
    js: built.code.length,
    jsGzip: gzipSync(built.code).length,
    wasm: wasm.reduce((n, b) => n + b.length, 0),
    wasmGzip: wasm.reduce((n, b) => n + gzipSync(b).length, 0),
  };
}
