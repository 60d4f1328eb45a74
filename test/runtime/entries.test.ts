// Each runtime's bundle of the installed package holds only its own way of loading the exact
// counter's module (the "#ctxloom/bpe-file" import map): Workers none (the module is handed
// over), Deno its import of the file, Node its read from disk, browsers a fetch. Above all, no
// bundle but Deno's holds an import() of a computed specifier, which Workers' module loader
// (miniflare with `modules: true`, wrangler) refuses.
import { init as lexerReady, parse as imports } from "es-module-lexer";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { installedPackage, type InstalledPackage } from "../package/fixture.js";
import { bundle } from "./bundle.js";

const RUNTIMES = {
  workerd: { conditions: ["workerd", "worker", "browser"], loader: "bpe-file-none.js" },
  deno: { conditions: ["deno"], loader: "bpe-file-deno.js" },
  node: { conditions: ["node"], loader: "bpe-file-node.js" },
  browser: { conditions: ["browser"], loader: "bpe-file.js" },
} as const;
/** Where a loader sits in dist/: the browsers' beside ctxloom-bpe.wasm (its URL is "./ctxloom-bpe.wasm", beside a bundle too), the others in tokens/. */
const at = (loader: string) => `node_modules/ctxloom/dist/${loader === "bpe-file.js" ? "" : "tokens/"}${loader}`;
const LOADERS = Object.values(RUNTIMES).map((r) => r.loader);

let pkg: InstalledPackage;

beforeAll(async () => {
  pkg = await installedPackage();
  writeFileSync(join(pkg.project, "entries-main.js"), `export * from "ctxloom";\n`);
  await lexerReady;
}, 240_000);

/** The dynamic imports of `code` whose specifier is not a string literal, as written. */
function computedImports(code: string): string[] {
  const [found] = imports(code);
  return found.filter((i) => i.type === "dynamic" && i.specifier === undefined).map((i) => code.slice(i.start, i.end));
}

describe("each runtime's bundle holds its own code only", () => {
  for (const [runtime, { conditions, loader }] of Object.entries(RUNTIMES)) {
    test(`${runtime}: the ${loader} loader alone`, async () => {
      const b = await bundle(pkg.project, "entries-main.js", [...conditions]);
      // (bpe-files.js, which names the module files, is every runtime's: not a loader)
      const loaders = b.inputs.filter((f) => /^node_modules\/ctxloom\/dist\/(tokens\/)?bpe-file(-\w+)?\.js$/.test(f));
      expect(loaders).toEqual([at(loader)]);
      expect(LOADERS.filter((l) => l !== loader).some((l) => b.inputs.includes(at(l)))).toBe(false);
      if (runtime === "deno") {
        const computed = computedImports(b.code);
        expect(computed).toHaveLength(1);
        expect(computed[0]).toContain("url.href");
      } else {
        expect(computedImports(b.code)).toEqual([]);
        expect(b.code).not.toMatch(/\bDeno\.[a-z]/); // no call of Deno's API (messages may name Deno)
      }
      if (runtime !== "node") expect(b.code).not.toContain("getBuiltinModule");
    });
  }
});
