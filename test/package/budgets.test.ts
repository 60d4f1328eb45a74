// Edge budgets: what the package costs where size matters. Prints the figures and fails when
// one passes its bound. The bounds are generous on purpose; raising one is a decision to note
// on the issue, not a way to get the build green.
import { beforeAll, describe, expect, test } from "vitest";
import { bundle } from "../runtime/bundle.js";
import { installedPackage, type InstalledPackage } from "./fixture.js";

const KiB = 1024;
const MiB = 1024 * KiB;

const BUDGETS = {
  /** The WASM core (build/ctxloom.wasm). It holds arena, walk, eviction and similarity only: no strings, no tables. */
  wasm: 64 * KiB,
  /**
   * The .tgz `npm pack` writes. Since issue 15 it holds the exact counter's tables
   * (dist/ctxloom-bpe.wasm: o200k_base and cl100k_base ranks, 2.3 MiB, about 1.35 MiB gzip);
   * gpt-tokenizer (the fallback) is an optional peer, js-tiktoken a devDependency (install.test.ts).
   */
  tarball: 2 * MiB,
  /** The package unpacked in node_modules. */
  unpacked: 4 * MiB,
  /**
   * The documented Worker, bundled as wrangler does, gzip: Cloudflare's limit on the free plan
   * (3 MB compressed; 10 MB paid). The exact counter's tables go in as ctxloom-bpe.wasm
   * (about 1.35 MiB gzip); gpt-tokenizer's ranks (its fallback elsewhere) stay out.
   */
  worker: 3_000_000,
};

let pkg: InstalledPackage;
let workerGzip = 0;

beforeAll(async () => {
  pkg = await installedPackage();
  workerGzip = (await bundle(pkg.project, "worker.js", ["workerd", "worker", "browser"])).gzipBytes;
  const row = (name: string, bytes: number, bound: number) =>
    `  ${name.padEnd(28)} ${(bytes / KiB).toFixed(1).padStart(9)} KiB   bound ${(bound / KiB).toFixed(0).padStart(5)} KiB   ${((100 * bytes) / bound).toFixed(0).padStart(3)}%`;
  console.log(
    [
      "edge budgets:",
      row("core (ctxloom.wasm)", pkg.wasmBytes, BUDGETS.wasm),
      row("package (.tgz)", pkg.tarballBytes, BUDGETS.tarball),
      row("package (unpacked)", pkg.unpackedBytes, BUDGETS.unpacked),
      row("Worker bundle (gzip)", workerGzip, BUDGETS.worker),
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

  test(`the documented Worker bundles to at most ${BUDGETS.worker / 1e6} MB gzip (a Worker on the free plan)`, () => {
    expect(workerGzip).toBeLessThanOrEqual(BUDGETS.worker);
  });
});
