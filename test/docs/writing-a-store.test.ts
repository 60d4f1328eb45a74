// docs/writing-a-store.md writes a store (mapStore, in a Map) and runs the store contract on it:
// that block, exactly as the page shows it, is run here. It must print that it passed every case
// the contract holds for a store without the optional methods, and each case passes again here as
// a test of its own, on the page's mapStore.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test, vi } from "vitest";
import { memoryStore, type Store } from "../../src/store-entry.js";
import { storeContract, type OptionalStoreMethod } from "../../src/store-contract.js";
import { blocksOf, root } from "./blocks.js";

const exportsMap = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<
  string,
  { types?: string }
>;
/** "ctxloom/store" -> the file:// address of src/store-entry.ts. */
const source = (specifier: string): string | null => {
  if (specifier !== "ctxloom" && !specifier.startsWith("ctxloom/")) return null;
  const types = exportsMap[specifier === "ctxloom" ? "." : `./${specifier.slice("ctxloom/".length)}`]!.types!;
  return pathToFileURL(join(root, "src", types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts"))).href;
};

const blocks = blocksOf("docs/writing-a-store.md");
const block = blocks.find((b) => b.lang === "ts" && b.code.includes("export function mapStore("));
const dir = mkdtempSync(join(root, "test", ".store-doc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = join(dir, "map-store.ts");
writeFileSync(
  file,
  block!.code.replace(/from "([^"]+)"/g, (all, s: string) =>
    source(s) === null ? all : `from ${JSON.stringify(source(s))}`,
  ),
);
const printed: string[] = [];
const log = vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => void printed.push(values.join(" ")));
const page = (await import(pathToFileURL(file).href).finally(() => log.mockRestore())) as { mapStore: () => Store };

const NONE: OptionalStoreMethod[] = [
  "redactMessages",
  "eraseUser",
  "pruneChats",
  "markEmbeddingsCleared",
  "loadEmbeddingsCleared",
  "loadMemory",
  "loadMemoryHistory",
  "writeMemory",
  "deleteMemory",
];

describe("docs/writing-a-store.md: the page's store and the contract", () => {
  test("the page's block runs every case of the contract without the optional methods, and prints that they all passed", () => {
    const count = storeContract(memoryStore, { without: NONE }).length;
    expect(count).toBeGreaterThanOrEqual(20);
    expect(printed).toEqual([`${count} of ${count} cases passed`]);
    expect(block!.output).toBe(`${count} of ${count} cases passed\n`);
  });

  for (const c of storeContract(page.mapStore, { without: NONE })) test(c.name, c.run);

  test("the page's store fails the cases of a method it lacks, saying so", async () => {
    const redact = storeContract(page.mapStore).find((c) => c.uses.includes("redactMessages"))!;
    await expect(redact.run()).rejects.toThrow(/no redactMessages/);
  });
});
