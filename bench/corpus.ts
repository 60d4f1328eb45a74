// Texts for the benches: every message of the 100 real OASST conversation trees in
// ../shared/data (read at run time, never copied), or synthetic ones when it is absent.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "../../shared/data/oasst/en_100_tree.jsonl");

export function corpus(): string[] {
  if (!existsSync(DATA)) {
    console.warn(`(${DATA} is absent: synthetic texts)`);
    return Array.from(
      { length: 500 },
      (_, i) => `Message ${i}: ${"a fairly ordinary sentence about travel plans. ".repeat(1 + (i % 9))}`,
    );
  }
  const texts: string[] = [];
  const visit = (node: { text: string; replies?: unknown[] }) => {
    texts.push(node.text);
    for (const r of node.replies ?? []) visit(r as typeof node);
  };
  for (const line of readFileSync(DATA, "utf8").split("\n")) if (line.trim()) visit(JSON.parse(line).prompt);
  return texts;
}
