// Lines of at most 120 characters in src/ and assembly/ (the formatter's width, `biome format`,
// which does not wrap comments or split strings): code, comments and strings alike, found by a
// scan of the source. A multi-line template literal (an SQL statement, a prompt) is text whose
// lines are what they say, and stays as written. Generated files are left out.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const WIDTH = 120;
const GENERATED = new Set([
  "src/engine/core-wasm.ts",
  "src/engine/layout.ts",
  "assembly/layout.ts",
  "assembly/lexical-layout.ts",
  "assembly/bpe/layout.ts",
]);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/**
 * The lines of `text` (0-based) inside a template literal that spans lines, found by a scan that
 * knows comments, strings, templates with their \${} nesting, and regex literals (a slash where
 * an expression starts).
 */
function templateLines(text: string): Set<number> {
  const lines = new Set<number>();
  const stack: ("template" | "code")[] = []; // open templates and the \${ } code inside them
  let line = 0;
  let templateFrom = -1;
  let last = ""; // the last code character that is not a space
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    const inTemplate = stack[stack.length - 1] === "template";
    if (inTemplate) {
      if (c === "\\") i++;
      else if (c === "`") {
        stack.pop();
        if (line > templateFrom && stack.length === 0) for (let l = templateFrom; l <= line; l++) lines.add(l);
        last = "`";
      } else if (c === "$" && text[i + 1] === "{") {
        stack.push("code");
        i++;
        last = "{";
      }
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      line++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const to = close < 0 ? text.length : close + 2;
      for (let k = i; k < to; k++) if (text[k] === "\n") line++;
      i = to - 1;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== "\n"; i++) if (text[i] === "\\") i++;
      last = c;
      continue;
    }
    if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last))) {
      let inClass = false;
      for (i++; i < text.length && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
        else if (text[i] === "/" && !inClass) break;
      }
      last = "/";
      continue;
    }
    if (c === "`") {
      if (stack.length === 0) templateFrom = line;
      stack.push("template");
      continue;
    }
    if (c === "}" && stack[stack.length - 1] === "code") {
      stack.pop();
      last = "}";
      continue;
    }
    if (c === "{" && stack.length > 0) stack.push("code");
    if (!/\s/.test(c)) last = c;
  }
  return lines;
}

/** The 1-based numbers of the lines over `width` characters, outside multi-line template literals. */
function longLines(text: string, width = WIDTH): number[] {
  const inTemplate = templateLines(text);
  const long: number[] = [];
  text.split("\n").forEach((line, i) => {
    if ([...line].length > width && !inTemplate.has(i)) long.push(i + 1);
  });
  return long;
}

describe("line width", () => {
  test("finds a long line of code, comment or string, and leaves a multi-line template's lines", () => {
    const long = "x".repeat(130);
    const text = [
      `const a = 1; // ${long}`,
      "const sql = `SELECT",
      `  ${long}`,
      "`;",
      `const s = "${long}";`,
      "const ok = 2;",
    ].join("\n");
    expect(longLines(text)).toEqual([1, 5]);
    expect(longLines(`const é = "${"é".repeat(100)}";`)).toEqual([]); // characters, not bytes
  });

  test.each(["src", "assembly"])("every line of %s/ within 120 characters", (dir) => {
    const found = sources(join(root, dir))
      .filter((f) => !GENERATED.has(relative(root, f)))
      .flatMap((f) => longLines(readFileSync(f, "utf8")).map((n) => `${relative(root, f)}:${n}`));
    expect(found).toEqual([]);
  });
});
