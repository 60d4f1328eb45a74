#!/usr/bin/env node
// Regenerates the README's performance section from bench/results.json (written by
// `npm run bench`): every suite's README tables, the machine (CPU model, nproc), Node version,
// commit and date, and the scale chart (bench/scale.svg). The section is the text between
//   <!-- bench:start -->  and  <!-- bench:end -->
// and nothing else in the README changes.
//
//   node scripts/bench-table.mjs [results.json] [README.md]

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsFile = process.argv[2] ?? join(root, "bench/results.json");
const readmeFile = process.argv[3] ?? join(root, "README.md");
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
/** Suites in the order the README shows them; any other suite follows, by name. */
const ORDER = ["server", "context", "heap", "arena", "tokens"];

const results = JSON.parse(readFileSync(resultsFile, "utf8"));
const readme = readFileSync(readmeFile, "utf8");
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`${readmeFile} has no ${START} ... ${END} section`);

const cell = (s) => String(s).replace(/\|/g, "\\|");
const table = (t) => {
  const right = t.rows.length > 0 ? t.columns.map((_, i) => i > 0 && t.rows.every((r) => /^[\d.,<>~ -]+(x|%| ?[µm]?s| ?[KMG]?i?B)?$/.test(r[i] ?? ""))) : [];
  return [
    `| ${t.columns.map(cell).join(" | ")} |`,
    `|${t.columns.map((_, i) => (right[i] ? "---:" : "---")).join("|")}|`,
    ...t.rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
};

const names = Object.keys(results.suites).sort((a, b) => {
  const ia = ORDER.indexOf(a) < 0 ? ORDER.length : ORDER.indexOf(a);
  const ib = ORDER.indexOf(b) < 0 ? ORDER.length : ORDER.indexOf(b);
  return ia - ib || a.localeCompare(b);
});
// One line for the machine; the commit and date per suite when runs differ.
const first = results.suites[names[0]]?.machine ?? results.machine;
const runsOf = new Map();
for (const n of names) {
  const m = results.suites[n].machine;
  const key = `commit ${m.commit || "unknown"}, ${m.date}`;
  runsOf.set(key, [...(runsOf.get(key) ?? []), n]);
}
const when = runsOf.size === 1 ? [...runsOf.keys()][0] : [...runsOf].map(([k, ns]) => `${k} (${ns.join(", ")})`).join("; ");
const out = [START, ""];
out.push(`Measured by \`npm run bench\` on ${first.cpu}, nproc ${first.nproc}, Node ${first.node}; ${when}`);
const loads = names.filter((n) => results.suites[n].machine.load !== undefined).map((n) => `${n} ${results.suites[n].machine.load}`);
out.push(`(a machine shared with other work${loads.length ? `; its load average as each suite started: ${loads.join(", ")}` : ""}:`);
out.push(`ratios are steadier than absolute figures). Regenerate this section with`);
out.push("`node scripts/bench-table.mjs` after a run; every suite's full tables and goals are in [bench/results/](bench/results/).");
out.push("");
out.push(`![Build time and memory per message against history size, WASM and JS engines](bench/scale.svg)`);
out.push("");
for (const name of names) {
  for (const t of results.suites[name].readme ?? []) {
    out.push(`**${t.title}**`, "", table(t), "");
    if (t.note) out.push(t.note, "");
  }
}
out.push(END);
writeFileSync(readmeFile, readme.slice(0, start) + out.join("\n") + readme.slice(end + END.length));
console.log(`${readmeFile}: performance section regenerated from ${resultsFile}`);
