// THE SERVER LOOP, for ONE configuration per process (heaps and collectors apart):
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/server-loop.ts <wasm|ts|plain> <exact|heuristic> <chats> <perChat> <requests> <inFlight>
//
// `chats` resident conversations of `perChat` messages (10,000 x 100 = 1M), then `requests`
// requests with `inFlight` of them under way at once, each doing what a chat server does per
// turn: append the user's message, build the context to send, append the model's answer.
//   wasm:  a Loom as users run it by default: the WASM engine, exact counts by ctxloom's
//          WebAssembly BPE counter (counting "exact");
//   ts:    the pure-TypeScript configuration: the JS engine, exact counts by gpt-tokenizer
//          (`loadEncoding`, handed to the chat through its model profile's `counter`);
//   plain: what a careful user writes without a library: an array per chat, each message's
//          count cached at push (gpt-tokenizer's own countTokens), the context trimmed by
//          walking back from the end, the same budget, OpenAI-shaped messages out.
// With `heuristic`, all three count by the 4-characters estimate instead: the library's own
// cost, without a tokenizer. Both Looms run on their defaults: the in-memory store keeps every
// chat open, and recall embeds nothing until a chat is recalled.
// Prints one JSON line (ServerResult) on stdout; bench/server.bench.ts spawns it.
// CTXLOOM_BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the measured requests only.

import { countTokens as gptCount } from "gpt-tokenizer/encoding/o200k_base";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { corpus } from "./corpus.js";
import { watchGc } from "./gc.js";
import { Loom, budgetFor, getModelProfile, heuristicCounter, loadEncoding, messageTokens, type Chat, type TokenCounter } from "../src/index.js";

export type Config = "wasm" | "ts" | "plain";
export type Counting = "exact" | "heuristic";

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
}

const SYSTEM = "You are a helpful assistant.";
const MODEL = "gpt-4o";
// Text that looks like a special token counts as text, as a chat API receives it.
const PLAIN = { disallowedSpecial: new Set<string>() };

interface Handler {
  /** The counter's name. */
  counter: string;
  /** One turn of chat `c`; resolves to how many messages the context sent. */
  turn(c: number, question: string, answer: string): Promise<number>;
}

async function loomHandler(config: "wasm" | "ts", counting: Counting, chats: number, perChat: number, texts: string[]): Promise<Handler> {
  const loom = await Loom.open({ engine: config === "wasm" ? "wasm" : "js", counting });
  // Engine "js" alone still counts with the WebAssembly BPE counter (the default wherever it
  // loads): the pure-TS configuration hands gpt-tokenizer to its chats through the profile.
  const model = config === "ts" && counting === "exact" ? { ...getModelProfile(MODEL), counter: await loadEncoding("o200k_base") } : MODEL;
  const open: Chat[] = [];
  for (let c = 0; c < chats; c++) open.push(await loom.user(`user-${c % 1000}`).create({ model, system: SYSTEM }));
  // Appended round-robin, as a server receives them; every chat's appends are awaited once a round.
  for (let i = 0; i < perChat; i++) {
    const pending: Promise<unknown>[] = [];
    for (let c = 0; c < chats; c++) pending.push(open[c]!.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[(c * 7 + i) % texts.length]! }));
    await Promise.all(pending);
  }
  return {
    counter: `${open[0]!.stats().tokenizer}${counting === "heuristic" ? "" : config === "wasm" ? " (ctxloom's WASM BPE)" : " (gpt-tokenizer)"}`,
    async turn(c, question, answer) {
      const chat = open[c]!;
      await chat.append({ role: "user", content: question });
      const context = await chat.buildContext();
      await chat.append({ role: "assistant", content: answer });
      return context.messages.length;
    },
  };
}

interface PlainMessage {
  role: "user" | "assistant";
  content: string;
  tokens: number;
}

async function plainHandler(counting: Counting, chats: number, perChat: number, texts: string[]): Promise<Handler> {
  const counter: TokenCounter = counting === "heuristic" ? heuristicCounter() : { name: "o200k_base", exact: true, count: (text) => gptCount(text, PLAIN) };
  const budget = budgetFor(MODEL);
  const systemTokens = messageTokens(counter, { role: "system", content: SYSTEM });
  const limit = budget.effective - budget.reserve - 3 - systemTokens;
  const store: PlainMessage[][] = [];
  const push = (history: PlainMessage[], role: "user" | "assistant", content: string) =>
    history.push({ role, content, tokens: messageTokens(counter, { role, content }) });
  for (let c = 0; c < chats; c++) store.push([]);
  for (let i = 0; i < perChat; i++) {
    for (let c = 0; c < chats; c++) push(store[c]!, i % 2 === 0 ? "user" : "assistant", texts[(c * 7 + i) % texts.length]!);
    await Promise.resolve();
  }
  return {
    counter: counting === "heuristic" ? counter.name : "o200k_base (gpt-tokenizer)",
    async turn(c, question, answer) {
      const history = store[c]!;
      await push(history, "user", question);
      let used = 0;
      let i = history.length;
      while (i > 0 && used + history[i - 1]!.tokens <= limit) used += history[--i]!.tokens;
      while (i < history.length && history[i]!.role !== "user") i++;
      const messages: { role: string; content: string }[] = [{ role: "system", content: SYSTEM }];
      for (let k = i; k < history.length; k++) messages.push({ role: history[k]!.role, content: history[k]!.content });
      await messages;
      await push(history, "assistant", answer);
      return messages.length;
    },
  };
}

async function main(): Promise<void> {
  const [config = "wasm", counting = "exact", chatsArg = "10000", perChatArg = "100", requestsArg = "20000", inFlightArg = "64"] = process.argv.slice(2);
  if (config !== "wasm" && config !== "ts" && config !== "plain") throw new Error(`unknown configuration ${config}: wasm | ts | plain`);
  if (counting !== "exact" && counting !== "heuristic") throw new Error(`unknown counting ${counting}: exact | heuristic`);
  const chats = Number(chatsArg);
  const perChat = Number(perChatArg);
  const requests = Number(requestsArg);
  const inFlight = Number(inFlightArg);
  const texts = corpus();

  const t0 = performance.now();
  const handler = config === "plain" ? await plainHandler(counting, chats, perChat, texts) : await loomHandler(config, counting, chats, perChat, texts);
  const buildS = (performance.now() - t0) / 1000;
  globalThis.gc?.();
  // Request k goes to chat order[k % chats]: a fixed shuffle, so every configuration serves the
  // same turns in the same order, and no two requests in flight share a chat (a user waits for
  // the answer). Two at once on one chat would interleave differently in each configuration.
  let seed = 0x2545f491;
  const random = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const order = Int32Array.from({ length: chats }, (_, i) => i);
  for (let i = chats - 1; i > 0; i--) {
    const j = random() % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chatOf = (k: number): number => order[k % chats]!;
  const latencies = new Float64Array(requests);
  let next = 0;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (next < requests) {
      const k = next++;
      const question = `${texts[k % texts.length]!.slice(0, 200)} (request ${k})`;
      const answer = texts[(k * 31) % texts.length]!;
      const start = process.hrtime.bigint();
      const n = await handler.turn(chatOf(k), question, answer); // (not `sent += await`: it would read `sent` before the await)
      latencies[k] = Number(process.hrtime.bigint() - start) / 1000;
      sent += n;
    }
  };

  // A warm-up (the request path compiled and optimized), then the measured run.
  const warmup = Math.min(2_000, Math.ceil(requests / 10));
  for (let k = 0; k < warmup; k++) await handler.turn(chatOf(k), `warm-up ${k}`, texts[k % texts.length]!);
  const collector = watchGc();
  const profile = process.env.CTXLOOM_BENCH_PROFILE ? new Session() : undefined;
  if (profile) {
    profile.connect();
    await profile.post("Profiler.enable");
    await profile.post("Profiler.start");
  }
  const wall0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const wallS = (performance.now() - wall0) / 1000;
  if (profile) writeFileSync(process.env.CTXLOOM_BENCH_PROFILE!, JSON.stringify((await profile.post("Profiler.stop")).profile));
  const gc = collector.stop();

  const sorted = latencies.slice().sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const mem = process.memoryUsage();
  const result: ServerResult = {
    config,
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
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
