// Tests that cannot mislead: no test depends on the bench (its code is measured, not tested,
// and changes for speed), and every random choice of a test comes from a seed it prints
// (test/seeded.ts), so that a failure can be replayed.
import { init, parse } from "es-module-lexer";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const here = join(root, "test");

/** Every TypeScript and JavaScript file under test/, relative to the project. */
function testFiles(dir = here): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return /\.(m?ts|m?js)$/.test(e.name) ? [relative(root, path)] : [];
  });
}

/** The import specifiers of a file (static and literal dynamic ones). */
function importsOf(file: string): string[] {
  const [found] = parse(readFileSync(join(root, file), "utf8"), file);
  return found.flatMap((i) => ("specifier" in i && typeof i.specifier === "string" ? [i.specifier] : []));
}

describe("test hygiene", () => {
  test("no test imports from bench/", async () => {
    await init;
    const offending = testFiles().flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith("."))
        .filter((s) => relative(root, resolve(root, dirname(file), s)).split("/")[0] === "bench")
        .map((s) => `${file} imports ${s}`),
    );
    expect(offending).toEqual([]);
  });

  test("no test draws from Math.random but to pick a seed it prints (test/seeded.ts)", () => {
    // A seed picked at random is fine when it is printed and CTXLOOM_SEED replays it.
    const picksSeed = /CTXLOOM_SEED[^\n]*Math\.random\(\)/;
    const offending = testFiles()
      .filter((file) => file !== "test/seeded.ts" && file !== "test/hygiene.test.ts")
      .flatMap((file) =>
        readFileSync(join(root, file), "utf8")
          .split("\n")
          .map((line, i) => [line, i + 1] as const)
          .filter(
            ([line]) => line.includes("Math.random()") && !picksSeed.test(line) && !line.trimStart().startsWith("//"),
          )
          .map(([, n]) => `${file}:${n}`),
      );
    expect(offending).toEqual([]);
  });
});
