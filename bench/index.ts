// `npm run bench [suite...]`: runs every suite (bench/*.bench.ts), each in a process of its
// own, prints its tables, goals and ratios, and writes
//   bench/results.json        every suite's report with the machine, Node, commit and date
//   bench/results/<suite>.md  the suite's full markdown
//   bench/scale.svg           build time and memory against history size (bench/chart.ts)
// then regenerates docs/benchmarks.md and the README's summary (scripts/bench-table.mjs).
// Naming suites runs only those; their entries in results.json are replaced, the others kept.
//
// `npm run bench:smoke` (--smoke) runs every suite at a tiny size, to prove they work; it writes
// to a temporary folder (or --out <dir>) and never touches the committed results. Goals are
// reported as PASS / MISS, never asserted: timings are no test.

import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scaleChart } from "./chart.js";
import { TS_LOADER, machine, ROOT, type Machine, type SuiteReport } from "./report.js";

export interface Results {
  machine: Machine;
  suites: Record<string, SuiteReport & { seconds: number; machine: Machine }>;
}

const BENCH = join(ROOT, "bench");
const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const outAt = args.indexOf("--out");
const outDir = outAt >= 0 ? args[outAt + 1]! : smoke ? mkdtempSync(join(tmpdir(), "ctxloom-bench-")) : BENCH;
const named = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--out");

const all = readdirSync(BENCH)
  .filter((f) => f.endsWith(".bench.ts"))
  .map((f) => f.replace(/\.bench\.ts$/, ""))
  .sort();
const unknown = named.filter((n) => !all.includes(n));
if (unknown.length > 0) throw new Error(`no suite ${unknown.join(", ")}; suites: ${all.join(", ")}`);
const run = named.length > 0 ? named : all;

const resultsFile = join(outDir, "results.json");
const results: Results =
  existsSync(resultsFile) && !smoke
    ? (JSON.parse(readFileSync(resultsFile, "utf8")) as Results)
    : { machine: machine(), suites: {} };
mkdirSync(join(outDir, "results"), { recursive: true });

const started = performance.now();
// A full run measures: one suite at a time. The smoke proves the suites run, at a tiny size:
// two at a time (its timings are no measurement).
const jobs = smoke ? 2 : 1;
// The smoke starts its longest suites first (seconds each here, two at a time), so that the
// two lanes end together rather than one running the server suite alone at the end.
const SMOKE_LONGEST = ["server", "growth", "postgres", "context", "tokens", "bpe", "recall-quality", "recall-locomo"];
const rank = (name: string) => (SMOKE_LONGEST.includes(name) ? SMOKE_LONGEST.indexOf(name) : SMOKE_LONGEST.length);
const queue = smoke ? [...run].sort((a, b) => rank(a) - rank(b)) : [...run];
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await runSuite(name);
  }),
);

async function runSuite(name: string): Promise<void> {
  process.stderr.write(`suite ${name}${smoke ? " (smoke)" : ""}\n`);
  const t0 = performance.now();
  const before = machine(); // the load average as the suite starts
  const out = join(outDir, "results", `${name}.json.tmp`);
  const args = [
    "--expose-gc",
    "--import",
    TS_LOADER,
    "--max-old-space-size=8192",
    join(BENCH, "suite.ts"),
    join(BENCH, `${name}.bench.ts`),
    out,
  ];
  if (!smoke)
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] }); // its progress as it goes
  else {
    await new Promise<void>((done, fail) => {
      execFile(process.execPath, [...args, "--smoke"], { cwd: ROOT, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
        process.stdout.write(stdout); // (each suite's output whole: two run at once)
        process.stderr.write(stderr);
        if (error) fail(error);
        else done();
      });
    });
  }
  const report = JSON.parse(readFileSync(out, "utf8")) as SuiteReport;
  const seconds = (performance.now() - t0) / 1000;
  for (const table of report.tables) {
    console.log(`\n${table.title}`);
    console.table(table.rows);
  }
  console.log(`\ngoals (${report.name})`);
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  writeFileSync(join(outDir, "results", `${name}.md`), report.markdown + "\n");
  results.suites[name] = { ...report, seconds, machine: before };
  results.machine = machine();
  writeFileSync(resultsFile, JSON.stringify(results, null, 1) + "\n");
  rmSync(out, { force: true });
  console.log(`(${name}: ${seconds.toFixed(0)} s)`);
}

writeFileSync(join(outDir, "scale.svg"), scaleChart(Object.values(results.suites).flatMap((s) => s.scale ?? [])));
if (!smoke && outDir === BENCH) {
  execFileSync(process.execPath, [join(ROOT, "scripts/bench-table.mjs")], { cwd: ROOT, stdio: "inherit" });
}
console.log(`\nbench done in ${((performance.now() - started) / 1000).toFixed(0)} s; results in ${outDir}`);
