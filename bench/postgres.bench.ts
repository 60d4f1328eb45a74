// PostgreSQL store: appends per second with 1, 4 and 8 writer processes (full and batched
// durability), and how long another instance takes to hear of a new message. Needs
// Debian's PostgreSQL binaries: a throwaway cluster is started for the run.
// Alone: node --import ./bench/ts-loader.mjs bench/postgres.bench.ts [--smoke]
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { postgresStore } from "../src/postgres.js";
import { postgresBin, startCluster } from "../test/store/pg-cluster.js";
import { TS_LOADER } from "./report.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Busy and total CPU time of the machine so far, in ms (every core, every process: PostgreSQL's too). */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

interface SuiteReport {
  name: string;
  tables: { title: string; rows: Record<string, string | number>[] }[];
  goals: { goal: string; target: string; measured: string; pass: boolean }[];
  markdown: string;
}

function writer(
  url: string,
  prefix: string,
  appends: number,
  durability: string,
): Promise<{ appends: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", TS_LOADER, join(root, "bench/pg-writer.ts"), url, prefix, "8", String(appends), durability],
      { cwd: root },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (status) =>
      status === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer exited ${status}: ${err}`)),
    );
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

export async function runPostgresSuite(options: { smoke?: boolean } = {}): Promise<SuiteReport> {
  const smoke = options.smoke === true;
  if (!postgresBin()) {
    console.warn("[skip] postgres bench: no PostgreSQL binaries; run `apt-get install postgresql`.");
    return { name: "postgres", tables: [], goals: [], markdown: "PostgreSQL bench skipped: no server binaries." };
  }
  const cluster = await startCluster();
  const rows: Record<string, string | number>[] = [];
  try {
    const appends = smoke ? 40 : 2000;
    let n = 0;
    for (const durability of ["full", "batched"]) {
      for (const processes of smoke ? [1, 2] : [1, 4, 8]) {
        const prefix = `b${++n}_`;
        const warm = postgresStore(cluster.url, { tablePrefix: prefix });
        await warm.listChats("warm-up"); // create the schema once
        await warm.close();
        const started = performance.now();
        const cpu0 = cpuTimes();
        const results = await Promise.all(
          Array.from({ length: processes }, () => writer(cluster.url, prefix, appends, durability)),
        );
        const wall = (performance.now() - started) / 1000;
        const cpu1 = cpuTimes();
        const total = results.reduce((s, r) => s + r.appends, 0);
        const busiest = Math.max(...results.map((r) => r.ms)) / 1000;
        rows.push({
          durability,
          processes,
          appends: total,
          "appends/s": Math.round(total / busiest),
          "wall s (with start-up)": wall.toFixed(1),
          // The machine's cores busy over the run (writers, PostgreSQL, start-up), and the CPU an
          // append costs in all: where the cores are full at one writer, more writers only share them.
          "cores busy %": Math.round((100 * (cpu1.busy - cpu0.busy)) / (cpu1.total - cpu0.total)),
          "core-ms an append": +((cpu1.busy - cpu0.busy) / total).toFixed(2),
        });
      }
    }
    // Another instance hears of a new message: append on A, time until B's watch fires.
    const prefix = `b${++n}_`;
    const a = postgresStore(cluster.url, { tablePrefix: prefix });
    const b = postgresStore(cluster.url, { tablePrefix: prefix });
    await a.createChat({
      id: "c",
      userId: "u",
      title: "",
      model: "gpt-4o",
      system: null,
      createdAt: 0,
      updatedAt: 0,
      messageCount: 0,
      head: null,
      options: {},
    });
    let heard: (() => void) | undefined;
    const stop = await b.watch(() => heard?.());
    const latencies: number[] = [];
    for (let i = 0; i < (smoke ? 10 : 300); i++) {
      const got = new Promise<void>((resolve) => (heard = resolve));
      const t0 = performance.now();
      await a.appendMessage({
        userId: "u",
        chatId: "c",
        message: {
          id: i,
          parentId: i ? i - 1 : null,
          role: "user",
          content: "x",
          priority: "normal",
          tokens: 4,
          createdAt: 0,
          kind: "message",
        },
        head: i,
        updatedAt: 0,
      });
      await got;
      latencies.push(performance.now() - t0);
    }
    await stop();
    await a.close();
    await b.close();
    latencies.sort((x, y) => x - y);
    const seen = { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
    const table = rows
      .map(
        (r) =>
          `| ${r.durability} | ${r.processes} | ${r["appends/s"]} | ${r["cores busy %"]} | ${r["core-ms an append"]} |`,
      )
      .join("\n");
    return {
      name: "postgres",
      tables: [
        { title: "PostgreSQL appends (Loom, 8 chats per process)", rows },
        {
          title: "another instance sees a new message (ms, append to NOTIFY)",
          rows: [{ p50: seen.p50.toFixed(2), p99: seen.p99.toFixed(2) }],
        },
      ],
      goals: [
        {
          goal: "another instance hears of a new message (append to NOTIFY), p99",
          target: "< 50 ms",
          measured: `${seen.p99.toFixed(2)} ms`,
          pass: seen.p99 < 50,
        },
        ...["full", "batched"].map((durability) => {
          const mine = rows.filter((r) => r.durability === durability);
          const one = mine[0]!["appends/s"] as number;
          const most = mine[mine.length - 1]!;
          const x = (most["appends/s"] as number) / one;
          return {
            goal: `${durability}: appends/s with ${most.processes} writer processes against 1`,
            target: "> 1x (writers to different chats do not serialize)",
            measured: `${x.toFixed(2)}x`,
            pass: x > 1,
          };
        }),
      ],
      markdown: [
        "| durability | writer processes | appends/s | cores busy % | core-ms an append |",
        "|---|---:|---:|---:|---:|",
        table,
        "",
        `On ${cpus().length} cores: where one writer and its PostgreSQL backend keep the cores busy, more writers share ` +
          "the same CPU; a fleet adds appends/s as it adds cores, about 1000 / (core-ms an append) a core.",
        "",
        `Another instance hears of a new message (append to NOTIFY): p50 ${seen.p50.toFixed(2)} ms, p99 ${seen.p99.toFixed(2)} ms.`,
      ].join("\n"),
    };
  } finally {
    cluster.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runPostgresSuite({ smoke: process.argv.includes("--smoke") });
  for (const t of report.tables) {
    console.log(`\n${t.title}`);
    console.table(t.rows);
  }
  console.log(`\n${report.markdown}`);
}
