// The memory suite: what a resident message costs through the public API, both engines.
//
//   (a) bytes per message at 1k, 10k, 100k and 1M messages in one chat: v8's used_heap_size
//       growth after gc() plus the growth of the engine's memory (the WASM linear memory; the
//       JS engine keeps everything on the heap), texts shared with the corpus so they are
//       not counted: the figure is ctxloom's own bookkeeping per message;
//   (b) JS heap objects per message at the same sizes (v8.queryObjects(Object) before and
//       after: one heap walk, no snapshot);
//   (c) the collector's pauses (v8's GCProfiler, bench/gc.ts) while the 1M chat is built
//       and while requests (append, buildContext, append) run against it.
// Each engine runs in a child process of its own: `heap.bench.ts child <engine> <sizes...>`.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { getHeapStatistics, queryObjects } from "node:v8";
import { corpus } from "./corpus.js";
import { watchGc } from "./gc.js";
import {
  TS_LOADER,
  count,
  fmt,
  gc,
  log,
  mdTable,
  ratio,
  ROOT,
  type Goal,
  type ScalePoint,
  type SuiteOptions,
  type SuiteReport,
} from "./report.js";
import { Loom } from "../src/index.js";

const FULL = { sizes: [1_000, 10_000, 100_000, 1_000_000], requests: 20_000 };
const SMOKE: typeof FULL = { sizes: [100, 1_000], requests: 200 };

interface SizeResult {
  messages: number;
  heapPerMessage: number;
  enginePerMessage: number;
  objectsPerMessage: number;
}

interface Pauses {
  count: number;
  totalMs: number;
  maxMs: number;
  p99Ms: number;
}

interface ChildResult {
  engine: "wasm" | "js";
  sizes: SizeResult[];
  buildPauses: Pauses;
  requestPauses: Pauses;
  requests: number;
}

function pauses(durations: number[]): Pauses {
  const s = [...durations].sort((a, b) => a - b);
  return {
    count: s.length,
    totalMs: s.reduce((a, b) => a + b, 0),
    maxMs: s.at(-1) ?? 0,
    p99Ms: s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] ?? 0,
  };
}

function observeGc(): { stop(): number[] } {
  const watch = watchGc();
  return { stop: () => watch.stop().durations };
}

async function child(engine: "wasm" | "js", sizes: number[], requests: number): Promise<ChildResult> {
  const texts = corpus();
  const out: SizeResult[] = [];
  let buildPauses = pauses([]);
  let requestPauses = pauses([]);
  for (const n of sizes) {
    const last = n === sizes[sizes.length - 1];
    gc();
    const heap0 = getHeapStatistics().used_heap_size;
    const objects0 = queryObjects(Object, { format: "count" }) as number;
    // A fresh Loom per size: its engine's memory starts from nothing.
    const loom = await Loom.open({ engine, counter: "heuristic" });
    const engineImpl = loom.engineImpl;
    const engine0 = engine === "wasm" ? engineImpl.memoryUsedBytes() : 0;
    const chat = await loom.user("bench").create({ model: "gpt-4o", system: "You are a helpful assistant." });
    const watch = last ? observeGc() : undefined;
    for (let i = 0; i < n; i++) {
      const pending = chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[i % texts.length]! });
      if (i % 10_000 === 9_999 || i === n - 1) await pending;
    }
    if (watch) buildPauses = pauses(watch.stop());
    gc();
    const heap = getHeapStatistics().used_heap_size - heap0;
    const objects = (queryObjects(Object, { format: "count" }) as number) - objects0;
    const engineBytes = engine === "wasm" ? engineImpl.memoryUsedBytes() - engine0 : 0;
    out.push({
      messages: n,
      heapPerMessage: heap / n,
      enginePerMessage: engineBytes / n,
      objectsPerMessage: objects / n,
    });
    if (last) {
      const requestWatch = observeGc();
      for (let k = 0; k < requests; k++) {
        await chat.append({ role: "user", content: texts[k % texts.length]! });
        await chat.buildContext();
        await chat.append({ role: "assistant", content: texts[(k * 31) % texts.length]! });
      }
      requestPauses = pauses(requestWatch.stop());
    }
    await loom.close();
  }
  return { engine, sizes: out, buildPauses, requestPauses, requests };
}

export async function runHeapSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const C = options.smoke ? SMOKE : FULL;
  const results = {} as Record<"wasm" | "js", ChildResult>;
  for (const engine of ["wasm", "js"] as const) {
    log(
      `${engine}: ${C.sizes.map(count).join(", ")} messages, then ${count(C.requests)} requests at ${count(C.sizes.at(-1)!)}`,
    );
    const stdout = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        "--no-warnings",
        "--import",
        TS_LOADER,
        "--max-old-space-size=8192",
        fileURLToPath(import.meta.url),
        "child",
        engine,
        String(C.requests),
        ...C.sizes.map(String),
      ],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
    );
    results[engine] = JSON.parse(stdout.trim().split("\n").pop()!) as ChildResult;
  }

  const total = (s: SizeResult) => s.heapPerMessage + s.enginePerMessage;
  const at = (e: "wasm" | "js", n: number) => results[e].sizes.find((s) => s.messages === n)!;
  const large = C.sizes.at(-1)!;
  const goals: Goal[] = [];
  const memRatio = total(at("js", large)) / total(at("wasm", large));
  goals.push({
    goal: `bytes/message at ${count(large)}, JS engine / WASM engine (heap + engine memory, texts excluded)`,
    target: ">= 2x",
    measured: `${ratio(memRatio)} (${fmt(total(at("wasm", large)))} vs ${fmt(total(at("js", large)))} B)`,
    pass: memRatio >= 2,
  });
  const objWasm = at("wasm", large).objectsPerMessage;
  goals.push({
    goal: `JS heap objects per message at ${count(large)}, WASM engine`,
    target: "<= 1",
    measured: fmt(objWasm),
    pass: objWasm <= 1,
  });
  const pauseRatio = results.js.requestPauses.maxMs / Math.max(results.wasm.requestPauses.maxMs, 1e-3);
  goals.push({
    goal: `longest GC pause during requests at ${count(large)}, JS / WASM`,
    target: ">= 2x",
    measured: `${ratio(pauseRatio)} (${fmt(results.wasm.requestPauses.maxMs)} vs ${fmt(results.js.requestPauses.maxMs)} ms)`,
    pass: pauseRatio >= 2,
  });

  const rows = C.sizes.map((n) => ({
    messages: count(n),
    "WASM B/message": fmt(total(at("wasm", n))),
    "  heap": fmt(at("wasm", n).heapPerMessage),
    "  linear memory": fmt(at("wasm", n).enginePerMessage),
    "JS B/message": fmt(total(at("js", n))),
    "JS / WASM": ratio(total(at("js", n)) / total(at("wasm", n))),
    "WASM objects/message": fmt(at("wasm", n).objectsPerMessage),
    "JS objects/message": fmt(at("js", n).objectsPerMessage),
  }));
  const prow = (["wasm", "js"] as const).flatMap((e) =>
    (["buildPauses", "requestPauses"] as const).map((phase) => ({
      engine: e,
      phase: phase === "buildPauses" ? `building ${count(large)}` : `${count(C.requests)} requests at ${count(large)}`,
      pauses: results[e][phase].count,
      "total ms": fmt(results[e][phase].totalMs),
      "p99 ms": fmt(results[e][phase].p99Ms),
      "longest ms": fmt(results[e][phase].maxMs),
    })),
  );
  const markdown = [
    `#### Memory per resident message (one chat, texts shared so not counted)`,
    "",
    mdTable(rows),
    "",
    `#### Garbage collector pauses`,
    "",
    mdTable(prow),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  const scale: ScalePoint[] = (["wasm", "js"] as const).flatMap((config) =>
    results[config].sizes.map((s) => ({ series: "memory" as const, config, messages: s.messages, value: total(s) })),
  );
  return {
    name: "heap",
    tables: [
      { title: "bytes and heap objects per message", rows },
      { title: "GC pauses", rows: prow },
    ],
    goals,
    markdown,
    scale,
    readme: [
      {
        title: "Memory per resident message, through the public API (texts not counted)",
        columns: [
          "messages",
          "WASM engine",
          "JS engine",
          "JS heap objects per message (WASM / JS)",
          "GC pauses during requests, longest (WASM / JS)",
        ],
        rows: C.sizes.map((n) => [
          count(n),
          `${fmt(total(at("wasm", n)))} B`,
          `${fmt(total(at("js", n)))} B`,
          `${fmt(at("wasm", n).objectsPerMessage)} / ${fmt(at("js", n).objectsPerMessage)}`,
          n === large ? `${fmt(results.wasm.requestPauses.maxMs)} / ${fmt(results.js.requestPauses.maxMs)} ms` : "",
        ]),
        note: "Bytes: v8's used_heap_size growth after gc() plus the engine's linear memory, per message, each engine in its own process. Objects: v8.queryObjects(Object) before and after. The message objects the Loom keeps for its texts are on the heap in both configurations.",
      },
    ],
    results,
  };
}

if (process.argv[2] === "child") {
  const [, , , engine, requests, ...sizes] = process.argv;
  process.stdout.write(
    JSON.stringify(await child(engine as "wasm" | "js", sizes.map(Number), Number(requests))) + "\n",
  );
}
