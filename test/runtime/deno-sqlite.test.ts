// Issue 25, item 4: ctxloom/sqlite on Deno (the npm "deno" package, as test/runtime/deno.test.ts
// runs it) says at once that it cannot run there: better-sqlite3 is a native addon Deno cannot
// load, and the store used to fail late ("the folder does not exist", "retry; check the disk").
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, installedPackage, repoRoot, sh, type InstalledPackage } from "../package/fixture.js";

const here = dirname(fileURLToPath(import.meta.url));
const denoDir = mkdtempSync(join(tmpdir(), "ctxloom-deno-"));
let pkg: InstalledPackage;

beforeAll(async () => {
  pkg = await installedPackage();
  copyFileSync(join(here, "deno-sqlite-main.js"), join(pkg.project, "deno-sqlite-main.js"));
}, 240_000);

afterAll(() => rmSync(denoDir, { recursive: true, force: true }));

describe("ctxloom/sqlite on Deno", () => {
  test("sqliteStore() throws UNSUPPORTED_RUNTIME naming Deno and the stores that run there, through either entry", async () => {
    const stdout = await sh(
      join(repoRoot, "node_modules/.bin/deno"),
      ["run", "--no-remote", "--no-lock", "--no-prompt", "deno-sqlite-main.js"],
      {
        cwd: pkg.project,
        env: cleanEnv({ DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }),
        timeoutMs: 60_000,
      },
    );
    const out = JSON.parse(stdout);
    expect(out.resolved).toBe(`file://${join(pkg.packageDir, "dist/sqlite-elsewhere.js")}`); // the "deno" export condition
    for (const said of [out.entry, out.nodeEntry]) {
      expect(said).toMatchObject({ name: "CtxloomError", code: "UNSUPPORTED_RUNTIME" });
      expect(said.message).toMatch(
        /^ctxloom\/sqlite does not run on Deno: it needs better-sqlite3, a native addon that only Node loads\. On Deno, use the memory store \(the default\), ctxloom\/postgres, or a Store of your own\.$/,
      );
    }
  });
});
