// docs/runtimes.md shows the files the runtime tests run, verbatim.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/runtimes.md"), "utf8");

test.each(["scenario.js", "worker.js"])("docs/runtimes.md shows test/runtime/%s verbatim", (file) => {
  const code = readFileSync(join(root, "test/runtime", file), "utf8");
  expect(doc).toContain("```js\n" + code + "```\n");
});
