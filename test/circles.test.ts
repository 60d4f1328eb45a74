// No import circles between the files of src/ and assembly/: every relative import, type-only
// ones included (a type import still ties two files together), read from the sources. A circle
// means two files that cannot be read, tested or moved one without the other.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every .ts file under `dir` (declarations left out). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^;"'`]*?from\s*["'](\.[^"']+)["']|(?:^|[\s;])import\s*["'](\.[^"']+)["']/g;

/** The files each file imports, among `files`. */
function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const to: string[] = [];
    for (const m of read(file).matchAll(IMPORT)) {
      const target = resolve(dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, ".ts");
      const path = target.endsWith(".ts") ? target : `${target}.ts`;
      if (known.has(path)) to.push(path);
    }
    graph.set(file, to);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan's). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import circles", () => {
  test("finds a circle, a type import's included, and none in a line of imports", () => {
    const files = ["/p/a.ts", "/p/b.ts", "/p/c.ts", "/p/d.ts"];
    const text: Record<string, string> = {
      "/p/a.ts": `import { b } from "./b.js";`,
      "/p/b.ts": `import type { C } from "./c.js";\nexport const b = 1;`,
      "/p/c.ts": `export type C = number;\nexport { a } from "./a.js";`,
      "/p/d.ts": `import "./a.js";`,
    };
    expect(circles(importGraph(files, (f) => text[f]!))).toEqual([["/p/a.ts", "/p/b.ts", "/p/c.ts"]]);
    text["/p/c.ts"] = "export type C = number;";
    expect(circles(importGraph(files, (f) => text[f]!))).toEqual([]);
  });

  test.each(["src", "assembly"])("none between the files of %s/", (dir) => {
    const files = sources(join(root, dir));
    expect(files.length).toBeGreaterThan(10);
    const found = circles(importGraph(files, (f) => readFileSync(f, "utf8")));
    expect(found.map((c) => c.map((f) => relative(root, f)).join(" -> "))).toEqual([]);
  });
});
