// docs/benchmarks.md leads with like-for-like figures: scripts/bench-table.mjs puts the engines
// against each other with one counter first, then the counters against each other, and the mixed
// configurations (engine and counter changed together) apart, last, saying when no row runs both
// engines on one counter. The README gets one summary table, with the machine, Node and dates.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";

const root = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "ctxloom-bench-table-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const machine = { cpu: "test CPU", nproc: 2, node: process.version, commit: "abc1234", date: "2026-01-01" };
const COLUMNS = ["resident messages", "configuration", "requests/s"];
const readmeTable = (title: string, rows: string[][], extra: Record<string, unknown> = {}) => ({
  title,
  columns: COLUMNS,
  rows,
  note: `${title}: note`,
  ...extra,
});

/** What the generator writes for these suites' README tables: the README and docs/benchmarks.md beside it. */
function generate(
  suites: Record<string, unknown[]>,
  machines: Record<string, typeof machine> = {},
): { readme: string; page: string } {
  const suite = (name: string, readme: unknown[]) => [name, { machine: machines[name] ?? machine, tables: [], readme }];
  const results = {
    machine,
    suites: Object.fromEntries(Object.entries(suites).map(([name, readme]) => suite(name, readme))),
  };
  const file = join(dir, "results.json");
  const readme = join(dir, "README.md");
  writeFileSync(file, JSON.stringify(results));
  writeFileSync(readme, "# t\n\n<!-- bench:start -->\n<!-- bench:end -->\n");
  execFileSync(process.execPath, [join(root, "scripts/bench-table.mjs"), file, readme], { stdio: "ignore" });
  return { readme: readFileSync(readme, "utf8"), page: readFileSync(join(dir, "docs/benchmarks.md"), "utf8") };
}

/** docs/benchmarks.md as the generator writes it for these suites. */
const section = (suites: Record<string, unknown[]>): string => generate(suites).page;

const EXACT = "The server loop, exact counts";
const ESTIMATE = "The same loop with counts by the 4-characters estimate";
const COUNTERS = "Counters, o200k_base";
const MIXED_ROWS = [
  ["1,000,000", "WASM: WASM engine + WASM BPE", "34,951"],
  ["1,000,000", "pure TS: JS engine + gpt-tokenizer", "5,145"],
  ["1,000,000", "plain arrays + gpt-tokenizer (no library)", "16,696"],
];
const SAME_ROWS = [
  ["1,000,000", "WASM engine", "40,891"],
  ["1,000,000", "JS engine", "7,899"],
];

describe("scripts/bench-table.mjs", () => {
  test("like for like first: engines with one counter, then counters; the mixed configurations apart, last", () => {
    // As the server suite writes them: the mixed table before the like-for-like one.
    const text = section({
      server: [readmeTable(EXACT, MIXED_ROWS), readmeTable(ESTIMATE, SAME_ROWS)],
      context: [readmeTable("A request's context as the history grows", [])],
      tokens: [
        readmeTable(COUNTERS, [
          ["WASM BPE", "89.2"],
          ["gpt-tokenizer", "9.98"],
        ]),
      ],
    });
    const at = (s: string) => {
      expect(text).toContain(s);
      return text.indexOf(s);
    };
    const order = [
      at("## Engine against engine, the same counter"),
      at(`**${ESTIMATE}**`),
      at("**A request's context as the history grows**"),
      at("## Counter against counters"),
      at(`**${COUNTERS}**`),
      at("## Mixed configurations: engine and counter together"),
      at(`**${EXACT}**`),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Every table keeps its note; the mixed one says the like-for-like run is missing.
    expect(text).toContain(`${EXACT}: note`);
    expect(text).toContain(
      "Not measured: this loop with both engines on one counter (WASM BPE or gpt-tokenizer): bench/results.json has no such run",
    );
  });

  test("no 'not measured' line when the mixed table has both engines on one counter", () => {
    const text = section({
      server: [readmeTable(EXACT, [...MIXED_ROWS, ["1,000,000", "JS engine + WASM BPE", "9,000"]])],
    });
    expect(text).toContain(`**${EXACT}**`);
    expect(text).not.toContain("Not measured");
  });

  test("a table that says its comparison is placed by it", () => {
    const text = section({
      server: [readmeTable("Counted apart", SAME_ROWS, { comparison: "counters" })],
      arena: [readmeTable("The arena", [])],
    });
    expect(text.indexOf("## Counter against counters")).toBeLessThan(text.indexOf("**Counted apart**"));
    expect(text.indexOf("**The arena**")).toBeLessThan(text.indexOf("## Counter against counters"));
  });
});

describe("the README's summary", () => {
  const SERVER = ["resident messages", "requests", "in flight", "configuration", "requests/s"];
  const server = (rows: string[][]) => ({
    title: `${EXACT.replace(", exact counts", "")}: 30,000 requests, exact counts`,
    columns: SERVER,
    rows,
  });
  const ROWS = [
    ["1,000,000", "30,000", "64", "WASM: WASM engine + WASM BPE", "44,062"],
    ["1,000,000", "30,000", "64", "pure TS: JS engine + gpt-tokenizer", "6,269"],
    ["1,000,000", "30,000", "64", "plain arrays + WASM BPE (no library, same counter)", "56,356"],
    ["100,000", "30,000", "64", "WASM: WASM engine + WASM BPE", "1"],
  ];
  const COUNTER_COLUMNS = ["backend", "load", "MB of text / s"];
  const counters = {
    title: "Counters, o200k_base, on 1167 texts",
    columns: COUNTER_COLUMNS,
    rows: [
      ["ctxloom's WebAssembly BPE (default)", "21.9 ms", "90.1"],
      ["gpt-tokenizer (fallback)", "411 ms", "11.1"],
    ],
  };

  test("one table between the markers: ctxloom's figure, the other's, the ratio; the machine, Node and dates under it", () => {
    const { readme } = generate(
      { server: [server(ROWS)], tokens: [counters] },
      { tokens: { ...machine, date: "2026-02-03" } },
    );
    const summary = readme.slice(readme.indexOf("<!-- bench:start -->"), readme.indexOf("<!-- bench:end -->"));
    expect(readme.startsWith("# t\n\n<!-- bench:start -->\n")).toBe(true);
    expect(summary.match(/^\| measured \| ctxloom \| against \|/gm)).toHaveLength(1);
    // The rows at 1,000,000 resident, 64 in flight: the all-TypeScript stack and no library, each against ctxloom's.
    expect(summary).toContain("| 44,062 | 6,269: all TypeScript (JS engine, gpt-tokenizer) | 7.0x |");
    expect(summary).toContain(
      "| 44,062 | 56,356: plain arrays, the same counter (no tree, branches, priorities or tool units) | 0.78x |",
    );
    expect(summary).toContain("| 90.1 | 11.1: gpt-tokenizer | 8.1x |");
    expect(summary).toContain(`on test CPU (nproc 2), Node ${process.version}, 2026-01-01 to 2026-02-03`);
    expect(summary).toContain("[docs/benchmarks.md](docs/benchmarks.md)");
  });

  test("a row whose suite did not run is left out; with none, a line pointing to the page", () => {
    const some = generate({ tokens: [counters] }).readme;
    expect(some).toContain("| 90.1 | 11.1: gpt-tokenizer | 8.1x |");
    expect(some).not.toContain("requests a second");
    const none = generate({ arena: [readmeTable("The arena", [])] }).readme;
    expect(none).not.toContain("| measured |");
    expect(none).toContain("[docs/benchmarks.md](docs/benchmarks.md)");
  });
});
