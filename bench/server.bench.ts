// THE SERVER LOOP suite: a chat server's turn (append the user's message, build the context,
// append the answer) with many requests in flight, on 10,000 resident chats of 100 messages
// (1M messages) and on 1,000 of 100 (100k), for the WASM engine, the JS engine and the plain
// arrays a careful user would write, each configuration in a process of its own
// (bench/server-loop.ts). Requests per second, p50 / p99 / p99.9 / slowest, RSS.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { count, fmt, log, mdTable, ratio, ROOT, type Goal, type SuiteOptions, type SuiteReport } from "./report.js";
import type { ServerResult } from "./server-loop.js";

const FULL = { loads: [{ chats: 10_000, perChat: 100 }, { chats: 1_000, perChat: 100 }], requests: 100_000, inFlight: 64 };
const SMOKE: typeof FULL = { loads: [{ chats: 100, perChat: 10 }], requests: 500, inFlight: 8 };
const CONFIGS = ["wasm", "js", "plain"] as const;
const LABEL: Record<(typeof CONFIGS)[number], string> = { wasm: "ctxloom, WASM engine", js: "ctxloom, JS engine", plain: "plain arrays (no library)" };

export async function runServerSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const C = options.smoke ? SMOKE : FULL;
  const runs: ServerResult[] = [];
  for (const { chats, perChat } of C.loads) {
    for (const config of CONFIGS) {
      log(`${config}: ${count(chats)} chats x ${perChat} messages, ${count(C.requests)} requests, ${C.inFlight} in flight`);
      const stdout = execFileSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", "--max-old-space-size=8192", join(ROOT, "bench/server-loop.ts"), config, String(chats), String(perChat), String(C.requests), String(C.inFlight)],
        { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
      );
      runs.push(JSON.parse(stdout.trim().split("\n").pop()!) as ServerResult);
    }
  }

  const goals: Goal[] = [];
  const rows = runs.map((r) => ({
    resident: count(r.chats * r.perChat),
    configuration: LABEL[r.config as keyof typeof LABEL],
    "req/s": fmt(r.reqPerS),
    "p50 µs": fmt(r.p50Us),
    "p99 µs": fmt(r.p99Us),
    "p99.9 µs": fmt(r.p999Us),
    "slowest ms": fmt(r.maxUs / 1000),
    "RSS MB": fmt(r.rssMB),
    "GC events": r.gcCount,
    "longest GC ms": fmt(r.gcMaxMs),
    "messages sent/request": fmt(r.sentPerRequest),
    "build s": fmt(r.buildS),
  }));
  for (const { chats, perChat } of C.loads) {
    const at = (config: string) => runs.find((r) => r.config === config && r.chats === chats && r.perChat === perChat)!;
    const [w, j, p] = [at("wasm"), at("js"), at("plain")];
    const resident = count(chats * perChat);
    goals.push({ goal: `${resident} resident: the three configurations send the same contexts`, target: "equal messages/request", measured: `${fmt(w.sentPerRequest)} / ${fmt(j.sentPerRequest)} / ${fmt(p.sentPerRequest)}`, pass: w.sentPerRequest === j.sentPerRequest && j.sentPerRequest === p.sentPerRequest });
    goals.push({ goal: `${resident} resident: WASM p99.9 vs JS engine`, target: "<= JS", measured: `${fmt(w.p999Us)} vs ${fmt(j.p999Us)} µs`, pass: w.p999Us <= j.p999Us });
    goals.push({ goal: `${resident} resident: WASM RSS vs plain arrays`, target: "<= plain", measured: `${fmt(w.rssMB)} vs ${fmt(p.rssMB)} MB`, pass: w.rssMB <= p.rssMB });
  }
  const markdown = [
    `#### The server loop: append the user's message, buildContext, append the answer (${C.inFlight} requests in flight, ${count(C.requests)} requests)`,
    "",
    mdTable(rows),
    "",
    "Each configuration runs in a process of its own. Counts use the 4-characters-a-token estimate in all three, so the",
    "figures are the library's cost, not a tokenizer's. Latency is a request's time from its first append to its last,",
    "with the other requests in flight interleaving at every await.",
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  return {
    name: "server",
    tables: [{ title: `server loop, ${C.inFlight} in flight`, rows }],
    goals,
    markdown,
    readme: [{
      title: `The server loop: ${count(C.requests)} turns (append the question, buildContext, append the answer), ${C.inFlight} in flight`,
      columns: ["resident messages", "configuration", "requests/s", "p50", "p99", "p99.9", "slowest", "RSS", "messages sent a request"],
      rows: runs.map((r) => [
        count(r.chats * r.perChat), LABEL[r.config as keyof typeof LABEL], fmt(r.reqPerS),
        `${fmt(r.p50Us)} µs`, `${fmt(r.p99Us)} µs`, `${fmt(r.p999Us)} µs`, `${fmt(r.maxUs / 1000)} ms`, `${fmt(r.rssMB)} MB`, fmt(r.sentPerRequest),
      ]),
      note: `Chats of ${C.loads[0]!.perChat} messages (${C.loads.map((l) => count(l.chats)).join(" and ")} of them); each configuration in its own process; counts by the 4-characters estimate in all three. The plain arrays are what a careful user writes without a library (an array per chat, counts cached at push, a walk back from the end): no tree, no branches, no priorities or tool units. Every turn adds two messages to its chat, so with fewer chats each one grows longer and its context (every message fits gpt-4o's window) costs more to build: compare configurations within a row group, not across. WASM vs JS engine at ${count(C.loads[0]!.chats * C.loads[0]!.perChat)}: ${ratio(runs[0]!.reqPerS / runs[1]!.reqPerS)} the requests/s.`,
    }],
    results: runs,
  };
}
