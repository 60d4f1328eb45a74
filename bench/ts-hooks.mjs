// Module hooks that run the bench's TypeScript as plain JavaScript, registered by
// bench/ts-loader.mjs. Why not tsx: tsx compiles with esbuild's keepNames, which wraps every
// function and class in a `__name(fn, "name")` call, run each time a closure is made. In the
// server loop that cost 13% of the CPU and the allocations that go with it, a cost the built
// package (dist/, compiled by tsc) does not have. Same esbuild, keepNames off: the code runs
// as users run it.
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

/** `./x.js` written in a .ts file means `./x.ts` when only that exists (TypeScript's NodeNext convention). */
export async function resolve(specifier, context, nextResolve) {
  if (/^\.{1,2}\//.test(specifier) && specifier.endsWith(".js") && /\.m?ts$/.test(context.parentURL ?? "")) {
    const ts = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
    if (!existsSync(new URL(specifier, context.parentURL)) && existsSync(ts)) return { url: ts.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !/\.m?ts$/.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "es2022",
    sourcefile: path,
    sourcemap: "inline",
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: "ES2022", useDefineForClassFields: true } }, // as tsconfig.json
  });
  return { format: "module", source: code, shortCircuit: true };
}
