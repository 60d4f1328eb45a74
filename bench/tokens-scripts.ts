// The tokens suite's rows per script (issue 26): ctxloom's WebAssembly BPE against gpt-tokenizer
// and js-tiktoken on chat messages in twelve scripts and languages (test/tokens/multilingual.ts:
// sentences written for ctxloom, and sentences remixed from their words, so that messages do
// not repeat whole sentences), o200k_base, time per message.
//
// Counters with a cache of pieces (gpt-tokenizer's merge cache, the WebAssembly BPE's merged
// pieces) have it emptied at the start of every round of a row's messages, as the suite's other
// rows do: each message is counted once, and a word seen in an earlier message of the round is
// remembered. The corpus draws each script's words from twelve sentences, so such a cache hits
// more often than on real text: the "first sight" column empties the caches before every
// message instead (only repeats within a message hit), the other bound. Times are this
// process's CPU time (the machine is shared).

import { Bench } from "tinybench";
import type { TokenCounter } from "../src/tokens/index.js";
import { SCRIPT_NAMES, messages, type Script } from "../test/tokens/multilingual.js";
import { fmt, ratio, type Goal, type ReadmeTable } from "./report.js";

export const GOAL_RATIO = 4;
const MESSAGES = 200;
const SEED = 26;

export interface ScriptCounters {
  wasm: TokenCounter;
  gpt: TokenCounter;
  tiktoken: TokenCounter;
  /** Empties gpt-tokenizer's merge cache. */
  clearGpt: () => void;
  /** Empties the WebAssembly BPE's cache of merged pieces. */
  clearWasm: () => void;
}

interface Row {
  script: Script;
  bytes: number;
  wasm: number;
  gpt: number;
  tiktoken: number;
  wasmCold: number;
  gptCold: number;
  differ: number;
}

/** This process's CPU time in ms: the machine is shared, and time others take is no counter's. */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const p50 = (bench: Bench, name: string): number => {
  const r = bench.tasks.find((t) => t.name === name)!.result;
  if (r.state !== "completed") throw new Error(`task ${name}: ${r.state}`);
  return r.latency.p50;
};

/** Per script: microseconds per message for each counter, and whether the counts agree. */
export async function scriptRows(counters: ScriptCounters, smoke: boolean) {
  const { wasm, gpt, tiktoken, clearGpt, clearWasm } = counters;
  const encoder = new TextEncoder();
  const rows: Row[] = [];
  for (const script of SCRIPT_NAMES) {
    const texts = messages(script, smoke ? 10 : MESSAGES, SEED);
    const bench = new Bench({
      now: cpuNow,
      ...(smoke
        ? { time: 10, warmupTime: 2, iterations: 2, warmupIterations: 1 }
        : { time: 600, warmupTime: 100, iterations: 8 }),
    });
    bench
      .add("wasm", () => {
        clearWasm();
        texts.forEach((t) => wasm.count(t));
      })
      .add("gpt", () => {
        clearGpt();
        texts.forEach((t) => gpt.count(t));
      })
      .add("tiktoken", () => texts.forEach((t) => tiktoken.count(t)))
      .add("wasm cold", () =>
        texts.forEach((t) => {
          clearWasm();
          wasm.count(t);
        }),
      )
      .add("gpt cold", () =>
        texts.forEach((t) => {
          clearGpt();
          gpt.count(t);
        }),
      );
    await bench.run();
    const per = (name: string) => (p50(bench, name) * 1000) / texts.length;
    rows.push({
      script,
      bytes: texts.reduce((n, t) => n + encoder.encode(t).length, 0) / texts.length,
      wasm: per("wasm"),
      gpt: per("gpt"),
      tiktoken: per("tiktoken"),
      wasmCold: per("wasm cold"),
      gptCold: per("gpt cold"),
      differ: texts.filter((t) => wasm.count(t) !== gpt.count(t) || tiktoken.count(t) !== gpt.count(t)).length,
    });
  }
  return report(rows, smoke ? 10 : MESSAGES);
}

function report(rows: Row[], count: number) {
  const met = (r: Row) => r.gpt / r.wasm >= GOAL_RATIO;
  const table = rows.map((r) => ({
    script: r.script,
    "bytes / message": r.bytes.toFixed(0),
    "WebAssembly BPE, µs": r.wasm.toFixed(2),
    "gpt-tokenizer, µs": r.gpt.toFixed(2),
    "js-tiktoken, µs": r.tiktoken.toFixed(2),
    "x gpt-tokenizer": (r.gpt / r.wasm).toFixed(1),
    [`goal ${GOAL_RATIO}x`]: met(r) ? "met" : "missed",
    "x gpt-tokenizer, first sight": (r.gptCold / r.wasmCold).toFixed(1),
    "x js-tiktoken": (r.tiktoken / r.wasm).toFixed(1),
    "MB/s": (r.bytes / r.wasm).toFixed(0),
    "counts differ": r.differ,
  }));
  const goals: Goal[] = rows.map((r) => ({
    goal: `WebAssembly BPE per message on ${r.script}, against gpt-tokenizer`,
    target: `>= ${GOAL_RATIO}x`,
    measured: `${(r.gpt / r.wasm).toFixed(1)}x (${r.wasm.toFixed(2)} vs ${r.gpt.toFixed(2)} µs; first sight ${(r.gptCold / r.wasmCold).toFixed(1)}x)`,
    pass: met(r),
  }));
  const differ = rows.reduce((n, r) => n + r.differ, 0);
  goals.push({
    goal: "counts identical in every script (WebAssembly BPE, js-tiktoken against gpt-tokenizer)",
    target: "0 differences",
    measured: `${differ}`,
    pass: differ === 0,
  });
  const columns = Object.keys(table[0]!);
  const markdown = [
    `#### Counters per script, o200k_base (${count} messages each, µs per message, p50)`,
    "",
    `| ${columns.join(" | ")} |`,
    `|${columns.map(() => "---").join("|")}|`,
    ...table.map((r) => `| ${Object.values(r).join(" | ")} |`),
    "",
    `Goal: ${GOAL_RATIO}x gpt-tokenizer per message in every script; met in ${rows.filter(met).length} of ${rows.length}. ` +
      "Caches of merged words (gpt-tokenizer's, the WebAssembly BPE's) are emptied at the start of each round of a script's messages; \"first sight\" empties them before every message.",
  ].join("\n");
  const readme: ReadmeTable = {
    title: `Counters per script, o200k_base, µs per chat message (${count} messages a script)`,
    columns: ["script", "bytes", "WebAssembly BPE", "gpt-tokenizer", "js-tiktoken", "x gpt-tokenizer", "first sight"],
    rows: rows.map((r) => [
      r.script,
      r.bytes.toFixed(0),
      fmt(r.wasm),
      fmt(r.gpt),
      fmt(r.tiktoken),
      `${ratio(r.gpt / r.wasm)}${met(r) ? "" : " (goal 4x missed)"}`,
      ratio(r.gptCold / r.wasmCold),
    ]),
    note: "Messages written for ctxloom in twelve scripts (test/tokens/multilingual.ts). The caches of merged words (gpt-tokenizer's, the WebAssembly BPE's) are emptied at the start of each round of a script's messages; \"first sight\" empties them before each message.",
  };
  return { title: "counters per script, o200k_base, µs per message", rows: table, goals, markdown, readme };
}
