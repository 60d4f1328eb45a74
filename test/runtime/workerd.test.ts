// Cloudflare Workers for real: workerd (through miniflare) runs the documented Worker
// (worker.js + scenario.js), bundled as wrangler does, with the "workerd" export condition.
import { Miniflare } from "miniflare";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { installedPackage, sh, type InstalledPackage } from "../package/fixture.js";
import { bundle, type Bundle } from "./bundle.js";

const WRANGLER_CONDITIONS = ["workerd", "worker", "browser"];

let pkg: InstalledPackage;
let example: Bundle;
let hatch: Bundle;
let mf: Miniflare | undefined;

function worker(name: string, b: Bundle, project: string) {
  return {
    name,
    compatibilityDate: "2025-09-01",
    modulesRoot: project,
    modules: [
      { type: "ESModule" as const, path: join(project, `${name}.js`), contents: b.code },
      ...[...b.wasm].map(([file, bytes]) => ({
        type: "CompiledWasm" as const,
        path: join(project, file),
        contents: bytes,
      })),
    ],
  };
}

beforeAll(async () => {
  pkg = await installedPackage();
  example = await bundle(pkg.project, "probe-worker.js", WRANGLER_CONDITIONS);
  // A bundler that knows nothing of "workerd": the main entry, and the .wasm through "ctxloom/wasm".
  hatch = await bundle(pkg.project, "hatch-worker.js", ["worker", "browser"]);
  mf = new Miniflare({
    workers: [worker("example", example, pkg.project), worker("hatch", hatch, pkg.project)],
  });
  await mf.ready;
}, 240_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("Cloudflare Workers (workerd via miniflare)", () => {
  test("the bundle took the workerd entry and imports the core as a module", () => {
    expect(example.inputs).toContain("node_modules/ctxloom/dist/index.workerd.js");
    expect([...example.wasm.keys()].sort()).toEqual(["ctxloom-bpe.wasm", "ctxloom.wasm"]);
    expect(example.wasm.get("ctxloom.wasm")!.length).toBe(pkg.wasmBytes);
  });

  test("the Worker answers with the scenario, on the WASM engine, and the runtime is workerd", async () => {
    const response = await mf!.dispatchFetch("http://localhost/");
    const body = (await response.json()) as {
      userAgent: string;
      compilesBytes: true | string;
      status: number;
      report: { engine: string };
      options: unknown;
    };
    expect(body.userAgent).toBe("Cloudflare-Workers");
    // workerd refuses to compile bytes at run time: the reason the workerd entry exists.
    expect(body.compilesBytes).not.toBe(true);
    expect(body.status).toBe(200);
    expect(body.report.engine).toBe("wasm");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect(body.report).toEqual(node.report);
    // Options pass through; the module is only the default source. Bad options fail as in the main entry.
    expect(body.options).toEqual({ strict: "wasm", js: "js", instanceOfLoom: true, invalid: "INVALID_ARGUMENT" });
  });

  test("without the workerd condition: Loom.open({ wasm }) from ctxloom/wasm runs WASM; the default falls back to JS", async () => {
    // (miniflare's Fetcher type needs @cloudflare/workers-types, which is not installed)
    const fetcher = (await mf!.getWorker("hatch")) as unknown as { fetch(url: string): Promise<Response> };
    const response = await fetcher.fetch("http://localhost/");
    expect(await response.json()).toEqual({
      userAgent: "Cloudflare-Workers",
      hatch: "wasm",
      fallback: "js",
      strict: "WASM_UNAVAILABLE",
    });
    expect(hatch.inputs).toContain("node_modules/ctxloom/dist/index.js");
  });
});
