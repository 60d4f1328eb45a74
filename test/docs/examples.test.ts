// Every code block of the README and docs/*.md is type-checked or run, as a user copying it would
// use it (test/docs/blocks.ts says how blocks are read):
// - each ```ts and ```js block that is complete (it starts with its imports) or has a prelude is
//   type-checked under tsc --strict (js blocks with checkJs), all in one tsc run, imports of
//   ctxloom pointed at src/: an option renamed in the library and not in the docs fails here;
// - each ```ts block followed by a ```text block is also run, and must print exactly that text;
// - a ```js block that is a file the runtime tests run (test/runtime/, verbatim: docs.test.ts) is
//   run there, in Deno, workerd or Chromium;
// - any other ```ts or ```js block fails the test: give it its imports, or a prelude.
// Other fences are not code: commands (sh), configuration (json, toml), output and drawings (text).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { expect, test, vi } from "vitest";
import { type Block, blocksOf, pages, root, startsWithImport } from "./blocks.js";

const require = createRequire(join(root, "package.json"));
const exportsMap = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<
  string,
  { types?: string } | string
>;

/** The source file under src/ of an import of ctxloom ("ctxloom/ai-sdk" -> "src/ai-sdk.ts"), or null for another package. */
function source(specifier: string): string | null {
  const name = specifier.replace(/^npm:/, "");
  if (name !== "ctxloom" && !name.startsWith("ctxloom/")) return null;
  const target = exportsMap[name === "ctxloom" ? "." : `./${name.slice("ctxloom/".length)}`];
  const types = typeof target === "object" ? target.types : undefined;
  const file = types === undefined ? undefined : `src/${types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")}`;
  if (file === undefined || !existsSync(join(root, file)))
    throw new Error(`no source file under src/ for an import of ${specifier}`);
  return file;
}

/** Files the runtime tests run, by content: a ```js block equal to one is run by them. */
function runtimeFiles(dir = join(root, "test/runtime")): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of runtimeFiles(path)) files.set(k, v);
    else if (name.endsWith(".js")) files.set(readFileSync(path, "utf8"), relative(root, path));
  }
  return files;
}

const all = pages().flatMap(blocksOf);
const code = all.filter((b) => b.lang === "ts" || b.lang === "js");
const ranElsewhere = runtimeFiles();
const checked = code.filter(
  (b) => !(b.lang === "js" && ranElsewhere.has(b.code)) && (startsWithImport(b.code) || b.prelude !== undefined),
);
const runs = checked.filter((b) => b.output !== undefined);
const where = (b: Block) => `${b.page}:${b.line}`;

test("every block is code that is checked, or not code", () => {
  const known = new Set(["ts", "js", "text", "sh", "json", "toml", ""]);
  expect(all.filter((b) => !known.has(b.lang)).map((b) => `${where(b)} \`\`\`${b.lang}`)).toEqual([]);
  const unchecked = code.filter((b) => !checked.includes(b) && !(b.lang === "js" && ranElsewhere.has(b.code)));
  expect(unchecked.map(where), "give each its imports, or a prelude (test/docs/blocks.ts)").toEqual([]);
  // How much is checked, so that a page losing its examples shows.
  expect(checked.length).toBeGreaterThanOrEqual(35);
  expect(runs.length).toBeGreaterThanOrEqual(13);
  const elsewhere = code.length - checked.length;
  console.log(
    `${checked.length} blocks type-checked, ${runs.length} of them run; ${elsewhere} run by the runtime tests`,
  );
});

/** A stand-in for `cloudflare:workers` (the Workers runtime provides it): its DurableObject base class. */
const CLOUDFLARE_WORKERS = `declare module "cloudflare:workers" {
  type Storage = Parameters<typeof import("../../src/cloudflare.js").durableObjectStore>[0];
  export abstract class DurableObject<Env = unknown> {
    protected ctx: { storage: Storage };
    protected env: Env;
    constructor(ctx: { storage: Storage }, env: Env);
  }
}
`;

test("every complete ts and js block type-checks under tsc --strict", () => {
  const dir = mkdtempSync(join(root, "test", ".docs-check-"));
  try {
    const files = new Map<string, Block>();
    const missing: string[] = [];
    checked.forEach((b, i) => {
      const text = (b.prelude ?? "") + b.code;
      for (const [, s] of text.matchAll(/from "([^"]+)"/g)) {
        if (source(s!) !== null || s!.startsWith(".") || s!.startsWith("node:") || s === "cloudflare:workers") continue;
        try {
          require.resolve(s!);
        } catch {
          missing.push(`${where(b)} imports ${s}, which is not installed here`);
        }
      }
      const rewritten = text.replace(/from "([^"]+)"/g, (all, s: string) => {
        const file = source(s);
        if (file !== null) return `from ${JSON.stringify(`../../${file.replace(/\.ts$/, ".js")}`)}`;
        if (s.startsWith("./")) copyRuntimeFile(dir, s);
        return all;
      });
      const file = `b${i}.${b.lang}`;
      writeFileSync(join(dir, file), `export {};\n${rewritten}`);
      files.set(file, b);
    });
    expect(missing).toEqual([]);
    writeFileSync(join(dir, "cloudflare-workers.d.ts"), CLOUDFLARE_WORKERS);
    const include = [...files.keys(), "cloudflare-workers.d.ts"];
    const options = { strict: true, noEmit: true, allowJs: true, checkJs: true };
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: options, include }),
    );
    let out = "";
    try {
      execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")], {
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? error);
    }
    // Only the blocks' own errors (a library file another change has broken is not the docs'),
    // each named by its page and line: "docs/sdks.md:120 (line 3 of the block)". JavaScript is
    // checked as JavaScript: its parameters carry no types (TS7006, TS7031: implicitly any).
    const own = out
      .split("\n")
      .map((line) => /^(?:.*\/)?(b\d+\.([jt]s))\((\d+),\d+\): (.*)$/.exec(line))
      .filter((m) => m !== null && files.has(m[1]!) && !(m[2] === "js" && /error TS70(06|31):/.test(m[4]!)))
      .map((m) => {
        const b = files.get(m![1]!)!;
        const at = Number(m![3]) - 1 - (b.prelude === undefined ? 0 : b.prelude.split("\n").length - 1);
        return `${where(b)} (${at > 0 ? `line ${at} of the block` : "its prelude"}): ${m![4]}`;
      });
    expect(own).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);

/** Copies test/runtime/<name> (what a page's block imports as "./<name>") beside the blocks, its imports of ctxloom pointed at src/. */
function copyRuntimeFile(dir: string, specifier: string): void {
  const from = join(root, "test/runtime", specifier);
  if (!existsSync(from)) throw new Error(`a block imports ${specifier}: no test/runtime/${specifier} to stand for it`);
  const text = readFileSync(from, "utf8").replace(/from "([^"]+)"/g, (all, s: string) => {
    const file = source(s);
    return file === null ? all : `from ${JSON.stringify(`../../${file.replace(/\.ts$/, ".js")}`)}`;
  });
  writeFileSync(join(dir, specifier), text);
}

/** Pages whose examples print the day they ran: they run on that day. */
const DAY: Record<string, string> = { "docs/recall.md": "2025-03-14T10:00:00Z" };

test.each(runs.map((b) => [where(b), b] as const))(
  "%s prints what the page shows",
  async (_where, b) => {
    const dir = mkdtempSync(join(tmpdir(), "ctxloom-docs-run-"));
    const file = join(dir, "example.ts");
    const text = ((b.prelude ?? "") + b.code).replace(/from "([^"]+)"/g, (all, s: string) => {
      const src = source(s);
      return src === null ? all : `from ${JSON.stringify(pathToFileURL(join(root, src)).href)}`;
    });
    writeFileSync(file, text);
    const printed: string[] = [];
    // As console.log prints (strings as they are, anything else inspected), less its format directives.
    const log = vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => {
      printed.push(values.map((v) => (typeof v === "string" ? v : inspect(v))).join(" "));
    });
    const day = DAY[b.page];
    if (day !== undefined) {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date(day));
    }
    try {
      await import(pathToFileURL(file).href);
    } finally {
      if (day !== undefined) vi.useRealTimers();
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(printed.join("\n") + "\n").toBe(b.output);
  },
  120_000,
);
