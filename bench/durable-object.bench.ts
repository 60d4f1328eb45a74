// Durable Object store: how long a chat of n messages takes to open cold in workerd (through
// miniflare: the runtime restarted, the object constructed and its Loom open, then the chat
// opened and its context built), the isolate's heap it holds then (the JS heap, its array
// buffers and the core's WebAssembly memory), the object's database size, and what an append
// costs (the fill's, through the store). From 50,000 messages a chat opens paged
// (durableObjectStore's pagedFrom): its texts stay in storage, its numbers are read from their
// chunks (schema version 5). The largest paged chat is measured again as an object of version 4
// (no chunks): the first open after the upgrade, and the next. Texts are the real OASST messages
// (bench/corpus.ts), taken in turn. A request that workerd never answers (its isolate reset,
// past its memory) ends the run with an error.
// Alone: node --import ./bench/ts-loader.mjs bench/durable-object.bench.ts [--smoke]
// (CTXLOOM_DO_SIZES=10000,50000 for other sizes)
import type { Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocket } from "undici";
import { bundleWorker, workerdRuntime } from "../test/runtime/do-runtime.js";
import { corpus } from "./corpus.js";
import type { SuiteReport } from "./report.js";

const INSPECTOR = 9347;
/** Messages a fill request appends. */
const FILL = 10_000;

const call = async (mf: Miniflare, body: object) => {
  const r = await mf.dispatchFetch("http://localhost/?user=u", { method: "POST", body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${JSON.stringify(body).slice(0, 40)}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, number>;
};

/** The user worker's heap after a collection (workerd's inspector answers while a request runs: `poke` sends one). */
async function heap(poke: () => Promise<unknown>): Promise<{ usedSize: number; backingStorageSize: number }> {
  const list = (await (await fetch(`http://127.0.0.1:${INSPECTOR}/json/list`)).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(list.find((t) => t.id === "core:user:")!.webSocketDebuggerUrl);
  await new Promise((resolve) => ws.addEventListener("open", resolve));
  const answers = new Map<number, (result: unknown) => void>();
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) answers.get(m.id)?.(m.result);
  });
  const send = async (id: number, method: string) => {
    let result: unknown;
    const answered = new Promise<void>((resolve) => answers.set(id, (r) => resolve(void (result = r))));
    ws.send(JSON.stringify({ id, method }));
    // Requests until one ran while the inspector took the message (a fast one may end before it does).
    for (let done = false; !done; ) {
      await poke();
      done = await Promise.race([
        answered.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(resolve, 50, false)),
      ]);
    }
    return result;
  };
  await send(1, "HeapProfiler.collectGarbage");
  const usage = (await send(2, "Runtime.getHeapUsage")) as { usedSize: number; backingStorageSize: number };
  ws.close();
  return usage;
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

type Cold = {
  opened: Record<string, number>;
  ping: number;
  open: number;
  before: { usedSize: number; backingStorageSize: number };
  after: Cold["before"];
};

/** The chat opened in runtime `mf` (just started: the object constructed by the first request) and its context built, the heap before and after; `mf` disposed. */
async function openCold(mf: Miniflare): Promise<Cold> {
  try {
    const t0 = performance.now();
    await call(mf, { op: "ping" });
    const ping = performance.now() - t0;
    const before = await heap(() => call(mf, { op: "ping" }));
    const t1 = performance.now();
    const opened = await call(mf, { op: "open", chat: "c" });
    const open = performance.now() - t1;
    const after = await heap(() => call(mf, { op: "ping" }));
    return { opened, ping, open, before, after };
  } finally {
    await mf.dispose();
  }
}

/** The table of rows as markdown. */
function markdown(rows: Record<string, string | number>[]): string {
  const headers = Object.keys(rows[0]!);
  return [
    `| ${headers.join(" | ")} |`,
    `|${headers.map(() => "---:").join("|")}|`,
    ...rows.map(
      (r) => `| ${headers.map((h) => (typeof r[h] === "number" ? r[h].toLocaleString("en-US") : r[h])).join(" | ")} |`,
    ),
  ].join("\n");
}

export async function runDurableObjectSuite({ smoke = false }: { smoke?: boolean } = {}): Promise<SuiteReport> {
  const asked = process.env.CTXLOOM_DO_SIZES?.split(",").map(Number);
  const sizes = asked ?? (smoke ? [1000] : [10_000, 25_000, 50_000, 100_000, 200_000, 1_000_000]);
  const code = await bundleWorker("bench/do-open-worker.ts");
  const runtime = (persist: string) =>
    workerdRuntime(
      code,
      persist,
      { CHATS: { className: "BenchChats", useSQLite: true } },
      { inspectorPort: INSPECTOR },
    );
  const texts = corpus();
  const rows: Record<string, string | number>[] = [];
  const migrations: Record<string, string | number>[] = [];
  const upgraded = Math.max(...sizes.filter((n) => n >= 50_000)); // the largest paged chat, measured after an upgrade too
  for (const n of sizes) {
    const persist = mkdtempSync(join(tmpdir(), "ctxloom-do-bench-"));
    try {
      console.error(`durable-object: ${n} messages`);
      const mf = runtime(persist);
      let filled: Record<string, number> = {};
      const f0 = performance.now();
      for (let from = 0; from < n; from += FILL)
        filled = await call(mf, { op: "fill", chat: "c", from, to: Math.min(n, from + FILL), texts });
      const append = ((performance.now() - f0) * 1000) / n; // the store's appends, FILL a request
      await mf.dispose();
      // Cold: a new runtime, the object constructed by the first request.
      const { opened, ping, open, before, after } = await openCold(runtime(persist));
      if (opened.messages !== n) throw new Error(`opened ${opened.messages} messages of ${n}`);
      const core = opened.core!;
      rows.push({
        messages: n,
        paged: n >= 50_000 ? "yes" : "no",
        "database MB": mb(filled.databaseSize!),
        "bytes a message": Math.round(filled.databaseSize! / n),
        "append µs": Math.round(append),
        "first request (object + Loom) ms": Math.round(ping),
        "open + build ms": Math.round(open),
        "heap held MB": mb(after.usedSize - before.usedSize),
        "array buffers held MB": mb(after.backingStorageSize - before.backingStorageSize),
        "core memory MB": mb(core),
        "isolate after MB": mb(after.usedSize + after.backingStorageSize + core),
      });
      if (n === upgraded) {
        // The object as version 4 made it (its chunks of numbers and their table gone, its version 4): the first
        // open after the upgrade migrates and reads the numbers from the rows, writing the chunks; the next reads those.
        const old = runtime(persist);
        await call(old, { op: "version4" });
        await old.dispose();
        const first = await openCold(runtime(persist));
        const next = await openCold(runtime(persist));
        const isolate = (o: Cold) => mb(o.after.usedSize + o.after.backingStorageSize + o.opened.core!);
        migrations.push({
          messages: n,
          "first open + build after the upgrade ms": Math.round(first.open),
          "isolate after MB": isolate(first),
          "next open + build ms": Math.round(next.open),
          "isolate after (next) MB": isolate(next),
        });
      }
    } finally {
      rmSync(persist, { recursive: true, force: true });
    }
  }
  const within = rows.filter(
    (r) => (r["open + build ms"] as number) <= 1000 && (r["isolate after MB"] as number) <= 128,
  );
  const largest = within.length > 0 ? (within[within.length - 1]!.messages as number) : 0;
  const million = rows.find((r) => r.messages === 1_000_000);
  return {
    name: "durable-object",
    tables: [
      { title: "A chat of n messages opened cold in a Durable Object (workerd via miniflare)", rows },
      ...(migrations.length > 0
        ? [
            {
              title:
                "The same chat in an object made by version 4 (no chunks of numbers): the first open after the upgrade, and the next",
              rows: migrations,
            },
          ]
        : []),
    ],
    goals: [
      {
        goal: "the largest chat measured that opens (and builds) within 1 s and 128 MB",
        target: ">= 1,000,000 messages",
        measured: `${largest.toLocaleString("en-US")} messages`,
        pass: largest >= 1_000_000,
      },
      ...(million
        ? [
            {
              goal: "a 1,000,000-message chat: its first context, cold",
              target: "<= 300 ms within 128 MB",
              measured: `${million["open + build ms"]} ms, ${million["isolate after MB"]} MB`,
              pass: (million["open + build ms"] as number) <= 300 && (million["isolate after MB"] as number) <= 128,
            },
          ]
        : []),
    ],
    markdown: [
      markdown(rows),
      ...(migrations.length > 0
        ? [
            "",
            "The same chat in an object made by version 4 (no chunks of numbers): the first open after the upgrade migrates, reads the numbers from the rows and writes the chunks; the next reads those.",
            "",
            markdown(migrations),
          ]
        : []),
    ].join("\n"),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runDurableObjectSuite({ smoke: process.argv.includes("--smoke") });
  console.table(report.tables[0]!.rows);
  console.log(`\n${report.markdown}`);
}
