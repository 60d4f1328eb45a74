// Every string of ../shared/data (oasst and sharegpt jsonl, chatgpt, librechat and sharegpt
// json): the texts the exact counters are compared on. Empty (with a notice) when it is absent.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const dataDir = join(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");

/** All string values of every .json and .jsonl file under ../shared/data, deduplicated. */
export function sharedStrings(who: string): string[] {
  if (!existsSync(dataDir)) {
    console.warn(`${who}: ${dataDir} is absent; the shared-data comparisons have no texts.`);
    return [];
  }
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.add(v);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".jsonl"))
        for (const line of readFileSync(path, "utf8").split("\n")) line.trim() && walk(JSON.parse(line));
      else if (entry.name.endsWith(".json")) walk(JSON.parse(readFileSync(path, "utf8")));
    }
  };
  visit(dataDir);
  return [...out];
}
