// Module hooks that run the bench's TypeScript as plain JavaScript, registered by
// bench/ts-loader.mjs. Why not tsx: tsx compiles with esbuild's keepNames, which wraps every
// function and class in a `__name(fn, "name")` call, run each time a closure is made. In the
// server loop that cost 13% of the CPU and the allocations that go with it, a cost the built
// package (dist/, compiled by tsc) does not have. Same esbuild, keepNames off: the code runs
// as users run it.
import { readFile } from "node:fs/promises";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transform, version } from "esbuild";

// Each suite, and many of their measurements, run in processes of their own (the smoke starts
// about 70): each compiled the library's 300 files again, 0.2 s of CPU a process. The compiled
// code is kept by the hash of the source (and of what compiles it), in node_modules/.cache.
const CACHE = fileURLToPath(new URL("../node_modules/.cache/ctxloom-bench-ts/", import.meta.url));
const HOOKS = readFileSync(fileURLToPath(import.meta.url), "utf8");
mkdirSync(CACHE, { recursive: true });

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
  const source = await readFile(path, "utf8");
  const key = createHash("sha256").update(`${version}\0${HOOKS}\0${path}\0${source}`).digest("hex");
  const cached = join(CACHE, `${key}.js`);
  if (existsSync(cached)) return { format: "module", source: readFileSync(cached, "utf8"), shortCircuit: true };
  const { code } = await transform(source, {
    loader: "ts",
    format: "esm",
    target: "es2022",
    sourcefile: path,
    sourcemap: "inline",
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: "ES2022", useDefineForClassFields: true } }, // as tsconfig.json
  });
  const temporary = `${cached}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, cached); // (whole or not at all: suites run two at a time)
  return { format: "module", source: code, shortCircuit: true };
}
