// The summaries suite (issue 9): on both engines, histories of 1k, 100k and 1M messages in
// an 8k window with summaries on ({ keepLast: 20 }, extractive). The build that makes the
// summary covers the whole history but the newest 20 messages: O(W + covered), once. The
// builds after it see the summary and the newest messages: O(W), flat from 1k to 1M.
// Nothing here asserts on timings: goals are printed as PASS / MISS.
//
//   node --import ./bench/ts-loader.mjs bench/summaries.bench.ts [--smoke]

import os from "node:os";
import { Bench } from "tinybench";
import { Loom, type ChatExport, type ModelProfile } from "../src/index.js";

const MODEL: ModelProfile = { name: "bench-sum-8k", contextWindow: 8_000, sizeClass: "small", tokensPerChar: 0.25 };

/** A linear history of `n` messages, user and assistant in turn, as an export (imported in one write). */
function history(n: number): ChatExport {
  const now = Date.now();
  const messages = new Array(n);
  for (let id = 0; id < n; id++) {
    const t = id >> 1;
    messages[id] = {
      id,
      parentId: id === 0 ? null : id - 1,
      role: id % 2 ? "assistant" : "user",
      priority: "normal",
      createdAt: now,
      kind: "message",
      content:
        id % 2
          ? `Answer ${t}: topic ${t % 97} is settled. The details follow in a short paragraph.`
          : `Question ${t} asks about topic ${t % 97}. It gives some context.`,
    };
  }
  return {
    format: "ctxloom.chat",
    version: 1,
    head: n - 1,
    messages,
    chat: {
      id: `bench-${n}`,
      title: "",
      model: MODEL.name,
      system: null,
      createdAt: now,
      updatedAt: now,
      options: { profile: { ...MODEL } },
    },
  } as unknown as ChatExport;
}

async function p50(
  fn: () => unknown,
  seconds: number,
  smoke: boolean,
): Promise<{ p50: number; min: number; samples: number }> {
  const bench = new Bench({
    time: seconds * 1000,
    iterations: 5,
    // The smoke proves the suite runs: tinybench's default warm-up (16 builds) is no use to it.
    ...(smoke ? { warmupTime: 5, warmupIterations: 1 } : { warmupTime: 100 }),
  });
  bench.add("x", fn);
  await bench.run();
  const r = bench.tasks[0]!.result;
  if (r.state !== "completed") throw new Error(`bench task: ${r.state}`);
  return { p50: r.latency.p50, min: r.latency.min, samples: r.latency.samplesCount };
}

interface Row {
  trigger: number;
  covered: number;
  after: { p50: number; min: number; samples: number };
  sent: number;
  tokens: number;
  limit: number;
}

export async function runSummariesSuite(options: { smoke?: boolean } | boolean = {}) {
  const smoke = typeof options === "boolean" ? options : options.smoke === true;
  const log = (s: string) => process.stderr.write(`  ${s}\n`);
  const sizes = smoke ? [1_000, 10_000] : [1_000, 100_000, 1_000_000];
  const seconds = smoke ? 0.05 : 2;
  const results: Record<string, Record<number, Row>> = { wasm: {}, js: {} };
  for (const engine of ["wasm", "js"] as const) {
    for (const n of sizes) {
      const loom = await Loom.open({ engine, counter: "heuristic", summaries: { select: { keepLast: 20 } } });
      log(`${engine}, ${n.toLocaleString("en")} messages: importing`);
      const chat = await loom.user("bench").import(history(n));
      const t0 = performance.now();
      const first = await chat.buildContext();
      const trigger = performance.now() - t0;
      if (!first.compressed) throw new Error(`no summary at ${n}`);
      const summary = first.conversation.find((m) => m.kind === "summary")!;
      const covered = summary.covers!.last - summary.covers!.first + 1;
      log(`${engine}, ${n.toLocaleString("en")}: summarizing build ${trigger.toFixed(1)} ms over ${covered} messages`);
      const after = await p50(() => chat.buildContext(), seconds, smoke);
      const ctx = await chat.buildContext();
      if (chat.stats().compressions !== 1) throw new Error("a build after the summary summarized again");
      results[engine]![n] = {
        trigger,
        covered,
        after,
        sent: ctx.messages.length,
        tokens: ctx.usage.total,
        limit: ctx.usage.limit,
      };
      await loom.close();
    }
  }

  const ms = (x: number) => (x < 1 ? x.toFixed(3) : x.toFixed(1));
  const lo = sizes[0]!;
  const hi = sizes[sizes.length - 1]!;
  const flat = (e: string) => results[e]![hi]!.after.p50 / results[e]![lo]!.after.p50;
  const flatMin = (e: string) => results[e]![hi]!.after.min / results[e]![lo]!.after.min;
  const perCovered = (e: string) => (results[e]![hi]!.trigger / results[e]![hi]!.covered) * 1000;
  const goals = (["wasm", "js"] as const).flatMap((e) => [
    {
      goal: `builds after a summary flat: ${hi.toLocaleString("en")} within 1.5x of ${lo.toLocaleString("en")} (${e.toUpperCase()}, p50)`,
      target: "<= 1.5x",
      measured: `${flat(e).toFixed(2)}x (fastest runs ${flatMin(e).toFixed(2)}x)`,
      pass: flat(e) <= 1.5,
    },
    {
      goal: `the summarizing build is linear in what it covers (${e.toUpperCase()})`,
      target: "reported",
      measured: `${perCovered(e).toFixed(1)} µs per covered message at ${hi.toLocaleString("en")}`,
      pass: true,
    },
  ]);
  const rows = sizes.map((n) => ({
    history: n.toLocaleString("en"),
    covered: results.wasm![n]!.covered.toLocaleString("en"),
    "summarizing build ms (WASM)": ms(results.wasm![n]!.trigger),
    "summarizing build ms (JS)": ms(results.js![n]!.trigger),
    "build after p50 ms (WASM)": ms(results.wasm![n]!.after.p50),
    "build after p50 ms (JS)": ms(results.js![n]!.after.p50),
    "messages sent": results.wasm![n]!.sent,
    "tokens / limit": `${results.wasm![n]!.tokens} / ${results.wasm![n]!.limit}`,
  }));
  const machine = `${os.cpus()[0]?.model.trim()} (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const keys = Object.keys(rows[0]!);
  const markdown = [
    `#### Summaries (8k window, { keepLast: 20 }, extractive), ${machine}${smoke ? " (smoke)" : ""}`,
    "",
    `| ${keys.join(" | ")} |`,
    `|${keys.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${keys.map((k) => (r as Record<string, string | number>)[k]).join(" | ")} |`),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  return {
    name: "summaries",
    tables: [{ title: "buildContext with summaries by history size", rows }],
    goals,
    markdown,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runSummariesSuite(process.argv.includes("--smoke"));
  console.table(report.tables[0]!.rows);
  console.log(`\n${report.markdown}`);
}
