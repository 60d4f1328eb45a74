// docs/runtimes.md and the README show the files the runtime tests run, verbatim.
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

test("the README's Worker example is test/runtime/worker.js verbatim", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const code = readFileSync(join(root, "test/runtime/worker.js"), "utf8");
  expect(readme).toContain("```js\n" + code + "```\n");
});
