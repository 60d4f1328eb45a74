// Edge budgets: what the package costs where size matters. Prints the figures and fails when
// one passes its bound. The bounds are generous on purpose; raising one is a decision to note
// on the issue, not a way to get the build green.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, test } from "vitest";
import { bundle } from "../runtime/bundle.js";
import { installedPackage, type InstalledPackage } from "./fixture.js";

const KiB = 1024;
const MiB = 1024 * KiB;

const BUDGETS = {
  /** The WASM core (build/ctxloom.wasm). It holds arena, walk, eviction and similarity only: no strings, no tables. */
  wasm: 64 * KiB,
  /**
   * One encoding's counter module, gzip: what a page or a Worker that counts with o200k_base (every
   * current OpenAI model) ships (issue 37; both encodings in one module took 1,390 KiB).
   */
  counter: 1 * MiB,
  /**
   * The .tgz `npm pack` writes. Since issue 15 it holds the exact counter's tables (since issue
   * 37 one module an encoding: dist/ctxloom-bpe.wasm o200k_base, dist/ctxloom-bpe-cl100k.wasm);
   * gpt-tokenizer (the fallback) is an optional peer, js-tiktoken a devDependency (install.test.ts).
   */
  tarball: 2 * MiB,
  /**
   * The package unpacked in node_modules. 4.5 MiB since issue 37: one counter module an encoding
   * (and one for open models' vocabularies) each carry the Unicode classes the split patterns
   * read (115 KiB), where one module held both encodings; 5 MiB since issue 34, a user's working
   * memory (its room, store methods and tools: 141 KiB) beside the agents' and the SDKs' (4.55 MiB
   * then, 1.9 MiB packed). The JavaScript keeps its comments: what users read when they debug.
   */
  unpacked: 5 * MiB,
  /**
   * The documented Worker, bundled as wrangler does, gzip: Cloudflare's limit on the free plan
   * (3 MB compressed; 10 MB paid). The exact counter's tables go in as ctxloom-bpe.wasm
   * (about 1.35 MiB gzip); gpt-tokenizer's ranks (its fallback elsewhere) stay out.
   */
  worker: 3_000_000,
};

let pkg: InstalledPackage;
let workerGzip = 0;
let workerModules: string[] = [];
const counterGzip: Record<string, number> = {};

beforeAll(async () => {
  pkg = await installedPackage();
  const worker = await bundle(pkg.project, "worker.js", ["workerd", "worker", "browser"]);
  workerGzip = worker.gzipBytes;
  workerModules = [...worker.wasm.keys()].sort();
  for (const file of ["ctxloom-bpe.wasm", "ctxloom-bpe-cl100k.wasm", "ctxloom-bpe-vocab.wasm"]) {
    counterGzip[file] = gzipSync(readFileSync(join(pkg.packageDir, "dist", file)), { level: 9 }).length;
  }
  const row = (name: string, bytes: number, bound: number) =>
    `  ${name.padEnd(28)} ${(bytes / KiB).toFixed(1).padStart(9)} KiB   bound ${(bound / KiB).toFixed(0).padStart(5)} KiB   ${((100 * bytes) / bound).toFixed(0).padStart(3)}%`;
  console.log(
    [
      "edge budgets:",
      row("core (ctxloom.wasm)", pkg.wasmBytes, BUDGETS.wasm),
      row("package (.tgz)", pkg.tarballBytes, BUDGETS.tarball),
      row("package (unpacked)", pkg.unpackedBytes, BUDGETS.unpacked),
      row("Worker bundle (gzip)", workerGzip, BUDGETS.worker),
      ...Object.entries(counterGzip).map(([file, bytes]) => row(`${file} (gzip)`, bytes, BUDGETS.counter)),
      `  (package: ${pkg.seconds > 0 ? `built, packed and installed in ${pkg.seconds} s` : "ready (built by a parallel test file or an earlier run)"})`,
    ].join("\n"),
  );
}, 240_000);

describe("edge budgets", () => {
  test(`the WASM core is at most ${BUDGETS.wasm / KiB} KiB`, () => {
    expect(pkg.wasmBytes).toBeGreaterThan(0);
    expect(pkg.wasmBytes).toBeLessThanOrEqual(BUDGETS.wasm);
  });

  test(`the packed package is at most ${BUDGETS.tarball / KiB} KiB (${BUDGETS.unpacked / MiB} MiB unpacked)`, () => {
    expect(pkg.tarballBytes).toBeLessThanOrEqual(BUDGETS.tarball);
    expect(pkg.unpackedBytes).toBeLessThanOrEqual(BUDGETS.unpacked);
  });

  test(`one encoding's counter module is at most ${BUDGETS.counter / MiB} MiB gzip, and an o200k_base Worker ships only its own`, () => {
    for (const bytes of Object.values(counterGzip)) expect(bytes).toBeLessThanOrEqual(BUDGETS.counter);
    expect(workerModules).toEqual(["ctxloom-bpe.wasm", "ctxloom.wasm"]); // no cl100k_base tables
  });

  test(`the documented Worker bundles to at most ${BUDGETS.worker / 1e6} MB gzip (a Worker on the free plan)`, () => {
    expect(workerGzip).toBeLessThanOrEqual(BUDGETS.worker);
  });
});
