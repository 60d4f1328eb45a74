// A server loop written as a user writes one (issue 38): many small resident chats, requests one
// at a time, each the three awaited calls of a chat server (append the user's turn, build the
// context, append the answer), against the same loop with no library (an array per chat, each
// message counted once by the same counter, the context trimmed from the end). Each
// configuration runs in a process of its own (bench/user-loop.ts), alternately, twice; the
// figures are each configuration's better run (the machine's other load disturbs both).
// Goals: requests/s within 1.5x of the plain loop, p99.9 within 3x.
// Alone: node --import ./bench/ts-loader.mjs bench/user-loop.bench.ts [--smoke]
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, TS_LOADER, log, mdTable, type SuiteReport } from "./report.js";
import type { UserLoopConfig, UserLoopResult } from "./user-loop.js";

function runOnce(config: UserLoopConfig, chats: number, perChat: number, requests: number): UserLoopResult {
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      TS_LOADER,
      join(ROOT, "bench/user-loop.ts"),
      config,
      String(chats),
      String(perChat),
      String(requests),
      "corpus",
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 16 << 20 },
  );
  return JSON.parse(out.trim().split("\n").pop()!) as UserLoopResult;
}

export async function runUserLoopSuite({ smoke = false }: { smoke?: boolean } = {}): Promise<SuiteReport> {
  const [chats, perChat, requests] = smoke ? [200, 10, 1_000] : [10_000, 100, 20_000];
  const runs: Record<UserLoopConfig, UserLoopResult[]> = { loom: [], plain: [] };
  for (let round = 0; round < (smoke ? 1 : 2); round++) {
    for (const config of ["plain", "loom"] as const) {
      log(`user-loop: ${config}, round ${round + 1}`);
      runs[config].push(runOnce(config, chats, perChat, requests));
    }
  }
  const best = (config: UserLoopConfig) => runs[config].reduce((a, b) => (b.reqPerS > a.reqPerS ? b : a));
  const loom = best("loom");
  const plain = best("plain");
  const row = (r: UserLoopResult) => ({
    configuration:
      r.config === "loom" ? "ctxloom (defaults: WASM engine, memory store)" : "plain loop (arrays, same counter)",
    "req/s": Math.round(r.reqPerS),
    "CPU µs a request": +r.cpuUs.toFixed(1),
    "p50 µs": +r.p50Us.toFixed(1),
    "p99 µs": +r.p99Us.toFixed(1),
    "p99.9 µs": +r.p999Us.toFixed(1),
    "slowest µs": Math.round(r.maxUs),
    "scavenges / major GCs": `${r.gcCount - r.gcMajor} / ${r.gcMajor}`,
    "RSS MB": Math.round(r.rssMB),
    load: r.load,
  });
  const rows = [row(loom), row(plain)];
  const speed = plain.reqPerS / loom.reqPerS;
  const tail = loom.p999Us / plain.p999Us;
  const title = `${chats.toLocaleString("en")} chats of ${perChat} messages, ${requests.toLocaleString("en")} sequential requests (better of two runs each)`;
  return {
    name: "user-loop",
    tables: [{ title, rows }],
    goals: [
      {
        goal: "requests/s, plain loop / ctxloom, one request at a time",
        target: "<= 1.5x",
        measured: `${speed.toFixed(2)}x`,
        pass: speed <= 1.5,
      },
      {
        goal: "p99.9, ctxloom / plain loop",
        target: "<= 3x",
        measured: `${tail.toFixed(1)}x (${loom.p999Us.toFixed(0)} vs ${plain.p999Us.toFixed(0)} µs)`,
        pass: tail <= 3,
      },
    ],
    markdown: [
      `### ${title}`,
      "",
      mdTable(rows),
      "",
      `Every run: ${[...runs.plain, ...runs.loom].map((r) => `${r.config} ${Math.round(r.reqPerS)} req/s, p99.9 ${r.p999Us.toFixed(0)} µs`).join("; ")}.`,
    ].join("\n"),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runUserLoopSuite({ smoke: process.argv.includes("--smoke") });
  console.log(report.markdown);
  console.log(report.goals);
}
