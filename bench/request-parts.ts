// Where a server request's time and allocation go, by part, for ONE configuration per process:
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/request-parts.ts <wasm|plain-wasm|ts|plain> [chats] [perChat] [requests] [inFlight]
//
// The server loop of bench/server-handlers.ts (append the question, build the context, append
// the answer), over `requests` requests after a warm-up:
//   1. as it runs: CPU time per request (process.cpuUsage, which a loaded machine disturbs far
//      less than wall time), heap bytes allocated per request (v8.GCProfiler: the heap's growth
//      plus what every collection freed), and the bytes each scavenge kept (copied or promoted);
//   2. in a process of its own with inlining off (V8's profilers see only the function optimized
//      code was compiled for, not what it inlined), a CPU profile (100 µs samples) and then a
//      sampling allocation profile (every 256 bytes, freed objects kept): each sample's stack
//      is put in one part (see `classify`), and a part's time and bytes per request are its
//      shares of the samples times the figures of (1);
//   3. in a process of its own, heap objects per open chat, from heap snapshots around making
//      1,000 chats of `perChat` messages.
// Prints one JSON line (PartsResult) on stdout; bench/server.bench.ts spawns it.

import { execFileSync } from "node:child_process";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GCProfiler } from "node:v8";
import { corpus } from "./corpus.js";
import {
  CONFIGS,
  makeHandler,
  requestOrder,
  runRequests,
  warmUp,
  type Config,
  type Handler,
} from "./server-handlers.js";
import { heapObjects } from "../test/heap-objects.js";
import { ROOT } from "./report.js";

/** The parts of a request, in the order the table shows them. */
export const PARTS = [
  "append: checks",
  "append: counting",
  "append: store",
  "append: engine",
  "append: the rest (queue, message, head)",
  "build: plan (options, budget)",
  "build: selection",
  "build: output (messages sent)",
  "build: the rest (usage, context, summary check)",
  "the bench's own loop",
  "promises, microtasks and the rest",
  "garbage collector",
] as const;
export type Part = (typeof PARTS)[number];

export interface PartsResult {
  config: Config;
  chats: number;
  perChat: number;
  requests: number;
  inFlight: number;
  /** CPU time per request, µs (run 1). */
  cpuUs: number;
  /** Heap bytes allocated per request (run 1). */
  allocatedB: number;
  /** Bytes per request that scavenges kept (copied within the young generation or promoted to the old one). */
  survivedB: number;
  /** Collections per 1,000 requests (run 1): scavenges and full ones. */
  scavengesPer1k: number;
  fullPer1k: number;
  /** CPU µs per request by part (run 2), and bytes per request by part (run 3). */
  us: Partial<Record<Part, number>>;
  bytes: Partial<Record<Part, number>>;
  /** CPU samples taken in run 2 (the parts' precision). */
  samples: number;
  /** Heap objects per open chat of `perChat` messages (from heap snapshots). */
  /** Null in the smoke run: its two heap snapshots take seconds whatever the size. */
  objectsPerChat: number | null;
  load: number;
}

const ROOT_URL = pathToFileURL(ROOT).href + "/";

interface Frame {
  functionName: string;
  url: string;
}

/** A frame's part, or its phase alone when the frames above it decide the part; null: ask the caller. */
function tag(f: Frame): { phase?: "append" | "build" | "driver"; part?: string } | null {
  const file = f.url.startsWith(ROOT_URL) ? f.url.slice(ROOT_URL.length) : f.url;
  const fn = f.functionName;
  if (file === "bench/server-handlers.ts") {
    if (fn === "plainCount") return { phase: "append", part: "counting" };
    if (fn === "plainStore") return { phase: "append", part: "store" };
    if (fn === "plainSelect") return { phase: "build", part: "selection" };
    if (fn === "plainOutput") return { phase: "build", part: "output" };
    return { phase: "driver" };
  }
  if (file.startsWith("src/tokens/")) return { part: "counting" };
  if (file.startsWith("src/store/")) return { part: "store" };
  if (file.startsWith("src/engine/")) return { part: "engine" };
  if (file === "src/chat/append-key.ts")
    return fn === "appendKey" ? { phase: "append", part: "checks" } : { phase: "append", part: "store" };
  if (file === "src/chat/nodes.ts") {
    if (fn === "unitAt" || fn === "callIdUsed" || fn === "mayOpenUnit" || fn === "isAncestor")
      return { part: "checks" };
    if (fn === "sendable" || fn === "#sendable" || fn === "message") return { part: "output" };
    return { part: "engine" };
  }
  // (A message is checked at its append; a tool unit's fields are read when the build formats them.)
  if (file === "src/message.ts" || file === "src/context/tool-units.ts") return { phase: "append", part: "checks" };
  if (file === "src/parts.ts") return { part: "checks" };
  if (file === "src/context/stable.ts" || file === "src/context/critical.ts")
    return { phase: "build", part: "selection" };
  if (file === "src/chat/sent-cache.ts") return { phase: "build", part: "output" };
  if (
    file === "src/context/format.ts" ||
    file === "src/context/held.ts" ||
    file === "src/context/parts-format.ts" ||
    file === "src/summary/present.ts"
  ) {
    return { phase: "build", part: "output" };
  }
  if (file === "src/context/build-plan.ts" || file.startsWith("src/models/")) return { phase: "build", part: "plan" };
  if (
    file === "src/context/build.ts" ||
    file === "src/chat/chat-context.ts" ||
    file.startsWith("src/summary/") ||
    file === "src/chat/stats.ts"
  ) {
    return { phase: "build" };
  }
  if (file === "src/chat/sync.ts") return { phase: "append" };
  if (file === "src/chat/queue.ts") return {};
  if (file === "src/chat/chat.ts") {
    if (fn === "append" || fn === "#appendChecked" || fn === "cancelToolCalls") return { phase: "append" };
    if (/build|#built/i.test(fn)) return { phase: "build" };
    return null;
  }
  return null;
}

/** The part of one sample, from its stack (leaf first). */
export function classify(stack: Frame[]): Part {
  const leaf = stack[0];
  if (leaf?.functionName === "(garbage collector)") return "garbage collector";
  let part: string | undefined;
  let phase: string | undefined;
  for (const f of stack) {
    const t = tag(f);
    if (!t) continue;
    part ??= t.part;
    phase ??= t.phase;
    if (part !== undefined && phase !== undefined) break;
  }
  if (phase === "append") {
    if (part === "counting" || part === "store" || part === "engine" || part === "checks") return `append: ${part}`;
    return "append: the rest (queue, message, head)";
  }
  if (phase === "build") {
    if (part === "plan") return "build: plan (options, budget)";
    if (part === "engine" || part === "selection") return "build: selection";
    if (part === "output" || part === "store") return "build: output (messages sent)"; // (texts read from the columns)
    return "build: the rest (usage, context, summary check)";
  }
  if (phase === "driver") return "the bench's own loop";
  return "promises, microtasks and the rest"; // (program), and frames of no part: the queue's and the awaits' own work
}

interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}

/** Stacks by node id (leaf first), for a profile's tree of nodes. */
function stacksOf(nodes: { id: number; callFrame: Frame; children?: number[] }[]): Map<number, Frame[]> {
  const parent = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const stacks = new Map<number, Frame[]>();
  for (const n of nodes) {
    const stack: Frame[] = [];
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
    stacks.set(n.id, stack);
  }
  return stacks;
}

interface HeapNode {
  id: number;
  callFrame: Frame;
  selfSize: number;
  children: HeapNode[];
}

async function measure(
  config: Config,
  chats: number,
  perChat: number,
  requests: number,
  inFlight: number,
): Promise<Omit<PartsResult, "objectsPerChat">> {
  const texts = corpus();
  const handler: Handler = await makeHandler(config, "exact", chats, perChat, texts);
  const chatOf = requestOrder(chats);
  globalThis.gc?.();
  await warmUp(handler, texts, chatOf, requests);
  let k = 0;
  const run = async () => {
    await runRequests(handler, texts, chatOf, k, k + requests, inFlight);
    k += requests;
  };

  // 1. Bare: CPU time and allocation.
  const gc = new GCProfiler();
  const used0 = process.memoryUsage().heapUsed;
  gc.start();
  const cpu0 = process.cpuUsage();
  await run();
  const cpu = process.cpuUsage(cpu0);
  const used1 = process.memoryUsage().heapUsed;
  const stats = gc.stop()?.statistics ?? [];
  let freed = 0;
  let survived = 0;
  let scavenges = 0;
  const space = (s: (typeof stats)[number]["beforeGC"], name: string) =>
    s.heapSpaceStatistics.find((x) => x.spaceName === name)?.spaceUsedSize ?? 0;
  for (const s of stats) {
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    if (s.gcType === "Scavenge" || s.gcType === "MinorMarkSweep") {
      scavenges++;
      survived +=
        space(s.afterGC, "new_space") + Math.max(0, space(s.afterGC, "old_space") - space(s.beforeGC, "old_space"));
    }
  }
  const cpuUs = (cpu.user + cpu.system) / requests;

  const allocatedB = (used1 - used0 + freed) / requests;
  return {
    config,
    chats,
    perChat,
    requests,
    inFlight,
    cpuUs,
    allocatedB,
    survivedB: survived / requests,
    scavengesPer1k: (scavenges / requests) * 1000,
    fullPer1k: ((stats.length - scavenges) / requests) * 1000,
    us: {},
    bytes: {},
    samples: 0,
    load: Math.round(loadavg()[0]! * 10) / 10,
  };
}

type Shares = Partial<Record<Part, number>>;

/** Each part's share of `total`, from (part, amount) pairs. */
function sharesOf(pairs: Iterable<[Part, number]>): { shares: Shares; total: number } {
  const shares: Shares = {};
  let total = 0;
  for (const [part, n] of pairs) {
    shares[part] = (shares[part] ?? 0) + n;
    total += n;
  }
  for (const part of Object.keys(shares) as Part[]) shares[part] = shares[part]! / Math.max(1, total);
  return { shares, total };
}

/**
 * Each part's share of the CPU samples and of the bytes allocated. V8's profilers see only the
 * function optimized code was compiled for, not what it inlined (its time and allocations are
 * the caller's), so this runs in a process of its own with inlining off; `main` applies the
 * shares to the time and bytes `measure` found with inlining on.
 */
async function profileShares(
  config: Config,
  chats: number,
  perChat: number,
  requests: number,
  inFlight: number,
): Promise<{ cpu: Shares; bytes: Shares; samples: number }> {
  const texts = corpus();
  const handler = await makeHandler(config, "exact", chats, perChat, texts);
  const chatOf = requestOrder(chats);
  await warmUp(handler, texts, chatOf, requests);
  const session = new Session();
  session.connect();

  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  await runRequests(handler, texts, chatOf, 0, requests, inFlight);
  const { profile } = await session.post("Profiler.stop");
  const stacks = stacksOf(profile.nodes as ProfileNode[]);
  const cpu = sharesOf(
    (function* () {
      for (const id of profile.samples ?? []) {
        const stack = stacks.get(id)!;
        if (stack[0]!.functionName !== "(idle)") yield [classify(stack), 1] as [Part, number];
      }
    })(),
  );

  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await runRequests(handler, texts, chatOf, requests, 2 * requests, inFlight);
  const { profile: heap } = await session.post("HeapProfiler.stopSampling");
  session.disconnect();
  const bytes = sharesOf(
    (function* () {
      const visit = function* (node: HeapNode, stack: Frame[]): Generator<[Part, number]> {
        const here = [node.callFrame, ...stack];
        if (node.selfSize > 0) yield [classify(here), node.selfSize];
        for (const c of node.children) yield* visit(c, here);
      };
      yield* visit(heap.head as unknown as HeapNode, []);
    })(),
  );
  return { cpu: cpu.shares, bytes: bytes.shares, samples: cpu.total };
}

/** Heap objects per open chat of `perChat` messages (texts shared with the corpus, so they add no object). */
async function objectsPerChat(config: Config, chats: number, perChat: number): Promise<number> {
  const texts = corpus();
  await makeHandler(config, "exact", 10, 2, texts); // the counter and the code loaded first
  globalThis.gc?.();
  const before = await heapObjects();
  const handler = await makeHandler(config, "exact", chats, perChat, texts);
  const after = await heapObjects();
  if (!handler) throw new Error("no handler");
  return (after - before) / chats;
}

async function main(): Promise<void> {
  const [config = "wasm", chats = "10000", perChat = "100", requests = "20000", inFlight = "1", mode] =
    process.argv.slice(2);
  if (!(CONFIGS as readonly string[]).includes(config))
    throw new Error(`unknown configuration ${config}: ${CONFIGS.join(" | ")}`);
  if (mode === "profile") {
    process.stdout.write(
      JSON.stringify(
        await profileShares(config as Config, Number(chats), Number(perChat), Number(requests), Number(inFlight)),
      ) + "\n",
    );
    return;
  }
  if (mode === "objects") {
    process.stdout.write(
      JSON.stringify({ objectsPerChat: await objectsPerChat(config as Config, Number(chats), Number(perChat)) }) + "\n",
    );
    return;
  }
  const result = await measure(config as Config, Number(chats), Number(perChat), Number(requests), Number(inFlight));
  // The profiles and the heap snapshots in processes of their own (see profileShares).
  const child = (flags: string[], args: string[]): unknown => {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, ...flags, fileURLToPath(import.meta.url), config, ...args],
      {
        encoding: "utf8",
        maxBuffer: 1 << 20,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    return JSON.parse(out.trim().split("\n").at(-1)!);
  };
  const shares = child(["--no-turbo-inlining"], [chats, perChat, requests, inFlight, "profile"]) as {
    cpu: Shares;
    bytes: Shares;
    samples: number;
  };
  for (const part of Object.keys(shares.cpu) as Part[]) result.us[part] = shares.cpu[part]! * result.cpuUs;
  for (const part of Object.keys(shares.bytes) as Part[]) result.bytes[part] = shares.bytes[part]! * result.allocatedB;
  result.samples = shares.samples;
  // Heap objects: 1,000 chats between two heap snapshots (seconds whatever the size: not in the smoke run).
  const objects =
    process.env.CTXLOOM_BENCH_SMOKE === "1"
      ? null
      : (child([], ["1000", perChat, "0", "1", "objects"]) as { objectsPerChat: number }).objectsPerChat;
  process.stdout.write(JSON.stringify({ ...result, objectsPerChat: objects } satisfies PartsResult) + "\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
