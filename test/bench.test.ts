// `npm run bench:smoke` in the suite: every bench suite runs at a tiny size, each in its own
// process, and writes its report; the benchmark pages' script renders those results. This proves
// the suites and the harness work on every CI run. Nothing here looks at a timing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = mkdtempSync(join(tmpdir(), "ctxloom-bench-smoke-"));
const suites = readdirSync(join(root, "bench"))
  .filter((f) => f.endsWith(".bench.ts"))
  .map((f) => f.replace(/\.bench\.ts$/, ""))
  .sort();

interface Results {
  machine: { cpu: string; nproc: number; node: string; commit: string; date: string };
  suites: Record<
    string,
    {
      name: string;
      seconds: number;
      tables: { rows: unknown[] }[];
      goals: { goal: string }[];
      markdown: string;
      readme?: { columns: string[]; rows: string[][]; title: string }[];
    }
  >;
}
let results: Results;

beforeAll(() => {
  execFileSync(
    process.execPath,
    [
      "--import",
      pathToFileURL(join(root, "bench/ts-loader.mjs")).href,
      join(root, "bench/index.ts"),
      "--smoke",
      "--out",
      out,
    ],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
      // About 60 s of CPU here (78 s before the smoke sizes were trimmed), two suites at a time, the
      // longest first; a busy machine takes longer.
      timeout: 420_000,
    },
  );
  results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Results;
  // Which suites the smoke spends its time on (no test: timings are no test), to keep it small.
  console.log(
    `bench:smoke seconds per suite: ${Object.entries(results.suites)
      .map(([name, s]) => `${name} ${s.seconds.toFixed(1)}`)
      .join(", ")}`,
  );
}, 430_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("bench:smoke", () => {
  test("finds the suites", () => {
    expect(suites).toEqual(expect.arrayContaining(["arena", "context", "heap", "server", "tokens"]));
  });

  test.each(suites)("suite %s ran and reported tables, goals and markdown", (name) => {
    const s = results.suites[name]!;
    expect(s.name).toBe(name);
    expect(s.tables.length).toBeGreaterThan(0);
    for (const t of s.tables) expect(t.rows.length).toBeGreaterThan(0);
    expect(s.goals.length).toBeGreaterThan(0);
    expect(s.markdown.length).toBeGreaterThan(0);
    expect(readFileSync(join(out, "results", `${name}.md`), "utf8")).toBe(s.markdown + "\n");
    for (const t of s.readme ?? []) for (const row of t.rows) expect(row).toHaveLength(t.columns.length);
  });

  test("the long-text suite runs at its smoke sizes (its full ones, gpt-tokenizer on 100k characters and 10 MiB texts, take minutes)", () => {
    const goals = results.suites["tokens-long"]!.goals.map((g) => g.goal);
    expect(goals).toContain("count 10k / 1k chars (n log n, not n^2)");
    expect(goals.join("\n")).not.toContain("10 MiB");
  });

  test("results name the machine, Node, commit and date", () => {
    expect(results.machine.nproc).toBeGreaterThan(0);
    expect(results.machine.node).toBe(process.version);
    expect(results.machine.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("the scale chart is an SVG with a line per engine in each panel", () => {
    const svg = readFileSync(join(out, "scale.svg"), "utf8");
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(4);
  });

  test("scripts/bench-table.mjs writes the README's summary between its markers and nothing else, and docs/benchmarks.md whole", () => {
    const readme = join(out, "README.md");
    writeFileSync(readme, "# title\n\nbefore\n\n<!-- bench:start -->\nold\n<!-- bench:end -->\n\nafter\n");
    execFileSync(process.execPath, [join(root, "scripts/bench-table.mjs"), join(out, "results.json"), readme], {
      stdio: "ignore",
    });
    const text = readFileSync(readme, "utf8");
    expect(text.startsWith("# title\n\nbefore\n\n<!-- bench:start -->\n")).toBe(true);
    expect(text.endsWith("<!-- bench:end -->\n\nafter\n")).toBe(true);
    expect(text).not.toContain("\nold\n");
    expect(text).toContain(`Node ${process.version}`);
    const page = readFileSync(join(out, "docs/benchmarks.md"), "utf8");
    expect(page).toContain(`Node ${process.version}`);
    for (const s of Object.values(results.suites))
      for (const t of s.readme ?? []) expect(page).toContain(`**${t.title}**`);
  });
});
