// The README's complete examples (the ```ts blocks that start with their imports) type-check
// under the project's strict settings, as a user copying them would compile them: an option
// renamed in the library and not in the README, or a model input one call takes and another
// refuses, fails here. Blocks importing a package this repository does not install are skipped.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
// docs/sdks.md's agent loops are checked the same way (its other blocks are fragments).
const sdks = readFileSync(join(root, "docs/sdks.md"), "utf8");
const docs = sdks.slice(sdks.indexOf("## Agents"), sdks.indexOf("\n## ", sdks.indexOf("## Agents") + 3));
// docs/tokens.md's complete examples too (registering a tokenizer file, asking the provider).
const tokens = readFileSync(join(root, "docs/tokens.md"), "utf8");
// docs/memory.md's example too.
const memory = readFileSync(join(root, "docs/memory.md"), "utf8");
const require = createRequire(join(root, "package.json"));

const ENTRIES: Record<string, string> = { ctxloom: "index", "ctxloom/tokens": "tokens-entry", "ctxloom/store": "store-entry" };

/** The source file an import of ctxloom names, or null for another package. */
function entry(specifier: string): string | null {
  if (ENTRIES[specifier]) return ENTRIES[specifier]!;
  const sub = /^ctxloom\/([\w-]+)$/.exec(specifier)?.[1];
  return sub && existsSync(join(root, "src", `${sub}.ts`)) ? sub : null;
}

function installed(specifier: string): boolean {
  if (specifier.startsWith("cloudflare:")) return false;
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

test("the README's, docs/sdks.md's and docs/memory.md's complete ts examples compile under tsc --strict", () => {
  const complete = (text: string) => [...text.matchAll(/```ts\n([\s\S]*?)```\n/g)].map((m) => m[1]!).filter((b) => b.trimStart().startsWith("import "));
  expect(complete(docs).length).toBe(4);
  expect(complete(tokens).length).toBe(2);
  expect(complete(memory).length).toBe(1);
  const blocks = [...complete(readme), ...complete(docs), ...complete(tokens), ...complete(memory)];
  expect(blocks.length).toBeGreaterThanOrEqual(11);
  const dir = mkdtempSync(join(root, "test", ".readme-types-"));
  try {
    const files: string[] = [];
    blocks.forEach((block, i) => {
      const specifiers = [...block.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);
      if (specifiers.some((s) => entry(s) === null && !installed(s))) return; // a package not installed here
      const code = block.replace(/from "([^"]+)"/g, (all, s: string) => {
        const e = entry(s);
        return e === null ? all : `from ${JSON.stringify(`../../src/${e}.js`)}`;
      });
      const file = `example-${i}.ts`;
      writeFileSync(join(dir, file), `export {};\n${code}`);
      files.push(file);
    });
    expect(files.length, "examples left to check").toBeGreaterThanOrEqual(5);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: { strict: true, noEmit: true }, include: files }));
    let out = "";
    try {
      execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? error);
    }
    // Only the examples' own errors (a library file another change has broken is not the
    // README's), less the names a fragment takes from the text around it (`messages` in the
    // countTokens line): TS2304 / TS2552. A renamed export, option or method is another error.
    const own = out.split("\n").filter((line) => line.includes("example-") && !/error TS(2304|2552):/.test(line)).join("\n");
    expect(own).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
