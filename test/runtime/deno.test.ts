// Deno for real (the npm "deno" package): the scenario imports "ctxloom" by name from the
// project that installed the tarball (Deno resolves it through node_modules and the "deno" condition).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, installedPackage, repoRoot, sh, type InstalledPackage } from "../package/fixture.js";

let pkg: InstalledPackage;
const denoDir = mkdtempSync(join(tmpdir(), "ctxloom-deno-"));

beforeAll(async () => {
  pkg = await installedPackage();
}, 240_000);

afterAll(() => rmSync(denoDir, { recursive: true, force: true }));

describe("Deno", () => {
  test("runs the scenario on the WASM engine from the installed package, and the runtime is Deno", async () => {
    const deno = join(repoRoot, "node_modules/.bin/deno");
    // No permissions: the package must need no file, network or environment access.
    const stdout = await sh(deno, ["run", "--no-remote", "--no-lock", "--no-prompt", "deno-main.js"], {
      cwd: pkg.project,
      env: cleanEnv({ DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }),
      timeoutMs: 60_000,
    });
    const out = JSON.parse(stdout);
    expect(out.runtime.name).toBe("deno");
    expect(out.runtime.version).toMatch(/^2\./);
    expect(out.runtime.resolved).toBe(`file://${join(pkg.packageDir, "dist/index.js")}`);
    expect(out.report.engine).toBe("wasm");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect(out.report).toEqual(node.report);
  });
});
