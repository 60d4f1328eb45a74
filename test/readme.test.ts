// The README's usage example runs as written, and prints the usage its comment shows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, test, vi } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

test("the README's usage example runs and prints the usage it claims", async () => {
  const usage = readme.slice(readme.indexOf("## Usage"));
  const code = usage.slice(usage.indexOf("```ts\n") + 6, usage.indexOf("```\n", usage.indexOf("```ts\n")));
  const claimed = /console\.log\(ctx\.usage\);\s*\/\/ (\{.*\})/.exec(code)?.[1];
  expect(claimed, "the example shows the usage it prints").toBeDefined();

  const dir = mkdtempSync(join(tmpdir(), "ctxloom-readme-"));
  const file = join(dir, "example.ts");
  writeFileSync(
    file,
    code.replace(`from "ctxloom"`, `from ${JSON.stringify(pathToFileURL(join(root, "src/index.ts")).href)}`),
  );
  const printed: unknown[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((value: unknown) => void printed.push(value));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
  const asObject = new Function(`return (${claimed});`)() as Record<string, number>;
  expect(printed[1]).toEqual(asObject);
  expect((printed[0] as { role: string }[]).at(-1)).toEqual({ role: "user", content: "And tonight?" });
});
