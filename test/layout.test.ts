// No Node in the core: everything under src/ except src/store/sqlite* and src/cli/ must run on
// Workers, Deno and browsers, so it may not import Node modules (node:*, or bare builtins such
// as "fs") nor use Node's globals (process, Buffer, __dirname, __filename, require, global).
// Files are compiled to JavaScript first (esbuild drops types and comments), then read with a
// small scanner that blanks strings and comments, so neither a type nor a sentence trips it.
import { transformSync } from "esbuild";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_GLOBALS = ["process", "Buffer", "__dirname", "__filename", "require", "global"];
const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, "")));

/** Node-only code lives here, behind its own entry point. */
function exempt(path: string): boolean {
  return path.startsWith("src/cli/") || /^src\/store\/sqlite/.test(path);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

/** The JavaScript with string contents and comments blanked (template `${...}` code kept). */
function codeOnly(js: string): string {
  let out = "";
  let i = 0;
  const braces: number[] = []; // depth of `{` inside each open template substitution
  let prev = ""; // last significant character, to tell a regex literal from a division
  const skipQuoted = (quote: string) => {
    out += quote;
    for (i++; i < js.length && js[i] !== quote; i++) {
      if (js[i] === "\\") i++;
      out += " ";
    }
    out += quote;
    i++;
  };
  const template = () => {
    // At a backtick or at the `}` closing a substitution: blank text up to the next `${` or backtick.
    out += js[i];
    for (i++; i < js.length; i++) {
      if (js[i] === "\\") { i++; out += "  "; continue; }
      if (js[i] === "`") { out += "`"; i++; return; }
      if (js[i] === "$" && js[i + 1] === "{") { out += "${"; i += 2; braces.push(0); return; }
      out += js[i] === "\n" ? "\n" : " ";
    }
  };
  while (i < js.length) {
    const c = js[i]!;
    const next = js[i + 1];
    if (c === "/" && next === "/") { while (i < js.length && js[i] !== "\n") i++; continue; }
    if (c === "/" && next === "*") { const end = js.indexOf("*/", i + 2); i = end < 0 ? js.length : end + 2; out += " "; continue; }
    if (c === '"' || c === "'") { skipQuoted(c); prev = "a"; continue; }
    if (c === "`") { template(); prev = "a"; continue; }
    if (c === "{" && braces.length > 0) braces[braces.length - 1]!++;
    if (c === "}" && braces.length > 0) {
      if (braces[braces.length - 1] === 0) { braces.pop(); template(); prev = "a"; continue; }
      braces[braces.length - 1]!--;
    }
    if (c === "/" && (prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev))) {
      // A regex literal: blank it, including any class that holds a slash.
      out += "/";
      let inClass = false;
      for (i++; i < js.length && (js[i] !== "/" || inClass); i++) {
        if (js[i] === "\\") { i++; out += " "; }
        else if (js[i] === "[") inClass = true;
        else if (js[i] === "]") inClass = false;
        out += " ";
      }
      out += "/";
      i++;
      prev = "a";
      continue;
    }
    out += c;
    if (!/\s/.test(c)) prev = /[\w$)\]]/.test(c) ? "a" : c;
    i++;
  }
  return out;
}

/** What in `source` (TypeScript or JavaScript) ties it to Node, as "line: reason" strings. */
function nodeDependencies(source: string): string[] {
  const { code } = transformSync(source, {
    loader: "ts",
    format: "esm",
    target: "es2022",
    legalComments: "none",
    // As tsconfig.json: value imports stay even when unused, so none escapes the scan.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  const problems: string[] = [];
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  const specifiers = /(?:\bimport\s*(?:[\w$*{}\s,]+\bfrom\s*)?|\bexport\s*[\w$*{}\s,]*\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(["'])([^"']+)\1/g;
  for (const m of code.matchAll(specifiers)) {
    const spec = m[2]!;
    if (spec.startsWith("node:") || BUILTINS.has(spec.split("/")[0]!)) problems.push(`${lineOf(m.index)}: imports "${spec}"`);
  }
  const bare = codeOnly(code);
  const globals = new RegExp(`(?<![\\w$.]|\\?\\.)(${NODE_GLOBALS.join("|")})(?![\\w$])(?!\\s*:(?!:))`, "g");
  for (const m of bare.matchAll(globals)) problems.push(`${lineOf(m.index)}: uses Node's global ${m[1]}`);
  return problems;
}

describe("no Node in the core", () => {
  const files = sourceFiles(join(root, "src"))
    .map((path) => relative(root, path).split("\\").join("/"))
    .filter((path) => !exempt(path));

  test("the scan covers the core", () => {
    expect(files).toContain("src/index.ts");
    expect(files).toContain("src/index.workerd.ts");
    expect(files.some((f) => f.startsWith("src/cli/"))).toBe(false);
  });

  test.each(files)("%s uses no Node module or global", (path) => {
    expect(nodeDependencies(readFileSync(join(root, path), "utf8"))).toEqual([]);
  });

  test("the check itself catches imports and globals, and ignores strings, comments, types and properties", () => {
    const bad = [
      `import { readFileSync } from "node:fs";`,
      `import path from "path";`,
      `export { createHash } from "crypto";`,
      `const os = await import("node:os");`,
      `const x = require("fs/promises");`,
      `const env = process.env.HOME;`,
      "const t = `${Buffer.from('a')}`;",
      `const here = __dirname;`,
      `global.x = 1;`,
    ].join("\n");
    expect(nodeDependencies(bad).map((p) => p.replace(/^\d+: /, ""))).toEqual([
      `imports "node:fs"`, `imports "path"`, `imports "crypto"`, `imports "node:os"`, `imports "fs/promises"`,
      "uses Node's global require", "uses Node's global process", "uses Node's global Buffer",
      "uses Node's global __dirname", "uses Node's global global",
    ]);
    const fine = [
      `// process.env is not read here; Buffer neither`,
      `/** require() is for CommonJS */`,
      `const s = "process.exit() and __dirname";`,
      "const t = `global ${1 + 2} require`;",
      `const re = /process"|'/g;`,
      `const o = { process: 1, global: 2 };`,
      `const v = o.process + o?.global;`,
      `let n: NodeJS.Timeout | undefined;`,
      `import { thing } from "./process.js";`,
      `export function f(flags: { global?: boolean }) { return flags.global; }`,
    ].join("\n");
    expect(nodeDependencies(fine)).toEqual([]);
  });
});
