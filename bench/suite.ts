// Runs ONE suite in this process and writes its report as JSON to a file:
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/suite.ts <bench/name.bench.ts> <out.json> [--smoke]
//
// bench/index.ts spawns one of these per suite, so no suite's heap, JIT state or GC threads
// disturb the next. The suite is the file's default export or its export named run...Suite.

import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { SuiteOptions, SuiteReport } from "./report.js";

const [file, out, ...flags] = process.argv.slice(2);
if (!file || !out) throw new Error("usage: bench/suite.ts <suite file> <out.json> [--smoke]");
const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
const run = (mod.default ??
  Object.entries(mod).find(([name, v]) => /^run\w*Suite$/.test(name) && typeof v === "function")?.[1]) as
  | ((options: SuiteOptions) => Promise<SuiteReport>)
  | undefined;
if (typeof run !== "function") throw new Error(`${file} exports no run...Suite function`);
const smoke = flags.includes("--smoke");
if (smoke) process.env.CTXLOOM_BENCH_SMOKE = "1"; // for suites that read the size from the environment
const report = await run({ smoke });
writeFileSync(out, JSON.stringify(report));
