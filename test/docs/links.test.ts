// The README is the front door: every page of docs/ is reached from it by links, and every link
// of the README and docs/ leads somewhere: a file of the repository, and where it names a
// heading (#anchor), a heading of that page (as GitHub makes anchors of headings).
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { expect, test } from "vitest";
import { pages, root } from "./blocks.js";

/** The page's text without its fenced blocks (a link in code is no link). */
const prose = (page: string) => readFileSync(join(root, page), "utf8").replace(/^( *)```[\s\S]*?^\1```$/gm, "");

/** GitHub's anchors of a page's headings: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, title] of prose(page).matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = title!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The local links of a page: [file (from the root), anchor or undefined]. */
function links(page: string): [string, string | undefined][] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      return [path === "" ? page : normalize(relative(root, join(root, dirname(page), path))), anchor];
    });
}

test.each(pages())("every link of %s leads to a file, and to a heading it names", (page) => {
  const broken: string[] = [];
  for (const [file, anchor] of links(page)) {
    if (!existsSync(join(root, file))) broken.push(`${file}: no such file`);
    else if (anchor !== undefined && file.endsWith(".md") && !anchors(file).has(anchor))
      broken.push(`${file}#${anchor}: no such heading`);
  }
  expect(broken).toEqual([]);
});

test("every page of docs/ is reached from the README", () => {
  const reached = new Set(["README.md"]);
  const queue = ["README.md"];
  while (queue.length > 0) {
    const page = queue.shift()!;
    for (const [file] of links(page)) {
      const target =
        existsSync(join(root, file)) && statSync(join(root, file)).isDirectory() ? join(file, "README.md") : file;
      if (target.endsWith(".md") && existsSync(join(root, target)) && !reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  expect(pages().filter((p) => !reached.has(p))).toEqual([]);
  // The README links each topic's page itself, not only through the index.
  const direct = new Set(links("README.md").map(([file]) => file));
  const topics = pages().filter((p) => p.startsWith("docs/") && p !== "docs/README.md");
  expect(topics.filter((p) => !direct.has(p))).toEqual([]);
});
