// The exact token counter on Cloudflare Workers (workerd via miniflare): the workerd entry
// imports ctxloom-bpe.wasm as a module (no bytes compiled at run time), the bundle carries no
// gpt-tokenizer (the "#ctxloom/fallback" import maps to nothing under workerd), and the counts are
// gpt-tokenizer's (tiktoken's where a text holds U+FEFF, which gpt-tokenizer drops).
import { Miniflare } from "miniflare";
import { countTokens as gptO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as gptCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tiktokenCounter } from "../tokens/tiktoken.js";
import { installedPackage, type InstalledPackage } from "../package/fixture.js";
import { sharedStrings } from "../tokens/shared-strings.js";
import { bundle, type Bundle } from "./bundle.js";

const here = dirname(fileURLToPath(import.meta.url));
const PLAIN = { disallowedSpecial: new Set<string>() };
const TEXTS = [
  "",
  "hello world",
  "I'LL be there, We'Re sure",
  "👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽",
  "日本語のテキスト",
  "مَرْحَبًا नमस्ते",
  "1234567890",
  "  \n\n\t x",
  "\ufeffBOM",
  "a".repeat(20_000),
  ...sharedStrings("workerd-bpe.test.ts").slice(0, 400),
];

let pkg: InstalledPackage;
let worker: Bundle;
let mf: Miniflare | undefined;

beforeAll(async () => {
  pkg = await installedPackage();
  copyFileSync(join(here, "bpe-worker.js"), join(pkg.project, "bpe-worker.js"));
  worker = await bundle(pkg.project, "bpe-worker.js", ["workerd", "worker", "browser"]);
  console.log(`bpe-worker bundle: ${(worker.gzipBytes / 2 ** 20).toFixed(2)} MiB gzip with its .wasm modules`);
  // As wrangler leaves it and Cloudflare's test tooling loads it: the bundle and its .wasm files
  // on disk, `modules: true`, miniflare reading every import of the bundle itself (a dynamic
  // import of a computed specifier would stop it: ERR_MODULE_DYNAMIC_SPEC).
  const dir = mkdtempSync(join(pkg.project, "bpe-worker-"));
  writeFileSync(join(dir, "bpe-worker.mjs"), worker.code);
  for (const [file, bytes] of worker.wasm) writeFileSync(join(dir, file), bytes);
  mf = new Miniflare({
    compatibilityDate: "2025-09-01",
    modules: true,
    modulesRoot: dir,
    scriptPath: join(dir, "bpe-worker.mjs"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
  });
  await mf.ready;
}, 240_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("the exact counter on Workers", () => {
  test("the bundle imports ctxloom-bpe.wasm as a module, and leaves gpt-tokenizer (the fallback elsewhere) out", () => {
    expect(worker.inputs).toContain("node_modules/ctxloom/dist/index.workerd.js");
    expect(worker.inputs).toContain("node_modules/ctxloom/dist/tokens-entry.workerd.js"); // ctxloom/tokens, its Workers build
    // o200k_base's module from the Workers entry, cl100k_base's handed over by the Worker itself
    expect([...worker.wasm.keys()].sort()).toEqual(["ctxloom-bpe-cl100k.wasm", "ctxloom-bpe.wasm", "ctxloom.wasm"]);
    expect(worker.inputs).toContain("node_modules/ctxloom/dist/tokens/fallback-none.js");
    // (esbuild reads gpt-tokenizer for the public loadEncoding, then shakes it out: nothing of it runs here)
    expect(worker.code).not.toContain("bytePairRankDecoder");
    expect(worker.code.length).toBeLessThan(1_000_000); // o200k's ranks alone are 2.4 MB of JS
  });

  test("counts exactly in both encodings, and countTokens gives the cookbook's 129 and 124", async () => {
    const response = await mf!.dispatchFetch("http://localhost/", { method: "POST", body: JSON.stringify(TEXTS) });
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    const body = JSON.parse(text) as {
      compilesBytes: true | string;
      o200k: number[];
      cl100k: number[];
      cookbook: Record<string, number>;
    };
    expect(body.compilesBytes).not.toBe(true);
    const tiktoken = { o200k: await tiktokenCounter("o200k_base"), cl100k: await tiktokenCounter("cl100k_base") };
    const reference = (e: "o200k" | "cl100k", t: string) =>
      t.includes("\ufeff") ? tiktoken[e].count(t) : e === "o200k" ? gptO200k(t, PLAIN) : gptCl100k(t, PLAIN);
    expect(body.o200k).toEqual(TEXTS.map((t) => reference("o200k", t)));
    expect(body.cl100k).toEqual(TEXTS.map((t) => reference("cl100k", t)));
    expect(body.cookbook).toEqual({ "gpt-4": 129, "gpt-4o": 124 });
  });
});
