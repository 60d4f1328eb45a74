// A small install (issue 22, item 6): the packed tarball installed with its required
// dependencies only stays under 10 MB; the published package.json runs nothing at install;
// no source map points at sources the package lacks; the peers' Node requirements agree with
// `engines` or are documented; gpt-tokenizer, the fallback counter, is an optional peer that a
// runtime without WebAssembly asks for by name.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, installedPackage, repoRoot, type InstalledPackage } from "./fixture.js";

const run = promisify(execFile);
const MB = 1_000_000;
/** npm's install-time and publish-time lifecycle scripts: none may be in the published package.json. */
const LIFECYCLE = [
  "preinstall",
  "install",
  "postinstall",
  "prepublish",
  "preprepare",
  "prepare",
  "postprepare",
  "prepack",
  "postpack",
  "prepublishOnly",
  "publish",
  "postpublish",
  "dependencies",
];

let pkg: InstalledPackage;
let manifest: {
  engines: { node: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
beforeAll(async () => {
  pkg = await installedPackage();
  manifest = JSON.parse(readFileSync(join(pkg.packageDir, "package.json"), "utf8"));
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(
    `installed with its required dependencies: ${(pkg.installedBytes / MB).toFixed(2)} MB (${Object.entries(
      pkg.installed,
    )
      .map(([n, b]) => `${n} ${kb(b)}`)
      .join(", ")})`,
  );
}, 240_000);

/** The lowest major version of Node a range like ">=20", ">= 16.0.0" or "20.x || 22.x" admits (undefined when it says no lower bound). */
function lowestNode(range: string): number | undefined {
  const majors = [...range.matchAll(/(\d+)(?:\.[\dx]+)*/g)].map((m) => Number(m[1]));
  return majors.length > 0 ? Math.min(...majors) : undefined;
}

describe("the installed package", () => {
  test("with its required dependencies only, it takes under 10 MB; no tokenizer is among them", () => {
    expect(Object.keys(pkg.installed)).toContain("ctxloom");
    for (const heavy of ["gpt-tokenizer", "js-tiktoken"]) expect(Object.keys(pkg.installed)).not.toContain(heavy);
    expect(pkg.installedBytes).toBeLessThan(10 * MB);
  });

  test("its package.json has no lifecycle script (npm runs nothing of ours at install)", () => {
    const scripts = Object.keys(manifest.scripts ?? {});
    expect(scripts.filter((s) => LIFECYCLE.includes(s))).toEqual([]);
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  test("every source map it ships carries its sources (or it ships none)", () => {
    const maps = pkg.files.filter((f) => f.endsWith(".map"));
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(pkg.packageDir, file), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      const carried = map.sources.every((_, i) => typeof map.sourcesContent?.[i] === "string");
      expect(carried, `${file} points at ${map.sources.join(", ")} without their text`).toBe(true);
    }
  });

  test("each peer needs no newer Node than `engines`, or the README says which Node it needs", () => {
    const ours = lowestNode(manifest.engines.node)!;
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8").split(/\n\s*\n/);
    for (const peer of Object.keys(manifest.peerDependencies)) {
      const engines = (
        JSON.parse(readFileSync(join(repoRoot, "node_modules", peer, "package.json"), "utf8")) as {
          engines?: { node?: string };
        }
      ).engines;
      const needs = engines?.node === undefined ? undefined : lowestNode(engines.node);
      if (needs === undefined || needs <= ours) continue;
      const said = readme.some((p) => p.includes(`\`${peer}\``) && p.includes(`Node ${needs}`));
      expect(
        said,
        `${peer} needs Node ${needs} (ctxloom's engines: ${manifest.engines.node}): the README should say so beside \`${peer}\``,
      ).toBe(true);
    }
    for (const peer of Object.keys(manifest.peerDependencies))
      expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
  });
});

describe("a runtime without WebAssembly (node --jitless)", () => {
  const script =
    `import { Loom, countTokens, loadTokenizer } from "ctxloom";\n` +
    `const loom = await Loom.open();\n` +
    `let out = { wasm: typeof WebAssembly, engine: loom.engine };\n` +
    `try {\n` +
    `  await loadTokenizer("gpt-4o");\n` +
    `  out.count = countTokens([{ role: "user", content: "Hello, world!" }], { model: "gpt-4o" });\n` +
    `} catch (e) { out = { ...out, code: e.code, message: e.message }; }\n` +
    `await loom.close();\n` +
    `console.log(JSON.stringify(out));\n`;
  /** The script's report and what it wrote to stderr. */
  const jitless = async (cwd: string) => {
    writeFileSync(join(cwd, "no-wasm.mjs"), script);
    const { stdout, stderr } = await run(process.execPath, ["--jitless", "--no-warnings", "no-wasm.mjs"], {
      cwd,
      env: cleanEnv(),
      timeout: 60_000,
    });
    return { out: JSON.parse(stdout) as Record<string, unknown>, stderr };
  };

  test("without gpt-tokenizer installed, exact counting fails saying how to install it; the JS engine runs", async () => {
    expect(existsSync(join(pkg.project, "node_modules/gpt-tokenizer"))).toBe(false);
    const { out } = await jitless(pkg.project);
    expect(out).toMatchObject({ wasm: "undefined", engine: "js", code: "WASM_UNAVAILABLE" });
    expect(out.message).toContain("npm install gpt-tokenizer");
  });

  test("with the optional peer installed, it counts exactly with gpt-tokenizer, announced once", async () => {
    // A second project: a copy of the installed package beside gpt-tokenizer (the repository's copy).
    const project = mkdtempSync(join(tmpdir(), "ctxloom-with-peer-"));
    mkdirSync(join(project, "node_modules"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "with-peer", private: true, type: "module" }));
    cpSync(pkg.packageDir, join(project, "node_modules/ctxloom"), { recursive: true });
    symlinkSync(join(repoRoot, "node_modules/gpt-tokenizer"), join(project, "node_modules/gpt-tokenizer"), "dir");
    try {
      const { out, stderr } = await jitless(project);
      expect(out).toEqual({ wasm: "undefined", engine: "js", count: 3 + 1 + 4 + 3 }); // the cookbook's rules around 4 tokens
      expect(stderr.match(/counting o200k_base with gpt-tokenizer/g)).toHaveLength(1);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
