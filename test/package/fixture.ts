// The package as users get it: built from the working tree in a staging copy (never touching
// the repository's dist/), packed with `npm pack`, and installed from the tarball into a fresh
// project outside the repository. The runtime tests run their harnesses (test/runtime/*.js,
// copied into that project) against it, so every import of "ctxloom" goes through the packed
// package.json's export map.
//
// Built once per content of the inputs and shared by every test file and worker: the first
// caller takes a lock directory and builds; the others wait for it. Later runs with the same
// inputs reuse the result (the key covers this file too: a change here builds afresh).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Files and folders the package is built from (the staging copy holds exactly these). */
const INPUTS = [
  "package.json",
  "package-lock.json",
  "asconfig.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "README.md",
  "LICENSE",
  "src",
  "assembly",
  "scripts",
];
/** What the build writes into src/; regenerated in the staging copy. */
const GENERATED = new Set(["src/engine/core-wasm.ts"]);

export interface InstalledPackage {
  /** The project the tarball was installed into (outside the repository). */
  project: string;
  /** node_modules/ctxloom inside it. */
  packageDir: string;
  /** The .tgz `npm pack` wrote. */
  tarball: string;
  /** Size of the .tgz, bytes. */
  tarballBytes: number;
  /** Unpacked size, bytes (npm pack's figure). */
  unpackedBytes: number;
  /** Paths inside the tarball. */
  files: string[];
  /** Size of the built core, bytes. */
  wasmBytes: number;
  /** Bytes of every file the install wrote to the fresh project's node_modules: the package and its required dependencies. */
  installedBytes: number;
  /** The packages the install put in node_modules (ctxloom and its required dependencies), with their bytes. */
  installed: Record<string, number>;
  /** Seconds the build, pack and install took (0 when reused). */
  seconds: number;
}

let pending: Promise<InstalledPackage> | undefined;

/** The installed package, building it first when its inputs changed. */
export function installedPackage(): Promise<InstalledPackage> {
  pending ??= prepare();
  return pending;
}

/** Environment for child processes: without the npm_* variables an `npm test` parent sets (they would point npm at the repository). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== "INIT_CWD" && key !== "NODE_OPTIONS" && !key.startsWith("VITEST"))
      env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command, failing with its output when it exits non-zero. */
export async function sh(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    const { stdout } = await run(file, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${file} ${args.join(" ")} failed in ${options.cwd}:\n${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
    );
  }
}

/** Bytes of the files under `path`, links not followed. */
function bytesUnder(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

/** What an install put in node_modules: its bytes, and each package's (scoped ones by their full name). */
function installedSizes(modules: string): { installedBytes: number; installed: Record<string, number> } {
  const installed: Record<string, number> = {};
  for (const name of readdirSync(modules)) {
    if (name.startsWith(".")) continue;
    const scoped = name.startsWith("@") ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name];
    for (const pkg of scoped) installed[pkg] = bytesUnder(join(modules, pkg));
  }
  return { installedBytes: bytesUnder(modules), installed };
}

function listFiles(path: string, out: string[] = []): string[] {
  if (!existsSync(path)) return out;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) listFiles(join(path, name), out);
  } else {
    out.push(path);
  }
  return out;
}

/** A hash of every input plus the harnesses and this file: the cache key. */
function inputsKey(): string {
  const hash = createHash("sha256");
  const here = fileURLToPath(import.meta.url);
  const files = [
    ...INPUTS.flatMap((p) => listFiles(join(repoRoot, p))),
    ...listFiles(join(repoRoot, "test/runtime")),
    here,
  ];
  for (const file of files) {
    const rel = relative(repoRoot, file);
    if (GENERATED.has(rel) || rel.endsWith(".test.ts")) continue;
    hash.update(rel).update("\0").update(readFileSync(file)).update("\0");
  }
  hash.update(process.version);
  return hash.digest("hex").slice(0, 16);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function prepare(): Promise<InstalledPackage> {
  const cacheRoot = join(tmpdir(), "ctxloom-package-test");
  mkdirSync(cacheRoot, { recursive: true });
  const key = inputsKey();
  const dir = join(cacheRoot, key);
  const lock = `${dir}.lock`;
  const ready = join(dir, "ready.json");
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (existsSync(ready)) {
      utimesSync(dir, new Date(), new Date()); // in use: the newest for prune()
      return JSON.parse(readFileSync(ready, "utf8")) as InstalledPackage;
    }
    try {
      mkdirSync(lock);
    } catch {
      // Someone else builds. A lock older than 10 minutes belongs to a run that died.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await sleep(200);
      continue;
    }
    try {
      if (existsSync(ready)) continue;
      prune(cacheRoot, key);
      const result = await build(`${dir}.tmp-${process.pid}`, dir);
      return result;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Keeps the three newest cached builds (a few MB each); never one younger than 10 minutes, which a parallel run may be using. */
function prune(cacheRoot: string, key: string): void {
  const entries = readdirSync(cacheRoot)
    .filter((name) => !name.startsWith(key))
    .map((name) => {
      try {
        return { path: join(cacheRoot, name), mtime: statSync(join(cacheRoot, name)).mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((e) => e !== undefined)
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path, mtime } of entries.slice(3)) {
    if (Date.now() - mtime > 600_000) rmSync(path, { recursive: true, force: true });
  }
}

async function build(work: string, dir: string): Promise<InstalledPackage> {
  const started = performance.now();
  rmSync(work, { recursive: true, force: true });
  const stage = join(work, "stage");
  const project = join(work, "project");
  mkdirSync(stage, { recursive: true });
  mkdirSync(project, { recursive: true });

  // 1. Build from a copy of the sources, with the repository's dependencies.
  for (const input of INPUTS) {
    const from = join(repoRoot, input);
    if (!existsSync(from)) continue;
    cpSync(from, join(stage, input), {
      recursive: true,
      filter: (src) => !GENERATED.has(relative(repoRoot, src)),
    });
  }
  symlinkSync(join(repoRoot, "node_modules"), join(stage, "node_modules"), "dir");
  await sh("npm", ["run", "build"], { cwd: stage });

  // 2. Pack it (the package has no lifecycle script to skip; --ignore-scripts keeps it so).
  const packed = JSON.parse(
    await sh("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: stage }),
  )[0] as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  };
  const tarball = join(work, packed.filename);

  // 3. Install the tarball into a fresh project, from npm's cache (CI's `npm ci` filled it).
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "ctxloom-consumer", private: true, type: "module" }, null, 2),
  );
  const install = ["install", tarball, "--no-audit", "--no-fund", "--loglevel=error"];
  try {
    await sh("npm", [...install, "--offline"], { cwd: project });
  } catch {
    await sh("npm", [...install, "--prefer-offline"], { cwd: project });
  }
  for (const name of readdirSync(join(repoRoot, "test/runtime"))) {
    if (name.endsWith(".js")) copyFileSync(join(repoRoot, "test/runtime", name), join(project, name));
  }

  const result: InstalledPackage = {
    project: join(dir, "project"),
    packageDir: join(dir, "project/node_modules/ctxloom"),
    tarball: join(dir, packed.filename),
    tarballBytes: statSync(tarball).size,
    unpackedBytes: packed.unpackedSize,
    files: packed.files.map((f) => f.path).sort(),
    wasmBytes: statSync(join(stage, "build/ctxloom.wasm")).size,
    ...installedSizes(join(project, "node_modules")),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  // The stage's node_modules link is not needed any more; the rest moves into place at once.
  rmSync(join(stage, "node_modules"));
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  writeFileSync(join(dir, "ready.json"), JSON.stringify({ ...result, seconds: 0 }, null, 2));
  return result;
}
