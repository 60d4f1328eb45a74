// `npm run bench`: runs every suite, prints its tables and goals, and writes its markdown
// (the table for the README) to bench/results/<suite>.md. Goals are reported, never asserted.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runArenaSuite } from "./arena.bench.js";
import { runBpeSuite } from "./bpe.bench.js";
import { runContextSuite } from "./context.bench.js";
import { runTokensSuite } from "./tokens.bench.js";
import { runLongTokensSuite } from "./tokens-long.bench.js";

/** What a suite reports: tables to print, goals (reported, never asserted) and its markdown. */
interface SuiteReport {
  name: string;
  tables: { title: string; rows: Record<string, string | number>[] }[];
  goals: { goal: string; target: string; measured: string; pass: boolean }[];
  markdown: string;
}

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), "results");

const suites: { name: string; run: () => Promise<SuiteReport> }[] = [
  { name: "arena", run: runArenaSuite },
  { name: "context", run: runContextSuite },
  { name: "tokens", run: runTokensSuite },
  { name: "tokens-long", run: runLongTokensSuite },
  { name: "bpe", run: runBpeSuite },
];
const only = process.argv.slice(2);

const started = performance.now();
for (const suite of suites.filter((s) => only.length === 0 || only.includes(s.name))) {
  process.stderr.write(`suite ${suite.name}\n`);
  const report = await suite.run();
  for (const table of report.tables) {
    console.log(`\n${table.title}`);
    console.table(table.rows);
  }
  console.log(`\ngoals (${report.name})`);
  for (const g of report.goals) {
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  }
  console.log(`\n${report.markdown}`);
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `${report.name}.md`);
  writeFileSync(file, report.markdown + "\n");
  console.log(`written to ${file}`);
}
console.log(`\nbench done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
