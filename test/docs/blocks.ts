// The code blocks of the README and of docs/*.md, as test/docs/examples.test.ts checks them.
//
// A ```ts or ```js block is checked when it is complete (its first line of code is an import) or
// when a prelude comment right above its fence makes it so:
//
//   <!-- prelude
//   import { Loom } from "ctxloom";
//   declare const chat: Awaited<ReturnType<...>>;
//   -->
//
// The prelude is code the reader does not see (GitHub shows no HTML comment): what the text
// around a fragment gives it (a `chat`, the app's `currentUser`). A ```ts block whose next block
// is a ```text block prints that text when it runs.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** One fenced block of a page. */
export interface Block {
  /** The page, from the project's root ("README.md", "docs/sdks.md"). */
  page: string;
  /** The fence's language ("ts", "text", "" for none). */
  lang: string;
  /** The block's text, its indentation removed, ending with a newline. */
  code: string;
  /** The line of its opening fence (1-based). */
  line: number;
  /** The prelude comment right above the fence, if any. */
  prelude: string | undefined;
  /** For a ts block followed by a ```text block: that text, which running the block prints. */
  output: string | undefined;
}

/** The README and every page of docs/. */
export function pages(): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  return ["README.md", ...docs.map((f) => `docs/${f}`)];
}

/** The fenced blocks of a page, in order. */
export function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(root, page), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j] !== `${indent}\`\`\``) body.push(lines[j++]!.slice(indent.length));
    if (j === lines.length) throw new Error(`${page}:${i + 1}: a fence that never closes`);
    const prelude = preludeAbove(lines, i, indent);
    blocks.push({ page, lang: open[2]!, code: body.join("\n") + "\n", line: i + 1, prelude, output: undefined });
    i = j;
  }
  blocks.forEach((b, k) => {
    const next = blocks[k + 1];
    if (b.lang === "ts" && next?.lang === "text") b.output = next.code;
  });
  return blocks;
}

/** The prelude comment ending on the line above line `at`, or undefined. */
function preludeAbove(lines: string[], at: number, indent: string): string | undefined {
  if (at === 0 || lines[at - 1]!.trim() !== "-->") return undefined;
  let k = at - 2;
  while (k >= 0 && !lines[k]!.trimStart().startsWith("<!--")) k--;
  if (k < 0 || lines[k]!.trim() !== "<!-- prelude") return undefined;
  return (
    lines
      .slice(k + 1, at - 1)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join("\n") + "\n"
  );
}

/** Whether a block's first line of code (past blank and comment lines) is an import. */
export function startsWithImport(code: string): boolean {
  const first = code.split("\n").find((l) => l.trim() !== "" && !l.trimStart().startsWith("//"));
  return first?.startsWith("import ") ?? false;
}
