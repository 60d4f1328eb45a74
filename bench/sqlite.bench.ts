// The SQLite store suite: appends per second through the Loom with "full" and "batched"
// durability against raw better-sqlite3 inserts of the same rows into the same schema, and
// the time to open a chat of 100,000 messages (the store's load, and a Loom's open on each
// engine), in wall time and in CPU time (mean of 5; on a shared machine the wall time mostly
// says how long the process waited for a core). Goals are reported, never asserted.
//
// Alone: `node --import ./bench/ts-loader.mjs bench/sqlite.bench.ts` (add `--smoke` for a tiny, quick run).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { Bench } from "tinybench";
import { Loom, type Message } from "../src/index.js";
import { heuristicCounter } from "../src/tokens-entry.js";
import { sqliteStore } from "../src/sqlite.js";
import type { Durability } from "../src/store-entry.js";
import { schemaSql } from "../src/store/sql-schema.js";
import { FILE_NAMES } from "../src/store/sqlite-schema.js";
import { messageValues } from "../src/store/sql-rows.js";
import { corpus } from "./corpus.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const log = (s: string) => process.stderr.write(`  ${s}\n`);

interface Sizes {
  /** Appends per timed iteration, by durability (a "full" append waits for a disk sync). */
  batch: Record<Durability, number>;
  /** Messages of the chat that is opened. */
  open: number;
  /** Seconds per task, and its warm-up (ms, and at least this many iterations). */
  seconds: number;
  warmup: { ms: number; iterations: number };
}
const FULL_SIZES: Sizes = {
  batch: { full: 200, batched: 2000 },
  open: 100_000,
  seconds: 3,
  warmup: { ms: 200, iterations: 16 },
};
const SMOKE_SIZES: Sizes = {
  batch: { full: 20, batched: 200 },
  open: 2_000,
  seconds: 0.05,
  warmup: { ms: 5, iterations: 1 },
};

async function time(
  tasks: [string, () => unknown, object?][],
  { seconds, warmup }: Sizes,
): Promise<Map<string, { p50: number; mean: number; samples: number }>> {
  const bench = new Bench({
    time: seconds * 1000,
    warmupTime: warmup.ms,
    warmupIterations: warmup.iterations,
    iterations: 5,
  });
  for (const [name, fn, options] of tasks) bench.add(name, fn, options);
  await bench.run();
  const out = new Map<string, { p50: number; mean: number; samples: number }>();
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== "completed")
      throw new Error(`task ${task.name}: ${r.state} ${String((r as { error?: unknown }).error ?? "")}`);
    out.set(task.name, { p50: r.latency.p50, mean: r.latency.mean, samples: r.latency.samplesCount });
  }
  return out;
}

/** A fresh folder for the suite's databases, removed at the end. */
function folder(): { path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-bench-sqlite-"));
  return { path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function runSqliteSuite(options: { smoke?: boolean } = {}) {
  const sizes: Sizes = options.smoke || process.argv.includes("--smoke") ? SMOKE_SIZES : FULL_SIZES;
  const texts = corpus();
  const counter = heuristicCounter();
  const dir = folder();
  const rows: Record<string, string | number>[] = [];
  const perSecond: Record<string, number> = {};
  try {
    // (a) appends through the Loom (alternating user/assistant on one branch; the engine is
    // WASM; heuristic counting, so that the figure is about persistence, not tokenizing).
    let t = 0;
    const next = () => texts[t++ % texts.length]!;
    const appendTasks: [string, () => unknown][] = [];
    const looms: Loom[] = [];
    for (const durability of ["full", "batched"] as Durability[]) {
      const loom = await Loom.open({
        counter: "heuristic",
        store: sqliteStore(dir.path(`loom-${durability}.db`), { durability }),
      });
      looms.push(loom);
      const chat = await loom.user("bench").create({ title: durability });
      const n = sizes.batch[durability];
      appendTasks.push([
        `loom ${durability}`,
        async () => {
          for (let i = 0; i < n; i++) await chat.append({ role: i % 2 ? "assistant" : "user", content: next() });
          await loom.user("bench").list(); // a read: in "batched" mode it writes the batch's chat rows first
        },
      ]);
    }
    // Raw better-sqlite3: the same rows (as the store writes them) into the same schema, with
    // the same pragmas; per-row commits for "full", transactions of 1000 for "batched".
    for (const durability of ["full", "batched"] as Durability[]) {
      const db = new Database(dir.path(`raw-${durability}.db`));
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      db.exec(schemaSql(FILE_NAMES));
      const insert =
        db.prepare(`INSERT INTO messages (chat, id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, created, parts)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      let id = 0;
      const row = (): unknown[] => {
        const content = next();
        const m: Message = {
          id,
          parentId: id === 0 ? null : id - 1,
          role: id % 2 ? "assistant" : "user",
          content,
          priority: "normal",
          tokens: counter.count(content) + 4,
          createdAt: Date.now(),
          kind: "message",
        };
        id++;
        return [1, ...messageValues(m)];
      };
      const n = sizes.batch[durability];
      const many = db.transaction((count: number) => {
        for (let i = 0; i < count; i++) insert.run(...row());
      });
      appendTasks.push([
        `raw ${durability}`,
        durability === "full"
          ? () => {
              for (let i = 0; i < n; i++) insert.run(...row());
            }
          : () => {
              for (let done = 0; done < n; done += 1000) many(Math.min(1000, n - done));
            },
      ]);
    }
    log(`(a) appends: ${sizes.batch.full} per iteration with full durability, ${sizes.batch.batched} with batched`);
    const appends = await time(appendTasks, sizes);
    for (const loom of looms) await loom.close();
    for (const [name, r] of appends) {
      const n = sizes.batch[name.endsWith("full") ? "full" : "batched"];
      perSecond[name] = n / (r.mean / 1000);
      rows.push({
        task: `append, ${name}`,
        "µs per append (mean)": +((r.mean * 1000) / n).toFixed(2),
        "appends / s": Math.round(perSecond[name]),
        samples: r.samples,
      });
    }

    // (b) open a chat of `sizes.open` messages: a chain with a branch every 50 messages.
    log(`(b) open a chat of ${sizes.open.toLocaleString("en")} messages: writing it`);
    const path = dir.path("open.db");
    const writer = sqliteStore(path, { durability: "batched" });
    await writer.createChat({
      id: "big",
      userId: "bench",
      title: "big",
      model: "gpt-4o",
      system: null,
      createdAt: 1,
      updatedAt: 1,
      messageCount: 0,
      head: null,
      options: {},
    });
    for (let id = 0; id < sizes.open; id++) {
      const content = next();
      const parentId = id === 0 ? null : id % 50 === 0 ? id - 2 : id - 1;
      const role = parentId === null || parentId % 2 === 1 ? "user" : "assistant";
      await writer.appendMessage({
        userId: "bench",
        chatId: "big",
        message: {
          id,
          parentId,
          role,
          content,
          priority: "normal",
          tokens: counter.count(content) + 4,
          createdAt: 1,
          kind: "message",
        },
        head: id,
        updatedAt: 2,
      });
    }
    await writer.close();
    const store = sqliteStore(path);
    let loom: Loom | undefined;
    const openTasks: [string, () => unknown, object?][] = [
      [`store.loadChat ${sizes.open}`, async () => store.loadChat("bench", "big")],
    ];
    for (const engine of ["wasm", "js"] as const) {
      openTasks.push([
        `Loom ${engine}: chats.open ${sizes.open}`,
        async () => loom!.user("bench").open("big"),
        {
          beforeEach: async () => {
            loom = await Loom.open({ engine, counter: "heuristic", store: sqliteStore(path) });
          },
          afterEach: async () => {
            await loom!.close();
          },
        },
      ]);
    }
    const opens = await time(openTasks, sizes);
    // The machine is shared: CPU time says what the load costs without waiting for a core.
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < 5; i++) await store.loadChat("bench", "big");
    const cpu = process.cpuUsage(cpu0);
    const loadCpuMs = (cpu.user + cpu.system) / 1000 / 5;
    await store.close();
    // The same for a Loom's open (load, checks, tree), the Loom's own start left out.
    const openCpuMs: Record<string, number> = {};
    for (const engine of ["wasm", "js"] as const) {
      let total = 0;
      for (let i = 0; i < 5; i++) {
        const l = await Loom.open({ engine, counter: "heuristic", store: sqliteStore(path) });
        const c0 = process.cpuUsage();
        await l.user("bench").open("big");
        const c = process.cpuUsage(c0);
        total += (c.user + c.system) / 1000;
        await l.close();
      }
      openCpuMs[engine] = total / 5;
    }
    for (const [name, r] of opens)
      rows.push({ task: name, "ms (p50)": +r.p50.toFixed(1), "ms (mean)": +r.mean.toFixed(1), samples: r.samples });
    rows.push({ task: `store.loadChat ${sizes.open}, CPU time`, "ms (p50)": +loadCpuMs.toFixed(1) });
    for (const engine of ["wasm", "js"])
      rows.push({
        task: `Loom ${engine}: chats.open ${sizes.open}, CPU time`,
        "ms (p50)": +openCpuMs[engine]!.toFixed(1),
      });

    const ratio = perSecond["loom batched"]! / perSecond["raw batched"]!;
    const openWasm = opens.get(`Loom wasm: chats.open ${sizes.open}`)!.p50;
    const goals = [
      {
        goal: "batched appends through the Loom vs raw better-sqlite3 inserts",
        target: ">= 0.7x",
        measured: `${ratio.toFixed(2)}x`,
        pass: ratio >= 0.7,
      },
      {
        goal: `open a chat of ${sizes.open.toLocaleString("en")} messages (Loom, wasm)`,
        target: "< 150 ms",
        measured: `${openWasm.toFixed(1)} ms`,
        pass: openWasm < 150,
      },
    ];
    const markdown = [
      `#### SQLite store (better-sqlite3 12.9, WAL, synchronous=FULL; Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, ` +
        `${cpus().length} cores at load average ${loadavg()[0]!.toFixed(1)})`,
      "",
      "| task | µs per append | appends / s | open ms (p50) |",
      "|---|---|---|---|",
      ...rows.map(
        (r) =>
          `| ${r.task} | ${r["µs per append (mean)"] ?? ""} | ${r["appends / s"] ?? ""} | ${r["ms (p50)"] ?? ""} |`,
      ),
      "",
      `Batched appends through the Loom run at ${ratio.toFixed(2)}x raw inserts of the same rows; ` +
        `"full" waits for a disk sync per append (${Math.round(perSecond["loom full"]!)} / s here, raw: ${Math.round(perSecond["raw full"]!)} / s).`,
    ].join("\n");
    return { name: "sqlite", tables: [{ title: "SQLite store", rows }], goals, markdown };
  } finally {
    dir.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const smoke = process.argv.includes("--smoke");
  const report = await runSqliteSuite();
  console.table(report.tables[0]!.rows);
  for (const g of report.goals)
    console.log(`  ${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  console.log(`\n${report.markdown}`);
  if (!smoke) {
    mkdirSync(join(HERE, "results"), { recursive: true });
    writeFileSync(join(HERE, "results/sqlite.md"), report.markdown + "\n");
  }
}
