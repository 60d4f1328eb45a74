// The README's Recall example runs as written and prints exactly the output shown under it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatWithOptions } from "node:util";
import { expect, test, vi } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

test("the README's Recall example prints the output it shows", async () => {
  const section = readme.slice(readme.indexOf("## Recall"));
  const start = section.indexOf("```ts\n") + 6;
  const code = section.slice(start, section.indexOf("```\n", start));
  const outStart = section.indexOf("```\n", section.indexOf("prints (the real output")) + 4;
  const shown = section.slice(outStart, section.indexOf("```\n", outStart));

  const dir = mkdtempSync(join(tmpdir(), "ctxloom-readme-recall-"));
  const file = join(dir, "example.ts");
  writeFileSync(file, code.replace(`from "ctxloom"`, `from ${JSON.stringify(pathToFileURL(join(root, "src/index.ts")).href)}`));
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(formatWithOptions({ colors: false }, ...args)));
  // The recalled transcript shows the day each message was said: the README's day.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2025-03-14T10:00:00Z"));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    vi.useRealTimers();
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
  expect(lines.join("\n") + "\n").toBe(shown);
}, 60_000);
