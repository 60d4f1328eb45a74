// `npm run bench`: runs every suite, prints its tables and goals, and writes its markdown
// (the table for the README) to bench/results/<suite>.md. Goals are reported, never asserted.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runArenaSuite, type SuiteReport } from "./arena.bench.js";

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), "results");

const suites: { name: string; run: () => Promise<SuiteReport> }[] = [{ name: "arena", run: runArenaSuite }];

const started = performance.now();
for (const suite of suites) {
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
