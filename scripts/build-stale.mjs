// Runs `npm run build` when its outputs are missing or older than its inputs, else nothing.
// `npm start` and `npm test` run it first: the published package has no install script (no
// "prepare"), so a fresh clone builds here, on `npm ci && npm start` or `npm test`, and a
// build that is up to date costs a walk over the sources' dates.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What the build writes: the generated sources, the WebAssembly files, the compiled entry points. */
const OUTPUTS = [
  "build/ctxloom.wasm",
  "src/engine/core-wasm.ts",
  "src/engine/layout.ts",
  "src/ctxloom-bpe.wasm",
  "src/ctxloom-bpe-cl100k.wasm",
  "src/ctxloom-bpe-vocab.wasm",
  "dist/ctxloom.wasm",
  "dist/ctxloom-bpe.wasm",
  "dist/ctxloom-bpe-cl100k.wasm",
  "dist/ctxloom-bpe-vocab.wasm",
  "dist/index.js",
  "dist/cli/main.js",
];
/** What it reads (the generated files in src/ aside). */
const INPUTS = [
  "assembly",
  "src",
  "scripts",
  "asconfig.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "package-lock.json",
];
const GENERATED = new Set(OUTPUTS);

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return GENERATED.has(relative(root, path)) ? 0 : stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const missing = OUTPUTS.filter((file) => !existsSync(join(root, file)));
const built = missing.length > 0 ? 0 : Math.min(...OUTPUTS.map((file) => statSync(join(root, file)).mtimeMs));
const changed = Math.max(...INPUTS.map((input) => newest(join(root, input))));
if (missing.length === 0 && changed <= built) {
  console.log("build: up to date");
} else {
  console.log(
    missing.length > 0 ? `build: ${missing.join(", ")} missing` : "build: sources changed since the last build",
  );
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  execFileSync(npm, ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
}
