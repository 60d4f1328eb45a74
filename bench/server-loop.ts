// THE SERVER LOOP, for ONE configuration per process (heaps and collectors apart):
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/server-loop.ts <wasm|ts|plain|plain-wasm> <exact|heuristic> <chats> <perChat> <requests> <inFlight>
//
// `chats` resident conversations of `perChat` messages (10,000 x 100 = 1M), then `requests`
// requests with `inFlight` of them under way at once, each doing what a chat server does per
// turn: append the user's message, build the context to send, append the model's answer.
// The configurations (bench/server-handlers.ts): wasm (the defaults: WASM engine, ctxloom's
// WebAssembly BPE), ts (JS engine, gpt-tokenizer), plain (an array per chat, gpt-tokenizer) and
// plain-wasm (the same arrays counted by ctxloom's WebAssembly BPE: the library's own cost).
// With `heuristic`, all four count by the 4-characters estimate instead: the library's own
// cost, without a tokenizer. Both Looms run on their defaults: the in-memory store keeps every
// chat open, and recall embeds nothing until a chat is recalled.
// Prints one JSON line (ServerResult) on stdout; bench/server.bench.ts spawns it.
// CTXLOOM_BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the measured requests only.

import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Session } from "node:inspector/promises";
import { corpus } from "./corpus.js";
import { watchGc } from "./gc.js";
import {
  CONFIGS,
  makeHandler,
  requestOrder,
  runRequests,
  warmUp,
  type Config,
  type Counting,
} from "./server-handlers.js";

export type { Config, Counting } from "./server-handlers.js";

export interface ServerResult {
  config: Config;
  counting: Counting;
  /** The counter's name, as the chat reports it ("o200k_base", "heuristic:0.25"...). */
  counter: string;
  chats: number;
  perChat: number;
  requests: number;
  inFlight: number;
  buildS: number;
  reqPerS: number;
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  rssMB: number;
  heapMB: number;
  externalMB: number;
  /** Collections during the measured requests: how many, the longest, and their total time. */
  gcCount: number;
  /** Of those, the full (mark-compact) ones. */
  gcMajor: number;
  gcMaxMs: number;
  gcTotalMs: number;
  wallS: number;
  /** Messages sent per request, on average (the contexts must match across configurations). */
  sentPerRequest: number;
  /** The 1-minute load average as the measured requests ended (the machine is shared). */
  load?: number;
}

async function main(): Promise<void> {
  const [
    config = "wasm",
    counting = "exact",
    chatsArg = "10000",
    perChatArg = "100",
    requestsArg = "20000",
    inFlightArg = "64",
  ] = process.argv.slice(2);
  if (!(CONFIGS as readonly string[]).includes(config))
    throw new Error(`unknown configuration ${config}: ${CONFIGS.join(" | ")}`);
  if (counting !== "exact" && counting !== "heuristic")
    throw new Error(`unknown counting ${counting}: exact | heuristic`);
  const chats = Number(chatsArg);
  const perChat = Number(perChatArg);
  const requests = Number(requestsArg);
  const inFlight = Number(inFlightArg);
  const texts = corpus();

  const t0 = performance.now();
  const handler = await makeHandler(config as Config, counting, chats, perChat, texts);
  const buildS = (performance.now() - t0) / 1000;
  globalThis.gc?.();
  const chatOf = requestOrder(chats);
  const latencies = new Float64Array(requests);
  await warmUp(handler, texts, chatOf, requests);
  const collector = watchGc();
  const profile = process.env.CTXLOOM_BENCH_PROFILE ? new Session() : undefined;
  if (profile) {
    profile.connect();
    await profile.post("Profiler.enable");
    await profile.post("Profiler.start");
  }
  const wall0 = performance.now();
  const sent = await runRequests(handler, texts, chatOf, 0, requests, inFlight, latencies);
  const wallS = (performance.now() - wall0) / 1000;
  if (profile)
    writeFileSync(process.env.CTXLOOM_BENCH_PROFILE!, JSON.stringify((await profile.post("Profiler.stop")).profile));
  const gc = collector.stop();

  const sorted = latencies.slice().sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const mem = process.memoryUsage();
  const result: ServerResult = {
    config: config as Config,
    counting,
    counter: handler.counter,
    chats,
    perChat,
    requests,
    inFlight,
    buildS,
    reqPerS: requests / wallS,
    p50Us: q(0.5),
    p99Us: q(0.99),
    p999Us: q(0.999),
    maxUs: sorted[sorted.length - 1]!,
    rssMB: mem.rss / 2 ** 20,
    heapMB: mem.heapUsed / 2 ** 20,
    externalMB: mem.external / 2 ** 20,
    gcCount: gc.durations.length,
    gcMajor: gc.major,
    gcMaxMs: Math.max(0, ...gc.durations),
    gcTotalMs: gc.durations.reduce((t, d) => t + d, 0),
    wallS,
    sentPerRequest: sent / requests,
    load: Math.round(loadavg()[0]! * 10) / 10,
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
