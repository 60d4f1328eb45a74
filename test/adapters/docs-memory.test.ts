// Issue 34, item 5: docs/memory.md's example (an agent that learns a user's preference in one chat
// and uses it in a new one, with the AI SDK's mock model) runs as written (imports pointed at src/)
// and prints exactly the output shown under it; test/docs/examples.test.ts type-checks it and runs it too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { expect, test, vi } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(join(root, "docs/memory.md"), "utf8");
const blocks = [...doc.matchAll(/```(ts|text)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const examples = blocks.flatMap((b, i) => (b.lang === "ts" && blocks[i + 1]?.lang === "text" ? [{ code: b.body, output: blocks[i + 1]!.body }] : []));
const ENTRIES: Record<string, string> = { ctxloom: "index.ts", "ctxloom/ai-sdk": "ai-sdk.ts", "ctxloom/openai": "openai.ts", "ctxloom/anthropic": "anthropic.ts" };

test("the page has its example, and links from the README", () => {
  expect(examples.filter((e) => e.code.includes("aiSdkMemoryTool(") && e.code.includes("MockLanguageModelV4"))).toHaveLength(1);
  expect(readFileSync(join(root, "README.md"), "utf8")).toContain("](docs/memory.md)");
});

test.each(examples.map((e, i) => [i, e] as const))("example %i prints what docs/memory.md shows", async (_i, { code, output }) => {
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-docs-memory-"));
  const file = join(dir, "example.ts");
  writeFileSync(file, code.replace(/from "(ctxloom[^"]*)"/g, (_m, name: string) => `from ${JSON.stringify(pathToFileURL(join(root, "src", ENTRIES[name]!)).href)}`));
  const printed: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => {
    printed.push(values.map((v) => (typeof v === "string" ? v : inspect(v))).join(" "));
  });
  try {
    await import(pathToFileURL(file).href);
  } finally {
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
  expect(printed.join("\n") + "\n").toBe(output);
}, 60_000);
