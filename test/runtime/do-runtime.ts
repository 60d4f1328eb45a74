// A Worker with Durable Objects in workerd, through miniflare, as the Durable Object tests and
// bench/durable-object.bench.ts run it: bundled with esbuild under wrangler's conditions, the
// core and the exact counter handed over as CompiledWasm modules, objects persisted in a folder.
import { build } from "esbuild";
import { Miniflare, type MiniflareOptions } from "miniflare";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The Worker at `entry` (a path from the repository's root), bundled as wrangler would (`alias`: package names to files of src/). */
export async function bundleWorker(entry: string, alias?: Record<string, string>): Promise<string> {
  const out = await build({
    entryPoints: [join(root, entry)],
    ...(alias ? { alias: Object.fromEntries(Object.entries(alias).map(([k, v]) => [k, join(root, v)])) } : {}),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:workers"],
    plugins: [
      {
        name: "core-module",
        setup(b) {
          // The workerd entry imports the core and the token counter as modules, as wrangler hands them over.
          b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: `./${args.path.split("/").pop()}`, external: true }));
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

/** workerd running the bundle `code`, its objects (`durableObjects`) persisted in `persist` (and D1 databases, when `more` names some, beside them). */
export function workerdRuntime(
  code: string,
  persist: string,
  durableObjects: MiniflareOptions["durableObjects"],
  more: { inspectorPort?: number; d1Databases?: Record<string, string>; bindings?: Record<string, string> } = {},
): Miniflare {
  return new Miniflare({
    compatibilityDate: "2025-09-01",
    modulesRoot: root,
    modules: [
      { type: "ESModule", path: join(root, "worker.js"), contents: code },
      {
        type: "CompiledWasm",
        path: join(root, "ctxloom.wasm"),
        contents: readFileSync(join(root, "build/ctxloom.wasm")),
      },
      {
        type: "CompiledWasm",
        path: join(root, "ctxloom-bpe.wasm"),
        contents: readFileSync(join(root, "build/ctxloom-bpe.wasm")),
      },
    ],
    durableObjects,
    durableObjectsPersist: persist,
    ...(more.d1Databases ? { d1Persist: join(persist, "d1") } : {}),
    ...more,
  } as MiniflareOptions);
}
