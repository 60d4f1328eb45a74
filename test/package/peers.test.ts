// The optional peers at their current majors (issue 32, item 5): npm resolves the packed tarball
// beside the newest release of every optional peer (`npm install ctxloom better-sqlite3` took
// better-sqlite3 13 and failed with ERESOLVE against ">=11 <13"); the README says which Node each
// needs. Resolution only (--package-lock-only --ignore-scripts): better-sqlite3 13 needs Node 22
// to run. Asks the registry for each peer's latest version; skips, saying why, when it cannot.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, installedPackage, repoRoot, sh, type InstalledPackage } from "./fixture.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
};
const peers = Object.keys(manifest.peerDependencies);

/** Each peer's latest version by the registry (its `latest` dist-tag), or why the registry could not tell. */
async function latest(): Promise<Record<string, string> | { why: string }> {
  const out: Record<string, string> = {};
  for (const peer of peers) {
    try {
      out[peer] = JSON.parse(
        await sh("npm", ["view", peer, "version", "--json"], { cwd: tmpdir(), env: cleanEnv(), timeoutMs: 60_000 }),
      ) as string;
    } catch (error) {
      return { why: `npm view ${peer} failed (${String((error as Error).message).split("\n")[1] ?? error})` };
    }
  }
  return out;
}

let pkg: InstalledPackage;
let versions: Record<string, string> | { why: string };
beforeAll(async () => {
  [pkg, versions] = await Promise.all([installedPackage(), latest()]);
  if ("why" in versions) console.warn(`peers.test.ts: skipped, no registry: ${versions.why}`);
}, 240_000);

describe("the optional peers", () => {
  test("npm resolves the tarball beside the latest release of every optional peer (no ERESOLVE)", async (context) => {
    if ("why" in versions) return context.skip();
    const project = mkdtempSync(join(tmpdir(), "ctxloom-peers-"));
    try {
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "peers", private: true, type: "module" }));
      const wanted = peers.map((p) => `${p}@${(versions as Record<string, string>)[p]}`);
      await sh(
        "npm",
        [
          "install",
          pkg.tarball,
          ...wanted,
          "--package-lock-only",
          "--ignore-scripts",
          "--no-audit",
          "--no-fund",
          "--loglevel=error",
        ],
        {
          cwd: project,
          timeoutMs: 180_000,
        },
      );
      const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as {
        packages: Record<string, { version: string }>;
      };
      for (const peer of peers)
        expect(lock.packages[`node_modules/${peer}`]?.version, peer).toBe((versions as Record<string, string>)[peer]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 240_000);

  test("the README names, for each peer's latest major, the Node it needs when that is newer than ctxloom's", async (context) => {
    if ("why" in versions) return context.skip();
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const table = readme.slice(
      readme.indexOf("| optional peer |"),
      readme.indexOf("\n\n", readme.indexOf("| optional peer |")),
    );
    for (const peer of peers) {
      const v = (versions as Record<string, string>)[peer]!;
      const engines = JSON.parse(
        (await sh("npm", ["view", `${peer}@${v}`, "engines", "--json"], { cwd: tmpdir(), timeoutMs: 60_000 })) || "{}",
      ) as { node?: string };
      const needs = /(\d+)/.exec(engines.node ?? "")?.[1];
      const row = table.split("\n").find((line) => line.startsWith(`| \`${peer}\``));
      expect(row, `the README's table of optional peers has a row for ${peer}`).toBeDefined();
      if (needs !== undefined && Number(needs) > 20)
        expect(row, `${peer} ${v} needs Node ${needs}`).toContain(`Node ${needs}`);
    }
  }, 120_000);
});
