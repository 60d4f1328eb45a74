// THE SERVER LOOP suite: a chat server's turn (append the user's message, build the context,
// append the answer) with many requests in flight, on 10,000 resident chats of 100 messages
// (1M messages) and on 1,000 of 100 (100k), each configuration in a process of its own
// (bench/server-loop.ts). Requests per second, p50 / p99 / p99.9 / slowest, RSS.
//
// The main table counts exactly, as users run it: the WASM configuration is the WASM engine
// with ctxloom's WebAssembly BPE counter (the defaults), the pure-TS configuration the JS
// engine with gpt-tokenizer; plain arrays with gpt-tokenizer are context, not a goal. A second
// table counts by the 4-characters estimate in all three: the library's cost without a tokenizer.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { TS_LOADER, count, fmt, log, mdTable, ratio, ROOT, type Goal, type SuiteOptions, type SuiteReport } from "./report.js";
import type { Config, Counting, ServerResult } from "./server-loop.js";

interface Load {
  chats: number;
  perChat: number;
  /** Whether the heuristic rows run at this load too (they cost a build of their own). */
  heuristic: boolean;
  /** Requests measured (default: the suite's). */
  requests?: number;
  /** A long window: WASM and pure TS only, exact counts, to see the collector's full collections. */
  long?: boolean;
}

// The long window runs long enough for full collections to land in it: over 30,000 requests
// the WASM configuration usually has none, which flatters its tail.
const FULL = {
  loads: [
    { chats: 10_000, perChat: 100, heuristic: true },
    { chats: 1_000, perChat: 100, heuristic: true },
    { chats: 10_000, perChat: 100, heuristic: false, requests: 150_000, long: true },
  ] as Load[],
  requests: 30_000,
  inFlight: 64,
  /** Runs of each row, interleaved across configurations; the row shows the median run by p99.9 (tails move by a third from run to run here). */
  repeats: 3,
};
const SMOKE: typeof FULL = { loads: [{ chats: 100, perChat: 10, heuristic: true }, { chats: 100, perChat: 10, heuristic: false, requests: 1_000, long: true }], requests: 500, inFlight: 8, repeats: 1 };
const CONFIGS: Config[] = ["wasm", "ts", "plain"];
const LABEL: Record<Config, Record<Counting, string>> = {
  wasm: { exact: "WASM: WASM engine + WASM BPE", heuristic: "WASM engine" },
  ts: { exact: "pure TS: JS engine + gpt-tokenizer", heuristic: "JS engine" },
  plain: { exact: "plain arrays + gpt-tokenizer (no library)", heuristic: "plain arrays (no library)" },
};
const label = (r: ServerResult): string => LABEL[r.config][r.counting];

/** The issue's goals, WASM configuration against pure TS, at one load. */
function goalsAt(w: ServerResult, t: ServerResult, p: ServerResult | undefined, long = false): Goal[] {
  const resident = count(w.chats * w.perChat);
  const over = long ? ` over ${count(w.requests)} requests` : "";
  const better = (ts: number, wasm: number) => ts / Math.max(wasm, 1e-9);
  return [
    ...(p ? [{ goal: `${resident} resident: the three configurations send the same contexts`, target: "equal messages/request", measured: `${fmt(w.sentPerRequest)} / ${fmt(t.sentPerRequest)} / ${fmt(p.sentPerRequest)}`, pass: w.sentPerRequest === t.sentPerRequest && t.sentPerRequest === p.sentPerRequest }] : []),
    { goal: `${resident} resident${over}: requests/s, WASM / pure TS`, target: ">= 1x (never slower)", measured: `${ratio(w.reqPerS / t.reqPerS)} (${fmt(w.reqPerS)} vs ${fmt(t.reqPerS)})`, pass: w.reqPerS >= t.reqPerS },
    { goal: `${resident} resident${over}: p99.9, pure TS / WASM`, target: ">= 3x", measured: `${ratio(better(t.p999Us, w.p999Us))} (${fmt(w.p999Us / 1000)} vs ${fmt(t.p999Us / 1000)} ms)`, pass: better(t.p999Us, w.p999Us) >= 3 },
    { goal: `${resident} resident${over}: slowest request, pure TS / WASM`, target: ">= 3x", measured: `${ratio(better(t.maxUs, w.maxUs))} (${fmt(w.maxUs / 1000)} vs ${fmt(t.maxUs / 1000)} ms)`, pass: better(t.maxUs, w.maxUs) >= 3 },
    { goal: `${resident} resident${over}: RSS, pure TS / WASM`, target: ">= 1.5x", measured: `${ratio(better(t.rssMB, w.rssMB))} (${fmt(w.rssMB)} vs ${fmt(t.rssMB)} MB)`, pass: better(t.rssMB, w.rssMB) >= 1.5 },
  ];
}

function row(r: ServerResult): Record<string, string | number> {
  return {
    resident: count(r.chats * r.perChat),
    requests: count(r.requests),
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
  };
}

export async function runServerSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const C = options.smoke ? SMOKE : FULL;
  const all: ServerResult[] = [];
  for (const { chats, perChat, heuristic, requests = C.requests, long } of C.loads) {
    for (const counting of heuristic ? (["exact", "heuristic"] as const) : (["exact"] as const)) {
      for (let repeat = 0; repeat < C.repeats; repeat++) for (const config of long ? (["wasm", "ts"] as const) : CONFIGS) {
        log(`${config}, ${counting}: ${count(chats)} chats x ${perChat} messages, ${count(requests)} requests, ${C.inFlight} in flight (run ${repeat + 1} of ${C.repeats})`);
        const stdout = execFileSync(
          process.execPath,
          ["--expose-gc", "--import", TS_LOADER, "--max-old-space-size=8192", join(ROOT, "bench/server-loop.ts"), config, counting, String(chats), String(perChat), String(requests), String(C.inFlight)],
          { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
        );
        all.push(JSON.parse(stdout.trim().split("\n").pop()!) as ServerResult);
      }
    }
  }
  // Each row: the median of its runs by p99.9.
  const same = (a: ServerResult, b: ServerResult) =>
    a.config === b.config && a.counting === b.counting && a.chats === b.chats && a.perChat === b.perChat && a.requests === b.requests;
  const groups = all.filter((r, i) => all.findIndex((x) => same(x, r)) === i).map((first) => all.filter((r) => same(r, first)));
  const runs = groups.map((g) => g.slice().sort((a, b) => a.p999Us - b.p999Us)[(g.length - 1) >> 1]!);
  const spread = groups.map((g) => `${label(g[0]!)}, ${count(g[0]!.chats * g[0]!.perChat)}${g[0]!.requests !== C.requests ? ` over ${count(g[0]!.requests)} requests` : ""}: ${g.map((r) => fmt(r.p999Us / 1000)).join(" / ")}`);

  const at = (config: Config, counting: Counting, load: Load) =>
    runs.find((r) => r.config === config && r.counting === counting && r.chats === load.chats && r.perChat === load.perChat && r.requests === (load.requests ?? C.requests));
  const goals: Goal[] = C.loads.flatMap((load) => goalsAt(at("wasm", "exact", load)!, at("ts", "exact", load)!, at("plain", "exact", load), load.long));
  const exact = runs.filter((r) => r.counting === "exact");
  const estimated = runs.filter((r) => r.counting === "heuristic");
  const versus = (counting: Counting) => C.loads.filter((l) => at("wasm", counting, l)).map((l) => {
    const [w, t] = [at("wasm", counting, l)!, at("ts", counting, l)!];
    return `${count(l.chats * l.perChat)}${l.long ? ` over ${count(w.requests)} requests` : ""}: ${ratio(w.reqPerS / t.reqPerS)} the requests/s, ${ratio(t.p999Us / w.p999Us)} better p99.9, ${ratio(t.maxUs / w.maxUs)} better slowest, ${ratio(t.rssMB / w.rssMB)} smaller RSS`;
  }).join("; ");
  const heading = `${count(C.requests)} requests (and one long window), ${C.inFlight} in flight`;
  const markdown = [
    `#### The server loop, exact counts: append the user's message, buildContext, append the answer (${heading})`,
    "",
    mdTable(exact.map(row)),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
    "",
    `#### The same loop, counts by the 4-characters estimate (the library's cost without a tokenizer)`,
    "",
    estimated.length > 0 ? mdTable(estimated.map(row)) : "(not run)",
    "",
    `WASM vs pure TS with the estimate: ${versus("heuristic")}.`,
    "",
    `Each row is the median of ${C.repeats} runs by p99.9, the configurations interleaved. p99.9 of every run, in ms: ${spread.join("; ")}.`,
    "",
    "Each configuration runs in a process of its own, on the defaults (in-memory store, which keeps every chat open;",
    "recall embeds nothing until a chat is recalled). Latency is a request's time from its first append to its last,",
    "with the other requests in flight interleaving at every await. GC: v8's GCProfiler over the measured requests.",
    `The last rows run ${count(C.loads.find((l) => l.long)?.requests ?? 0)} requests: long enough for the WASM configuration's`,
    "smaller heap to reach a full collection (each one slows every request in flight for tens of ms); the pure-TS heap,",
    "several times larger, defers its own past that window.",
  ].join("\n");
  const readmeRows = (list: ServerResult[]) => list.map((r) => [
    count(r.chats * r.perChat), count(r.requests), label(r), fmt(r.reqPerS),
    `${fmt(r.p50Us / 1000)} ms`, `${fmt(r.p99Us / 1000)} ms`, `${fmt(r.p999Us / 1000)} ms`, `${fmt(r.maxUs / 1000)} ms`, `${fmt(r.rssMB)} MB`, fmt(r.sentPerRequest),
  ]);
  const columns = ["resident messages", "requests", "configuration", "requests/s", "p50", "p99", "p99.9", "slowest", "RSS", "messages sent a request"];
  const first = C.loads[0]!;
  const longLoad = C.loads.find((l) => l.long);
  const [lw, lt] = longLoad ? [at("wasm", "exact", longLoad), at("ts", "exact", longLoad)] : [undefined, undefined];
  const longNote = lw && lt
    ? ` The ${count(lw.requests)}-request rows run long enough for full collections to land: ${lw.gcMajor} in the WASM process, ${lt.gcMajor} in the pure-TS one, whose heap, several times larger, defers them; each slows every request in flight by tens of ms.`
    : "";
  return {
    name: "server",
    tables: [
      { title: `server loop, exact counts, ${C.inFlight} in flight`, rows: exact.map(row) },
      ...(estimated.length > 0 ? [{ title: `server loop, 4-characters estimate, ${C.inFlight} in flight`, rows: estimated.map(row) }] : []),
    ],
    goals,
    markdown,
    readme: [
      {
        title: `The server loop: ${heading} (append the question, buildContext, append the answer), exact counts`,
        columns,
        rows: readmeRows(exact),
        note: `Each row is the median of ${C.repeats} runs by p99.9. Chats of ${first.perChat} messages of real conversations (${C.loads.filter((l) => !l.long).map((l) => count(l.chats)).join(" and ")} of them), each configuration in its own process, every chat kept open. The WASM configuration is what users get by default (WASM engine, ctxloom's WebAssembly BPE counter); pure TS is the JS engine with gpt-tokenizer. The plain arrays are what a careful user writes without a library (an array per chat, counts cached at push, a walk back from the end): no tree, no branches, no priorities or tool units. Every turn adds two messages to its chat, so with fewer chats each grows longer and its context costs more to build: compare configurations within a row group, not across.${longNote} WASM vs pure TS: ${versus("exact")}.`,
      },
      ...(estimated.length > 0 ? [{
        title: `The same loop with counts by the 4-characters estimate (the library's own cost, no tokenizer)`,
        columns,
        rows: readmeRows(estimated),
        note: `WASM engine vs JS engine: ${versus("heuristic")}.`,
      }] : []),
    ],
    results: all,
  };
}
