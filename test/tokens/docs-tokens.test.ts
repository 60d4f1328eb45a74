// docs/tokens.md's runnable examples (a ```ts block followed by the ```text it prints) run as
// written, imports pointed at src/, and print exactly what the page shows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, test, vi } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/tokens.md"), "utf8");
const blocks = [...doc.matchAll(/```(ts|text)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const examples = blocks.flatMap((b, i) => (b.lang === "ts" && blocks[i + 1]?.lang === "text" ? [{ code: b.body, output: blocks[i + 1]!.body }] : []));
const ENTRIES: Record<string, string> = { ctxloom: "index.ts", "ctxloom/anthropic": "anthropic.ts" };

test("the page has its runnable examples", () => {
  expect(examples.filter((e) => e.code.includes("providerCounter"))).toHaveLength(1);
});

test.each(examples.map((e, i) => [i, e] as const))("example %i prints what docs/tokens.md shows", async (_i, { code, output }) => {
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-docs-tokens-"));
  const file = join(dir, "example.ts");
  writeFileSync(file, code.replace(/from "(ctxloom[^"]*)"/g, (_m, name: string) => `from ${JSON.stringify(pathToFileURL(join(root, "src", ENTRIES[name]!)).href)}`));
  const printed: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => void printed.push(values.map(String).join(" ")));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
  expect(printed.join("\n") + "\n").toBe(output);
}, 60_000);
