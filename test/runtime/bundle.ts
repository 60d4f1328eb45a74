// Bundles a harness from the installed package the way wrangler (Workers) or a web bundler
// would: esbuild with the given export conditions, .wasm imports kept as separate modules.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";

const INNER = Symbol("inner resolve");

export interface Bundle {
  /** The bundled ES module. */
  code: string;
  /** The .wasm modules it imports, by the name the bundle uses ("ctxloom.wasm"), as bytes. */
  wasm: Map<string, Uint8Array>;
  /** The package files that went in, relative to the project (to check which entry was resolved). */
  inputs: string[];
  /** gzip size of the bundle plus its .wasm modules: what Workers count against their size limit. */
  gzipBytes: number;
}

/**
 * Bundles `entry` (a file in `project`) for the given export conditions; `nodePaths` are folders
 * searched for packages the project lacks (an optional peer the app installed, say).
 */
export async function bundle(
  project: string,
  entry: string,
  conditions: string[],
  nodePaths: string[] = [],
): Promise<Bundle> {
  const wasm = new Map<string, Uint8Array>();
  const result = await build({
    absWorkingDir: project,
    entryPoints: [join(project, entry)],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions,
    nodePaths,
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [
      {
        // Like wrangler's CompiledWasm rule or a bundler's .wasm loader: a .wasm file (named
        // directly, or reached through an export such as "ctxloom/wasm") stays a module of its own.
        name: "wasm-modules",
        setup(b) {
          b.onResolve({ filter: /.*/ }, async (args) => {
            if (args.pluginData === INNER) return undefined;
            const found = await b.resolve(args.path, {
              kind: args.kind,
              importer: args.importer,
              resolveDir: args.resolveDir,
              pluginData: INNER,
            });
            if (found.errors.length > 0 || !found.path.endsWith(".wasm")) return undefined;
            wasm.set(basename(found.path), readFileSync(found.path));
            return { path: `./${basename(found.path)}`, external: true };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.text;
  let gzipBytes = gzipSync(code).length;
  for (const bytes of wasm.values()) gzipBytes += gzipSync(bytes).length;
  return { code, wasm, inputs: Object.keys(result.metafile.inputs), gzipBytes };
}
