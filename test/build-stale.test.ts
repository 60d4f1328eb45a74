// scripts/build-stale.mjs (run first by `npm test` and `npm start`) rebuilds when an input is
// newer than the oldest output. A file the build writes into src/ that it did not list among
// its outputs counted as an input, newer than the outputs written before it: every run rebuilt
// (about 20 s of CPU here) although nothing had changed.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

test("every file the build writes into src/ (not committed) is one of build:stale's outputs", () => {
  const script = readFileSync(join(root, "scripts/build-stale.mjs"), "utf8");
  const list = /const OUTPUTS = \[([^\]]*)\]/.exec(script)?.[1] ?? "";
  const outputs = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const generated = execFileSync("git", ["ls-files", "--others", "--ignored", "--exclude-standard", "src"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => f !== "");
  expect(generated).toContain("src/ctxloom-bpe.wasm"); // (the build has run: npm test runs it first)
  expect(outputs).toEqual(expect.arrayContaining(generated));
});
