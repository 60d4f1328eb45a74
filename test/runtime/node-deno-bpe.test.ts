// The exact counter from the installed package on Node (reads dist/ctxloom-bpe.wasm) and on
// Deno without permissions (imports it as a WebAssembly module): the counts are gpt-tokenizer's
// (tiktoken's where a text holds U+FEFF, which gpt-tokenizer drops) and the cookbook's.
import { countTokens as gptO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as gptCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tiktokenCounter } from "../tokens/tiktoken.js";
import { cleanEnv, installedPackage, repoRoot, sh, type InstalledPackage } from "../package/fixture.js";
import { sharedStrings } from "../tokens/shared-strings.js";

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
  ...sharedStrings("node-deno-bpe.test.ts").slice(0, 300),
];
const denoDir = mkdtempSync(join(tmpdir(), "ctxloom-deno-"));
let pkg: InstalledPackage;

beforeAll(async () => {
  pkg = await installedPackage();
  copyFileSync(join(here, "bpe-main.js"), join(pkg.project, "bpe-main.js"));
  writeFileSync(join(pkg.project, "bpe-texts.js"), `export default ${JSON.stringify(TEXTS)};\n`);
}, 240_000);

afterAll(() => rmSync(denoDir, { recursive: true, force: true }));

async function expected() {
  const tiktoken = { o200k: await tiktokenCounter("o200k_base"), cl100k: await tiktokenCounter("cl100k_base") };
  const reference = (e: "o200k" | "cl100k", t: string) =>
    t.includes("\ufeff") ? tiktoken[e].count(t) : e === "o200k" ? gptO200k(t, PLAIN) : gptCl100k(t, PLAIN);
  return {
    o200k: TEXTS.map((t) => reference("o200k", t)),
    cl100k: TEXTS.map((t) => reference("cl100k", t)),
    cookbook: { "gpt-4": 129, "gpt-4o": 124 },
  };
}

describe("the exact counter from the installed package", () => {
  test("on Node", async () => {
    const out = JSON.parse(await sh(process.execPath, ["bpe-main.js"], { cwd: pkg.project, timeoutMs: 60_000 }));
    expect(out).toEqual(await expected());
  });

  test("on Deno, with no permissions", async () => {
    const deno = join(repoRoot, "node_modules/.bin/deno");
    const stdout = await sh(deno, ["run", "--no-remote", "--no-lock", "--no-prompt", "bpe-main.js"], {
      cwd: pkg.project,
      env: cleanEnv({ DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }),
      timeoutMs: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual(await expected());
  });
});
