// docs/runtimes.md shows the files the runtime tests run, verbatim (test/docs/examples.test.ts
// counts those blocks as run by the runtime tests).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/runtimes.md"), "utf8");

test.each(["scenario.js", "worker.js", "chats-object.js"])(
  "docs/runtimes.md shows test/runtime/%s verbatim",
  (file) => {
    const code = readFileSync(join(root, "test/runtime", file), "utf8");
    expect(doc).toContain("```js\n" + code + "```\n");
  },
);

test("docs/runtimes.md shows the bundler fixtures' Worker built without the workerd condition verbatim", () => {
  const code = readFileSync(join(root, "test/runtime/fixtures/bundlers/worker.js"), "utf8");
  expect(doc).toContain("```js\n" + code + "```\n");
});

// Words for users: the README and docs/ speak of features (never of the design documents'
// "seeds", which users do not have), and every `ctxloom/<entry>` they name is an entry the
// package exports: what is not there yet is written as "not yet", without an import path.
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

test.each(pages)("%s never speaks of seeds", (page) => {
  const text = readFileSync(join(root, page), "utf8");
  expect(text.split("\n").filter((line) => /\bseeds?\b/i.test(line))).toEqual([]);
});

test.each(pages)("%s names only entries the package exports", (page) => {
  const text = readFileSync(join(root, page), "utf8");
  const exported = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as object);
  const named = [...text.matchAll(/(?<!#)\bctxloom(\/[\w./-]+)/g)].map((m) => `.${m[1]!.replace(/[.]$/, "")}`);
  expect(named.filter((entry) => !exported.includes(entry))).toEqual([]);
});
