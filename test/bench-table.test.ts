// The README's performance section leads with like-for-like figures: scripts/bench-table.mjs
// puts the engines against each other with one counter first, then the counters against each
// other, and the mixed configurations (engine and counter changed together) apart, last, saying
// when no row runs both engines on one counter.
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
const readmeTable = (title: string, rows: string[][], extra: Record<string, unknown> = {}) => ({ title, columns: COLUMNS, rows, note: `${title}: note`, ...extra });

/** The section the generator writes for these suites' README tables. */
function section(suites: Record<string, unknown[]>): string {
  const results = { machine, suites: Object.fromEntries(Object.entries(suites).map(([name, readme]) => [name, { machine, tables: [], readme }])) };
  const file = join(dir, "results.json");
  const readme = join(dir, "README.md");
  writeFileSync(file, JSON.stringify(results));
  writeFileSync(readme, "# t\n\n<!-- bench:start -->\n<!-- bench:end -->\n");
  execFileSync(process.execPath, [join(root, "scripts/bench-table.mjs"), file, readme], { stdio: "ignore" });
  return readFileSync(readme, "utf8");
}

const EXACT = "The server loop, exact counts";
const ESTIMATE = "The same loop with counts by the 4-characters estimate";
const COUNTERS = "Counters, o200k_base";
const MIXED_ROWS = [["1,000,000", "WASM: WASM engine + WASM BPE", "34,951"], ["1,000,000", "pure TS: JS engine + gpt-tokenizer", "5,145"], ["1,000,000", "plain arrays + gpt-tokenizer (no library)", "16,696"]];
const SAME_ROWS = [["1,000,000", "WASM engine", "40,891"], ["1,000,000", "JS engine", "7,899"]];

describe("scripts/bench-table.mjs", () => {
  test("like for like first: engines with one counter, then counters; the mixed configurations apart, last", () => {
    // As the server suite writes them: the mixed table before the like-for-like one.
    const text = section({
      server: [readmeTable(EXACT, MIXED_ROWS), readmeTable(ESTIMATE, SAME_ROWS)],
      context: [readmeTable("A request's context as the history grows", [])],
      tokens: [readmeTable(COUNTERS, [["WASM BPE", "89.2"], ["gpt-tokenizer", "9.98"]])],
    });
    const at = (s: string) => {
      expect(text).toContain(s);
      return text.indexOf(s);
    };
    const order = [
      at("### Engine against engine, the same counter"), at(`**${ESTIMATE}**`), at("**A request's context as the history grows**"),
      at("### Counter against counters"), at(`**${COUNTERS}**`),
      at("### Mixed configurations: engine and counter together"), at(`**${EXACT}**`),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Every table keeps its note; the mixed one says the like-for-like run is missing.
    expect(text).toContain(`${EXACT}: note`);
    expect(text).toContain("Not measured: this loop with both engines on one counter (WASM BPE or gpt-tokenizer): bench/results.json has no such run");
  });

  test("no 'not measured' line when the mixed table has both engines on one counter", () => {
    const text = section({ server: [readmeTable(EXACT, [...MIXED_ROWS, ["1,000,000", "JS engine + WASM BPE", "9,000"]])] });
    expect(text).toContain(`**${EXACT}**`);
    expect(text).not.toContain("Not measured");
  });

  test("a table that says its comparison is placed by it", () => {
    const text = section({ server: [readmeTable("Counted apart", SAME_ROWS, { comparison: "counters" })], arena: [readmeTable("The arena", [])] });
    expect(text.indexOf("### Counter against counters")).toBeLessThan(text.indexOf("**Counted apart**"));
    expect(text.indexOf("**The arena**")).toBeLessThan(text.indexOf("### Counter against counters"));
  });
});
