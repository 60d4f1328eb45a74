// THE SERVER LOOP suite: a chat server's turn (append the user's message, build the context,
// append the answer) with many requests in flight, on 10,000 resident chats of 100 messages
// (1M messages) and on 1,000 of 100 (100k), each configuration in a process of its own
// (bench/server-loop.ts). Requests per second, p50 / p99 / p99.9 / slowest, RSS.
//
// The main table counts exactly, as users run it: the WASM configuration is the WASM engine
// with ctxloom's WebAssembly BPE counter (the defaults), the pure-TS configuration the JS
// engine with gpt-tokenizer; plain arrays with gpt-tokenizer are context, not a goal; plain
// arrays with ctxloom's WebAssembly BPE count as the WASM configuration does, so what lies
// between the two is the library's own cost (the tree, priorities, tool units, store, checks).
// A second table counts by the 4-characters estimate: the library's cost without a tokenizer.
// A third splits a request's CPU time and allocation by part, the WASM configuration beside
// the plain loop with the same counter (bench/request-parts.ts).

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import {
  TS_LOADER,
  count,
  fmt,
  log,
  mdTable,
  ratio,
  ROOT,
  type Goal,
  type SuiteOptions,
  type SuiteReport,
} from "./report.js";
import type { Config, Counting, ServerResult } from "./server-loop.js";
import { PARTS, type PartsResult } from "./request-parts.js";

interface Load {
  chats: number;
  perChat: number;
  /** Whether the heuristic rows run at this load too (they cost a build of their own). */
  heuristic: boolean;
  /** Requests measured (default: the suite's). */
  requests?: number;
  /** A long window: exact counts, no gpt-tokenizer plain loop, to see the collector's full collections. */
  long?: boolean;
  /** Requests under way at once (default: the suite's). */
  inFlight?: number;
}

// The long window runs long enough for full collections to land in it: over 30,000 requests
// the WASM configuration usually has none, which flatters its tail.
const FULL = {
  loads: [
    { chats: 10_000, perChat: 100, heuristic: true },
    { chats: 1_000, perChat: 100, heuristic: true },
    { chats: 10_000, perChat: 100, heuristic: false, requests: 150_000, long: true },
    // One request at a time: each request's own latency, no queue behind it.
    { chats: 10_000, perChat: 100, heuristic: false, inFlight: 1 },
  ] as Load[],
  requests: 30_000,
  inFlight: 64,
  /** Runs of each row, interleaved across configurations; the row shows the median run by p99.9 (tails move by a third from run to run here). */
  repeats: 3,
  /** The parts table: the first load's chats, these many requests. */
  partsRequests: 20_000,
};
const SMOKE: typeof FULL = {
  loads: [
    { chats: 100, perChat: 10, heuristic: true },
    { chats: 100, perChat: 10, heuristic: false, requests: 1_000, long: true },
  ],
  requests: 500,
  inFlight: 8,
  repeats: 1,
  partsRequests: 500,
};
/** The configurations of each kind of load: with the estimate both plain loops count alike (one runs). */
const CONFIGS: Record<"exact" | "heuristic" | "long", Config[]> = {
  exact: ["wasm", "ts", "plain", "plain-wasm"],
  heuristic: ["wasm", "ts", "plain"],
  long: ["wasm", "ts", "plain-wasm"],
};
const LABEL: Record<Config, Record<Counting, string>> = {
  wasm: { exact: "WASM: WASM engine + WASM BPE", heuristic: "WASM engine" },
  ts: { exact: "pure TS: JS engine + gpt-tokenizer", heuristic: "JS engine" },
  plain: { exact: "plain arrays + gpt-tokenizer (no library)", heuristic: "plain arrays (no library)" },
  "plain-wasm": { exact: "plain arrays + WASM BPE (no library, same counter)", heuristic: "plain arrays (no library)" },
};
const label = (r: ServerResult): string => LABEL[r.config][r.counting];

/** Where a load's rows differ from the main one's: a long window, or one request at a time. */
const loadNote = (r: { requests: number; inFlight: number }, C: typeof FULL): string =>
  `${r.requests !== C.requests ? ` over ${count(r.requests)} requests` : ""}${r.inFlight !== C.inFlight ? `, ${count(r.inFlight)} in flight` : ""}`;

/**
 * The goals at one load: the WASM configuration against pure TS (issue 1's), and against the
 * plain loop with the same counter (b: the library's own cost, issue 26's).
 */
function goalsAt(
  w: ServerResult,
  t: ServerResult,
  p: ServerResult | undefined,
  b: ServerResult | undefined,
  C: typeof FULL,
): Goal[] {
  const at = `${count(w.chats * w.perChat)} resident${loadNote(w, C)}`;
  const better = (ts: number, wasm: number) => ts / Math.max(wasm, 1e-9);
  const others = [t, p, b].filter((r): r is ServerResult => r !== undefined);
  return [
    ...(others.length > 1
      ? [
          {
            goal: `${at}: the configurations send the same contexts`,
            target: "equal messages/request",
            measured: [w, ...others].map((r) => fmt(r.sentPerRequest)).join(" / "),
            pass: others.every((r) => r.sentPerRequest === w.sentPerRequest),
          },
        ]
      : []),
    {
      goal: `${at}: requests/s, WASM / pure TS`,
      target: ">= 1x (never slower)",
      measured: `${ratio(w.reqPerS / t.reqPerS)} (${fmt(w.reqPerS)} vs ${fmt(t.reqPerS)})`,
      pass: w.reqPerS >= t.reqPerS,
    },
    {
      goal: `${at}: p99.9, pure TS / WASM`,
      target: ">= 3x",
      measured: `${ratio(better(t.p999Us, w.p999Us))} (${fmt(w.p999Us / 1000)} vs ${fmt(t.p999Us / 1000)} ms)`,
      pass: better(t.p999Us, w.p999Us) >= 3,
    },
    {
      goal: `${at}: slowest request, pure TS / WASM`,
      target: ">= 3x",
      measured: `${ratio(better(t.maxUs, w.maxUs))} (${fmt(w.maxUs / 1000)} vs ${fmt(t.maxUs / 1000)} ms)`,
      pass: better(t.maxUs, w.maxUs) >= 3,
    },
    {
      goal: `${at}: RSS, pure TS / WASM`,
      target: ">= 1.5x",
      measured: `${ratio(better(t.rssMB, w.rssMB))} (${fmt(w.rssMB)} vs ${fmt(t.rssMB)} MB)`,
      pass: better(t.rssMB, w.rssMB) >= 1.5,
    },
    ...(w.requests !== C.requests
      ? [
          {
            goal: `${at}: slowest request, WASM against pure TS`,
            target: "no slower",
            measured: `${fmt(w.maxUs / 1000)} vs ${fmt(t.maxUs / 1000)} ms`,
            pass: w.maxUs <= t.maxUs,
          },
        ]
      : []),
    ...(b
      ? [
          {
            goal: `${at}: requests/s, plain arrays with the same counter / WASM`,
            target: "<= 1.5x",
            measured: `${ratio(b.reqPerS / w.reqPerS)} (${fmt(w.reqPerS)} vs ${fmt(b.reqPerS)})`,
            pass: b.reqPerS <= 1.5 * w.reqPerS,
          },
          {
            goal: `${at}: p99.9, WASM / plain arrays with the same counter`,
            target: "<= 3x",
            measured: `${ratio(w.p999Us / b.p999Us)} (${fmt(w.p999Us / 1000)} vs ${fmt(b.p999Us / 1000)} ms)`,
            pass: w.p999Us <= 3 * b.p999Us,
          },
        ]
      : []),
  ];
}

function row(r: ServerResult): Record<string, string | number> {
  return {
    resident: count(r.chats * r.perChat),
    requests: count(r.requests),
    "in flight": r.inFlight,
    configuration: label(r),
    "req/s": fmt(r.reqPerS),
    "p50 ms": fmt(r.p50Us / 1000),
    "p99 ms": fmt(r.p99Us / 1000),
    "p99.9 ms": fmt(r.p999Us / 1000),
    "slowest ms": fmt(r.maxUs / 1000),
    "RSS MB": fmt(r.rssMB),
    "heap MB": fmt(r.heapMB),
    "GC (full)": `${r.gcCount} (${r.gcMajor})`,
    "GC ms total / longest": `${fmt(r.gcTotalMs)} / ${fmt(r.gcMaxMs)}`,
    "messages sent/request": fmt(r.sentPerRequest),
    "build s": fmt(r.buildS),
    load: r.load ?? "",
  };
}

/** A child process's last line of output, as JSON. */
function spawnJson<T>(script: string, args: string[]): T {
  const stdout = execFileSync(
    process.execPath,
    ["--expose-gc", "--import", TS_LOADER, "--max-old-space-size=8192", join(ROOT, script), ...args],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as T;
}

const objects = (n: number | null) => (n === null ? "not in the smoke run" : fmt(n));

/** The parts table: a request's CPU time and allocation by part, the WASM configuration beside the plain loop with its counter. */
function partsTable(w: PartsResult, b: PartsResult): { rows: Record<string, string>[]; readme: string[][] } {
  const us = (r: PartsResult, part: (typeof PARTS)[number]) => r.us[part] ?? 0;
  const bytes = (r: PartsResult, part: (typeof PARTS)[number]) => r.bytes[part] ?? 0;
  const cells = (name: string, wu: number, bu: number, wb: number | string, bb: number | string): string[] => [
    name,
    fmt(wu),
    fmt(bu),
    typeof wb === "number" ? count(Math.round(wb)) : wb,
    typeof bb === "number" ? count(Math.round(bb)) : bb,
  ];
  const readme = [
    ...PARTS.filter((part) => us(w, part) + us(b, part) + bytes(w, part) + bytes(b, part) > 0).map((part) =>
      cells(
        part,
        us(w, part),
        us(b, part),
        part === "garbage collector" ? "-" : bytes(w, part),
        part === "garbage collector" ? "-" : bytes(b, part),
      ),
    ),
    cells("a request, all parts", w.cpuUs, b.cpuUs, w.allocatedB, b.allocatedB),
    cells("of which the scavenges kept (copied or promoted)", 0, 0, w.survivedB, b.survivedB).map((c, i) =>
      i === 1 || i === 2 ? "" : c,
    ),
    [
      "heap objects per open chat of " + count(w.perChat) + " messages",
      "",
      "",
      objects(w.objectsPerChat),
      objects(b.objectsPerChat),
    ],
  ];
  const keys = [
    "part",
    "WASM µs/request",
    "plain + WASM BPE µs/request",
    "WASM bytes/request",
    "plain + WASM BPE bytes/request",
  ];
  return { rows: readme.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]!]))), readme };
}

export async function runServerSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const C = options.smoke ? SMOKE : FULL;
  const all: ServerResult[] = [];
  for (const { chats, perChat, heuristic, requests = C.requests, long, inFlight = C.inFlight } of C.loads) {
    for (const counting of heuristic ? (["exact", "heuristic"] as const) : (["exact"] as const)) {
      const configs = CONFIGS[long ? "long" : counting];
      for (let repeat = 0; repeat < C.repeats; repeat++)
        for (const config of configs) {
          log(
            `${config}, ${counting}: ${count(chats)} chats x ${perChat} messages, ${count(requests)} requests, ${inFlight} in flight (run ${repeat + 1} of ${C.repeats})`,
          );
          all.push(
            spawnJson<ServerResult>("bench/server-loop.ts", [
              config,
              counting,
              String(chats),
              String(perChat),
              String(requests),
              String(inFlight),
            ]),
          );
        }
    }
  }
  // The parts of a request, at the first load: the WASM configuration and the plain loop with its counter.
  const first = C.loads[0]!;
  const parts = (["wasm", "plain-wasm"] as const).map((config) => {
    log(
      `parts of a request, ${config}: ${count(first.chats)} chats x ${first.perChat} messages, ${count(C.partsRequests)} requests, ${C.inFlight} in flight`,
    );
    return spawnJson<PartsResult>("bench/request-parts.ts", [
      config,
      String(first.chats),
      String(first.perChat),
      String(C.partsRequests),
      String(C.inFlight),
    ]);
  });
  const partsOut = partsTable(parts[0]!, parts[1]!);

  // Each row: the median of its runs by p99.9.
  const same = (a: ServerResult, b: ServerResult) =>
    a.config === b.config &&
    a.counting === b.counting &&
    a.chats === b.chats &&
    a.perChat === b.perChat &&
    a.requests === b.requests &&
    a.inFlight === b.inFlight;
  const groups = all
    .filter((r, i) => all.findIndex((x) => same(x, r)) === i)
    .map((first) => all.filter((r) => same(r, first)));
  const runs = groups.map((g) => g.slice().sort((a, b) => a.p999Us - b.p999Us)[(g.length - 1) >> 1]!);
  const spread = groups.map(
    (g) =>
      `${label(g[0]!)}, ${count(g[0]!.chats * g[0]!.perChat)}${loadNote(g[0]!, C)}: ${g.map((r) => `${fmt(r.p999Us / 1000)} / ${fmt(r.maxUs / 1000)}${r.load !== undefined ? ` (load ${r.load})` : ""}`).join("; ")}`,
  );

  const at = (config: Config, counting: Counting, load: Load) =>
    runs.find(
      (r) =>
        r.config === config &&
        r.counting === counting &&
        r.chats === load.chats &&
        r.perChat === load.perChat &&
        r.requests === (load.requests ?? C.requests) &&
        r.inFlight === (load.inFlight ?? C.inFlight),
    );
  const goals: Goal[] = C.loads.flatMap((load) =>
    goalsAt(
      at("wasm", "exact", load)!,
      at("ts", "exact", load)!,
      at("plain", "exact", load),
      at("plain-wasm", "exact", load),
      C,
    ),
  );
  const [pw, pb] = parts as [PartsResult, PartsResult];
  goals.push({
    goal: `${count(first.chats * first.perChat)} resident: heap bytes allocated per request, WASM / plain arrays with the same counter`,
    target: "<= 1.5x",
    measured: `${ratio(pw.allocatedB / pb.allocatedB)} (${count(Math.round(pw.allocatedB))} vs ${count(Math.round(pb.allocatedB))} B)`,
    pass: pw.allocatedB <= 1.5 * pb.allocatedB,
  });
  const exact = runs.filter((r) => r.counting === "exact");
  const estimated = runs.filter((r) => r.counting === "heuristic");
  const versus = (counting: Counting) =>
    C.loads
      .filter((l) => at("wasm", counting, l))
      .map((l) => {
        const [w, t] = [at("wasm", counting, l)!, at("ts", counting, l)!];
        return `${count(l.chats * l.perChat)}${loadNote(w, C)}: ${ratio(w.reqPerS / t.reqPerS)} the requests/s, ${ratio(t.p999Us / w.p999Us)} better p99.9, ${ratio(t.maxUs / w.maxUs)} better slowest, ${ratio(t.rssMB / w.rssMB)} smaller RSS`;
      })
      .join("; ");
  const ownCost = C.loads
    .filter((l) => at("plain-wasm", "exact", l))
    .map((l) => {
      const [w, b] = [at("wasm", "exact", l)!, at("plain-wasm", "exact", l)!];
      return `${count(l.chats * l.perChat)}${loadNote(w, C)}: ${ratio(b.reqPerS / w.reqPerS)} the requests/s, ${ratio(w.p999Us / b.p999Us)} the p99.9, ${ratio(w.maxUs / b.maxUs)} the slowest, ${ratio(w.rssMB / b.rssMB)} the RSS`;
    })
    .join("; ");
  const heading = `${count(C.requests)} requests (and one long window), ${C.inFlight} in flight`;
  const partsTitle = `Where a request goes, by part: ${count(first.chats * first.perChat)} resident, ${count(C.partsRequests)} requests, ${C.inFlight} in flight, exact counts by ctxloom's WebAssembly BPE in both`;
  const partsNote = `CPU time per request (process.cpuUsage; a loaded machine disturbs it far less than wall time) split by a CPU profile's samples (100 µs), each put in the part its stack shows (bench/request-parts.ts); heap bytes allocated per request (the heap's growth plus what each collection freed, v8.GCProfiler) split by a sampling allocation profile taken with inlining off (V8's allocation sampler does not see into inlined code). Objects per open chat: heap snapshots around making 1,000 chats of ${count(first.perChat)} messages (texts shared with the corpus, so they add no object). Load average at the end of the runs: WASM ${pw.load}, plain ${pb.load}.`;
  const markdown = [
    `#### The server loop, exact counts: append the user's message, buildContext, append the answer (${heading})`,
    "",
    mdTable(exact.map(row)),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
    "",
    `The library's own cost, WASM against plain arrays with the same counter: ${ownCost}.`,
    "",
    `#### The same loop, counts by the 4-characters estimate (the library's cost without a tokenizer)`,
    "",
    estimated.length > 0 ? mdTable(estimated.map(row)) : "(not run)",
    "",
    `WASM vs pure TS with the estimate: ${versus("heuristic")}.`,
    "",
    `#### ${partsTitle}`,
    "",
    mdTable(partsOut.rows),
    "",
    partsNote,
    "",
    `Each row is the median of ${C.repeats} runs by p99.9, the configurations interleaved. p99.9 / slowest of every run, in ms: ${spread.join("; ")}.`,
    "",
    "Each configuration runs in a process of its own, on the defaults (in-memory store, which keeps every chat open;",
    "recall embeds nothing until a chat is recalled). Latency is a request's time from its first append to its last,",
    "with the other requests in flight interleaving at every await. GC: v8's GCProfiler over the measured requests.",
    `The long rows run ${count(C.loads.find((l) => l.long)?.requests ?? 0)} requests: long enough for the WASM configuration's`,
    "smaller heap to reach a full collection (each one slows every request in flight for tens of ms); the pure-TS heap,",
    "several times larger, defers its own past that window.",
  ].join("\n");
  const readmeRows = (list: ServerResult[]) =>
    list.map((r) => [
      count(r.chats * r.perChat),
      count(r.requests),
      count(r.inFlight),
      label(r),
      fmt(r.reqPerS),
      `${fmt(r.p50Us / 1000)} ms`,
      `${fmt(r.p99Us / 1000)} ms`,
      `${fmt(r.p999Us / 1000)} ms`,
      `${fmt(r.maxUs / 1000)} ms`,
      `${fmt(r.rssMB)} MB`,
      fmt(r.sentPerRequest),
    ]);
  const columns = [
    "resident messages",
    "requests",
    "in flight",
    "configuration",
    "requests/s",
    "p50",
    "p99",
    "p99.9",
    "slowest",
    "RSS",
    "messages sent a request",
  ];
  const longLoad = C.loads.find((l) => l.long);
  const [lw, lt] = longLoad ? [at("wasm", "exact", longLoad), at("ts", "exact", longLoad)] : [undefined, undefined];
  const longNote =
    lw && lt
      ? ` The ${count(lw.requests)}-request rows run long enough for full collections to land: ${lw.gcMajor} in the WASM process, ${lt.gcMajor} in the pure-TS one, whose heap, several times larger, defers them; each slows every request in flight by tens of ms.`
      : "";
  return {
    name: "server",
    tables: [
      { title: `server loop, exact counts, ${C.inFlight} in flight`, rows: exact.map(row) },
      ...(estimated.length > 0
        ? [{ title: `server loop, 4-characters estimate, ${C.inFlight} in flight`, rows: estimated.map(row) }]
        : []),
      { title: partsTitle, rows: partsOut.rows },
    ],
    goals,
    markdown,
    readme: [
      {
        title: `The server loop: ${heading} (append the question, buildContext, append the answer), exact counts`,
        columns,
        rows: readmeRows(exact),
        note: `Each row is the median of ${C.repeats} runs by p99.9. Chats of ${first.perChat} messages of real conversations (${[...new Set(C.loads.filter((l) => !l.long).map((l) => count(l.chats)))].join(" and ")} of them), each configuration in its own process, every chat kept open. The WASM configuration is what users get by default (WASM engine, ctxloom's WebAssembly BPE counter); pure TS is the JS engine with gpt-tokenizer. The plain arrays are what a careful user writes without a library (an array per chat, counts cached at push, a walk back from the end): no tree, no branches, no priorities or tool units; with ctxloom's WebAssembly BPE they count as the WASM configuration does, so what lies between those two rows is the library's own cost (${ownCost}). Every turn adds two messages to its chat, so with fewer chats each grows longer and its context costs more to build: compare configurations within a row group, not across.${longNote} WASM vs pure TS: ${versus("exact")}.`,
      },
      ...(estimated.length > 0
        ? [
            {
              title: `The same loop with counts by the 4-characters estimate (the library's own cost, no tokenizer)`,
              columns,
              rows: readmeRows(estimated),
              note: `WASM engine vs JS engine: ${versus("heuristic")}.`,
            },
          ]
        : []),
      {
        title: partsTitle,
        columns: [
          "part",
          "WASM, µs a request",
          "plain arrays + WASM BPE, µs a request",
          "WASM, bytes a request",
          "plain arrays + WASM BPE, bytes a request",
        ],
        rows: partsOut.readme,
        note: partsNote,
        comparison: "engines", // the library against the loop one writes without it, one counter
      },
    ],
    results: { runs: all, parts },
  };
}
