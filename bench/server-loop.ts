// THE SERVER LOOP, for ONE configuration per process (heaps and collectors apart):
//
//   node --expose-gc --import tsx bench/server-loop.ts <wasm|js|plain> <chats> <perChat> <requests> <inFlight>
//
// `chats` resident conversations of `perChat` messages (10,000 x 100 = 1M), then `requests`
// requests with `inFlight` of them under way at once, each doing what a chat server does per
// turn: append the user's message, build the context to send, append the model's answer.
//   wasm / js: a Loom on that engine (in-memory store, counts by the 4-characters estimate so
//              the figure is ctxloom's own cost, not a tokenizer's);
//   plain:     what a careful user writes without a library: an array per chat, each message's
//              count cached at push, the context trimmed by walking back from the end, the same
//              counter, the same budget, the same OpenAI-shaped messages out.
// Prints one JSON line (ServerResult) on stdout; bench/server.bench.ts spawns it.

import { PerformanceObserver } from "node:perf_hooks";
import { corpus } from "./corpus.js";
import { Loom, budgetFor, heuristicCounter, messageTokens, type Chat } from "../src/index.js";

export interface ServerResult {
  config: string;
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
  gcCount: number;
  gcMaxMs: number;
  /** Messages sent per request, on average (the contexts must match across configurations). */
  sentPerRequest: number;
}

const SYSTEM = "You are a helpful assistant.";
const MODEL = "gpt-4o";

interface Handler {
  /** One turn of chat `c`; resolves to how many messages the context sent. */
  turn(c: number, question: string, answer: string): Promise<number>;
}

async function loomHandler(engine: "wasm" | "js", chats: number, perChat: number, texts: string[]): Promise<Handler> {
  const loom = await Loom.open({ engine, counting: "heuristic" });
  const open: Chat[] = [];
  for (let c = 0; c < chats; c++) open.push(await loom.user(`user-${c % 1000}`).create({ model: MODEL, system: SYSTEM }));
  // Appended round-robin, as a server receives them; every chat's appends are awaited once a round.
  for (let i = 0; i < perChat; i++) {
    const pending: Promise<unknown>[] = [];
    for (let c = 0; c < chats; c++) pending.push(open[c]!.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[(c * 7 + i) % texts.length]! }));
    await Promise.all(pending);
  }
  return {
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

async function plainHandler(chats: number, perChat: number, texts: string[]): Promise<Handler> {
  const counter = heuristicCounter();
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
  const [config = "wasm", chatsArg = "10000", perChatArg = "100", requestsArg = "100000", inFlightArg = "64"] = process.argv.slice(2);
  const chats = Number(chatsArg);
  const perChat = Number(perChatArg);
  const requests = Number(requestsArg);
  const inFlight = Number(inFlightArg);
  const texts = corpus();

  const t0 = performance.now();
  const handler =
    config === "plain" ? await plainHandler(chats, perChat, texts)
    : config === "wasm" || config === "js" ? await loomHandler(config, chats, perChat, texts)
    : (() => { throw new Error(`unknown configuration ${config}: wasm | js | plain`); })();
  const buildS = (performance.now() - t0) / 1000;
  globalThis.gc?.();

  let seed = 0x2545f491;
  const pick = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % chats;
  };
  const latencies = new Float64Array(requests);
  let next = 0;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (next < requests) {
      const k = next++;
      const question = `${texts[k % texts.length]!.slice(0, 200)} (request ${k})`;
      const answer = texts[(k * 31) % texts.length]!;
      const start = process.hrtime.bigint();
      const n = await handler.turn(pick(), question, answer); // (not `sent += await`: it would read `sent` before the await)
      latencies[k] = Number(process.hrtime.bigint() - start) / 1000;
      sent += n;
    }
  };

  // A warm-up (the request path compiled and optimized), then the measured run.
  const warmup = Math.min(2_000, Math.ceil(requests / 10));
  for (let k = 0; k < warmup; k++) await handler.turn(pick(), `warm-up ${k}`, texts[k % texts.length]!);
  let gcCount = 0;
  let gcMaxMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount++;
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const wall0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const wallS = (performance.now() - wall0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 50)); // GC entries arrive asynchronously
  observer.disconnect();

  const sorted = latencies.slice().sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const mem = process.memoryUsage();
  const result: ServerResult = {
    config,
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
    gcCount,
    gcMaxMs,
    sentPerRequest: sent / requests,
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
