#!/usr/bin/env node
// Regenerates the README's performance section from bench/results.json (written by
// `npm run bench`): every suite's README tables, the machine (CPU model, nproc), Node version,
// commit and date, and the scale chart (bench/scale.svg). The section is the text between
//   <!-- bench:start -->  and  <!-- bench:end -->
// and nothing else in the README changes.
//
// The tables come in three groups, like for like first: the engines against each other with the
// same counter (or none), then the counters against each other, and last, apart, the mixed
// configurations (engine and counter changed together, as shipped), whose ratios mix both. A
// table says its group in results.json (`comparison`); tables written before that are placed
// by COMPARISON below.
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

/** The README's groups, in order: what each compares, and what it says first. */
const GROUPS = {
  engines: {
    heading: "Engine against engine, the same counter",
    intro:
      "The WASM engine against the JS engine (and, where one exists, the code you would write without a library), " +
      "each given the same token counter, or none: the differences are the engines'. The server loop: 30,000 " +
      "requests (and one long window), 64 in flight, each appending the question, building the context and " +
      "appending the answer.",
  },
  counters: {
    heading: "Counter against counters",
    intro: "ctxloom's WebAssembly BPE counter against the JavaScript tokenizers, on the same texts and encoding.",
  },
  mixed: {
    heading: "Mixed configurations: engine and counter together",
    intro:
      "Each configuration changes the engine and the counter at once, as shipped: ctxloom's default (WASM engine, " +
      "WebAssembly BPE) against an all-TypeScript stack (JS engine, gpt-tokenizer). Their ratios mix the engine's " +
      "share and the counter's; the tables above give each alone.",
  },
  other: { heading: "Other measurements", intro: "" },
};

/** The group of a table results.json does not place (`comparison`), by suite (and title). */
function comparisonOf(suite, t) {
  if (t.comparison) return t.comparison;
  if (suite === "server") return /exact counts/.test(t.title) ? "mixed" : "engines";
  if (["context", "heap", "arena"].includes(suite)) return "engines";
  if (["tokens", "bpe", "tokens-long"].includes(suite)) return "counters";
  return "other";
}

/** Engine and counter of a configuration such as "pure TS: JS engine + gpt-tokenizer" (none without a "+"). */
function parts(configuration) {
  const [engine, counter] = configuration.replace(/^[^:]*:\s*/, "").replace(/\s*\([^)]*\)\s*$/, "").split(/\s+\+\s+/);
  return counter === undefined ? undefined : { engine, counter };
}

/** For a mixed table: the sentence saying no row runs two engines with one counter, when none does. */
function missingLikeForLike(t) {
  const at = t.columns.indexOf("configuration");
  if (at < 0) return undefined;
  const configs = t.rows.map((r) => parts(r[at] ?? "")).filter((c) => c !== undefined);
  const paired = configs.some((a) => configs.some((b) => a.counter === b.counter && a.engine !== b.engine && /engine/.test(a.engine) && /engine/.test(b.engine)));
  if (paired) return undefined;
  const counters = [...new Set(configs.map((c) => c.counter))];
  return (
    `Not measured: this loop with both engines on one counter (${counters.join(" or ")}): bench/results.json has no such run, ` +
    "so the engines' share of these ratios is read from the loop above, with the 4-characters estimate on both."
  );
}

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
for (const [group, { heading, intro }] of Object.entries(GROUPS)) {
  const tables = names.flatMap((name) => (results.suites[name].readme ?? []).filter((t) => comparisonOf(name, t) === group));
  if (tables.length === 0) continue;
  out.push(`### ${heading}`, "");
  if (intro) out.push(intro, "");
  for (const t of tables) {
    out.push(`**${t.title}**`, "", table(t), "");
    if (t.note) out.push(t.note, "");
    const missing = group === "mixed" ? missingLikeForLike(t) : undefined;
    if (missing) out.push(missing, "");
  }
}
out.push(END);
writeFileSync(readmeFile, readme.slice(0, start) + out.join("\n") + readme.slice(end + END.length));
console.log(`${readmeFile}: performance section regenerated from ${resultsFile}`);
