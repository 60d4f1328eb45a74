#!/usr/bin/env node
// Writes the benchmark pages from bench/results.json (written by `npm run bench`):
// - docs/benchmarks.md, whole: every suite's README tables, the machine (CPU model, nproc), Node
//   version, commit and date of each run, and the scale chart (bench/scale.svg);
// - the README's summary: one table of headline figures (SUMMARY below: ctxloom's against what
//   one would use otherwise, as shipped), with the machine, Node and dates, between
//     <!-- bench:start -->  and  <!-- bench:end -->
//   and nothing else in the README changes.
//
// The tables come in three groups, like for like first: the engines against each other with the
// same counter (or none), then the counters against each other, and last, apart, the mixed
// configurations (engine and counter changed together, as shipped), whose ratios mix both. A
// table says its group in results.json (`comparison`); tables written before that are placed
// by COMPARISON below.
//
//   node scripts/bench-table.mjs [results.json] [README.md] [benchmarks.md]
// (benchmarks.md defaults to docs/benchmarks.md beside the README given)

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsFile = process.argv[2] ?? join(root, "bench/results.json");
const readmeFile = process.argv[3] ?? join(root, "README.md");
const pageFile = process.argv[4] ?? join(dirname(readmeFile), "docs/benchmarks.md");
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
/** Suites in the order docs/benchmarks.md shows them; any other suite follows, by name. */
const ORDER = ["server", "context", "heap", "arena", "tokens"];

/** The groups of docs/benchmarks.md, in order: what each compares, and what it says first. */
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
  const [engine, counter] = configuration
    .replace(/^[^:]*:\s*/, "")
    .replace(/\s*\([^)]*\)\s*$/, "")
    .split(/\s+\+\s+/);
  return counter === undefined ? undefined : { engine, counter };
}

/** For a mixed table: the sentence saying no row runs two engines with one counter, when none does. */
function missingLikeForLike(t) {
  const at = t.columns.indexOf("configuration");
  if (at < 0) return undefined;
  const configs = t.rows.map((r) => parts(r[at] ?? "")).filter((c) => c !== undefined);
  const paired = configs.some((a) =>
    configs.some(
      (b) => a.counter === b.counter && a.engine !== b.engine && /engine/.test(a.engine) && /engine/.test(b.engine),
    ),
  );
  if (paired) return undefined;
  const counters = [...new Set(configs.map((c) => c.counter))];
  return (
    `Not measured: this loop with both engines on one counter (${counters.join(" or ")}): bench/results.json has no such run, ` +
    "so the engines' share of these ratios is read from the loop above, with the 4-characters estimate on both."
  );
}

/**
 * The README's summary: each row a figure of ctxloom's (the WASM engine and the WebAssembly counter,
 * as shipped) against the same figure of something else, both read from one README table of a
 * suite. `where` picks a row by its cells (a string matches a cell exactly, a RegExp tests it);
 * `better` says which way wins; `ratio` names a column that already gives the ratio.
 */
const SUMMARY = [
  {
    what: "requests a second, a server holding 1,000,000 messages (64 in flight: append, build, append)",
    suite: "server",
    title: /^The server loop: .*exact counts$/,
    where: { "resident messages": "1,000,000", requests: "30,000", "in flight": "64" },
    ours: { where: { configuration: /^WASM:/ }, column: "requests/s" },
    against: {
      where: { configuration: /^pure TS:/ },
      column: "requests/s",
      label: "all TypeScript (JS engine, gpt-tokenizer)",
    },
    better: "higher",
  },
  {
    what: "the same, against no library at all",
    suite: "server",
    title: /^The server loop: .*exact counts$/,
    where: { "resident messages": "1,000,000", requests: "30,000", "in flight": "64" },
    ours: { where: { configuration: /^WASM:/ }, column: "requests/s" },
    against: {
      where: { configuration: /^plain arrays \+ WASM BPE/ },
      column: "requests/s",
      label: "plain arrays, the same counter (no tree, branches, priorities or tool units)",
    },
    better: "higher",
  },
  {
    what: "a context from a chat of 10,000 messages, p50",
    suite: "context",
    title: /three ways/,
    where: { history: "10,000" },
    ours: { column: "buildContext, WASM" },
    against: { column: "LangChain trimMessages", label: "LangChain's trimMessages" },
    ratio: "trimMessages / WASM",
    better: "lower",
  },
  {
    what: "exact token counts (o200k_base), MB of text a second",
    suite: "tokens",
    title: /^Counters, o200k_base/,
    ours: { where: { backend: /^ctxloom's WebAssembly BPE/ }, column: "MB of text / s" },
    against: { where: { backend: /^gpt-tokenizer/ }, column: "MB of text / s", label: "gpt-tokenizer" },
    better: "higher",
  },
  {
    what: "memory per resident message at 1,000,000 (texts not counted)",
    suite: "heap",
    title: /^Memory per resident message/,
    where: { messages: "1,000,000" },
    ours: { column: "WASM engine" },
    against: { column: "JS engine", label: "the JS engine (an object per message)" },
    better: "lower",
  },
];

const results = JSON.parse(readFileSync(resultsFile, "utf8"));
const readme = readFileSync(readmeFile, "utf8");
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`${readmeFile} has no ${START} ... ${END} section`);

const cell = (s) => String(s).replace(/\|/g, "\\|");
const table = (t) => {
  const right =
    t.rows.length > 0
      ? t.columns.map(
          (_, i) => i > 0 && t.rows.every((r) => /^[\d.,<>~ -]+(x|%| ?[µm]?s| ?[KMG]?i?B)?$/.test(r[i] ?? "")),
        )
      : [];
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

/** The number a cell shows, in the unit it shows it in ("2,050 ms" -> 2050), or NaN. */
const numberOf = (text) =>
  Number(
    String(text)
      .replace(/,/g, "")
      .replace(/^([-\d.]+).*$/, "$1"),
  );
/** Whether a row's cells match `where` (column name -> exact text or RegExp). */
const matches = (t, row, where = {}) =>
  Object.entries(where).every(([column, want]) => {
    const value = row[t.columns.indexOf(column)] ?? "";
    return want instanceof RegExp ? want.test(value) : value === want;
  });
/** A ratio as the tables write it: 240,853x, 39x, 8.1x, 0.78x. */
function ratioText(r) {
  if (r >= 100) return `${Math.round(r).toLocaleString("en-US")}x`;
  if (r >= 10) return `${Math.round(r)}x`;
  return `${r >= 1 ? r.toFixed(1) : r.toFixed(2)}x`;
}

/** The summary's rows that results.json can fill (a suite or row missing leaves its row out). */
function summaryRows() {
  const rows = [];
  const used = new Set();
  for (const s of SUMMARY) {
    const t = (results.suites[s.suite]?.readme ?? []).find((x) => s.title.test(x.title));
    if (!t) continue;
    const pick = (side) => t.rows.find((r) => matches(t, r, s.where) && matches(t, r, side.where));
    const oursRow = pick(s.ours);
    const againstRow = pick(s.against);
    if (!oursRow || !againstRow) continue;
    const ours = oursRow[t.columns.indexOf(s.ours.column)];
    const against = againstRow[t.columns.indexOf(s.against.column)];
    if (ours === undefined || against === undefined || Number.isNaN(numberOf(ours)) || Number.isNaN(numberOf(against)))
      continue;
    const given = s.ratio === undefined ? undefined : oursRow[t.columns.indexOf(s.ratio)];
    const r = s.better === "higher" ? numberOf(ours) / numberOf(against) : numberOf(against) / numberOf(ours);
    rows.push([
      s.what,
      ours,
      `${against}: ${s.against.label}`,
      given && !Number.isNaN(numberOf(given)) ? given : ratioText(r),
    ]);
    used.add(s.suite);
  }
  return { rows, suites: [...used] };
}

/** "AMD EPYC (nproc 2), Node v20.20.2, 2026-11-26 to 2026-12-05" for the suites named. */
function measuredOn(suites) {
  const machines = suites.map((n) => results.suites[n].machine);
  const each = (f) => [...new Set(machines.map(f))].join(" / ");
  const dates = [...new Set(machines.map((m) => m.date))].sort();
  const when = dates.length > 1 ? `${dates[0]} to ${dates.at(-1)}` : dates[0];
  return `${each((m) => `${m.cpu} (nproc ${m.nproc})`)}, Node ${each((m) => m.node)}, ${when}`;
}

// The README's summary.
const summary = summaryRows();
const short = [START, ""];
if (summary.rows.length > 0) {
  short.push(table({ columns: ["measured", "ctxloom", "against", "in ctxloom's favour"], rows: summary.rows }), "");
  short.push(
    `Measured by \`npm run bench\` on ${measuredOn(summary.suites)}, on a machine shared with other work ` +
      "(ratios are steadier than absolute figures). ctxloom's figures are the WASM engine with its WebAssembly " +
      "counter, as shipped. Every suite, with the commit, date and load of each run: [docs/benchmarks.md](docs/benchmarks.md).",
  );
} else {
  short.push(
    "Every suite's figures, with the machine, commit and date of each run: [docs/benchmarks.md](docs/benchmarks.md).",
  );
}
short.push("", END);
writeFileSync(readmeFile, readme.slice(0, start) + short.join("\n") + readme.slice(end + END.length));

// docs/benchmarks.md, whole.
const INTRO =
  "`npm run bench` runs every suite in `bench/` (tinybench), each in a process of its own, and\n" +
  "prints medians, ratios and the goals each figure is held to (reported, never asserted). It\n" +
  "compares the WASM engine, the JS engine and, where one exists, what you would use otherwise:\n" +
  "LangChain's `trimMessages`, the plain trimming loop a careful user writes, js-tiktoken. Sizes\n" +
  "grow by 10x. It writes `bench/results.json`, `bench/results/<suite>.md` and the chart below,\n" +
  "and regenerates this page and the README's summary (`node scripts/bench-table.mjs`). `npm run bench:smoke` runs\n" +
  "every suite at a tiny size; `npm test` runs it, so the suites are known to work. The suites\n" +
  "run the TypeScript sources through esbuild with nothing added (`bench/ts-loader.mjs`), as the\n" +
  "built package runs: tsx's `keepNames` wraps every function it compiles, which cost the server\n" +
  "loop 13% of its CPU.";
// One line for the machine; the commit and date per suite when runs differ.
const first = results.suites[names[0]]?.machine ?? results.machine;
const runsOf = new Map();
for (const n of names) {
  const m = results.suites[n].machine;
  const key = `commit ${m.commit || "unknown"}, ${m.date}`;
  runsOf.set(key, [...(runsOf.get(key) ?? []), n]);
}
const when =
  runsOf.size === 1 ? [...runsOf.keys()][0] : [...runsOf].map(([k, ns]) => `${k} (${ns.join(", ")})`).join("; ");
const GENERATED =
  "<!-- Generated from bench/results.json by `node scripts/bench-table.mjs` (npm run bench runs it). -->";
const out = ["# Benchmarks", "", GENERATED, "", INTRO, ""];
out.push(`Measured by \`npm run bench\` on ${first.cpu}, nproc ${first.nproc}, Node ${first.node}; ${when}`);
const loads = names
  .filter((n) => results.suites[n].machine.load !== undefined)
  .map((n) => `${n} ${results.suites[n].machine.load}`);
out.push(
  `(a machine shared with other work${loads.length ? `; its load average as each suite started: ${loads.join(", ")}` : ""}:`,
);
out.push(
  `ratios are steadier than absolute figures). Every suite's full tables and goals are in [bench/results/](../bench/results/).`,
);
out.push("");
out.push(`![Build time and memory per message against history size, WASM and JS engines](../bench/scale.svg)`);
out.push("");
for (const [group, { heading, intro }] of Object.entries(GROUPS)) {
  const tables = names.flatMap((name) =>
    (results.suites[name].readme ?? []).filter((t) => comparisonOf(name, t) === group),
  );
  if (tables.length === 0) continue;
  out.push(`## ${heading}`, "");
  if (intro) out.push(intro, "");
  for (const t of tables) {
    out.push(`**${t.title}**`, "", table(t), "");
    if (t.note) out.push(t.note, "");
    const missing = group === "mixed" ? missingLikeForLike(t) : undefined;
    if (missing) out.push(missing, "");
  }
}
mkdirSync(dirname(pageFile), { recursive: true });
writeFileSync(pageFile, out.join("\n").trimEnd() + "\n");
console.log(`${readmeFile} (summary) and ${pageFile}: regenerated from ${resultsFile}`);
