// A LOOP WRITTEN AS A USER WOULD, for ONE configuration per process:
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/user-loop.ts <loom|plain> [chats] [perChat] [requests] [texts]
//
// `chats` small resident chats of `perChat` messages, each made and filled the way an app does
// (create, then `await chat.append(...)` message after message), then `requests` requests one
// at a time, each the three awaited calls a chat server makes: append the user's message, build
// the context, append the answer. No driver of the bench's own between them: a `for` loop and
// `performance.now()` around each request.
//   loom:  ctxloom on its defaults (WASM engine, its WebAssembly BPE counter, in-memory store);
//   plain: what a user writes without a library: an array per chat, each message's count cached
//          at push by the same counter (`loadTokenizer`), the context trimmed by walking back from
//          the end within the same budget, OpenAI-shaped messages out.
// `texts`: "corpus" (the real conversations' messages) or "short" (a sentence each, where the
// library's own cost weighs most). Prints one JSON line (UserLoopResult) on stdout.

import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { corpus } from "./corpus.js";
import { watchGc } from "./gc.js";
import { Loom, budgetFor, loadTokenizer, type Chat } from "../src/index.js";
import { messageTokens } from "../src/tokens/index.js";

export type UserLoopConfig = "loom" | "plain";
export type UserTexts = "corpus" | "short";

export interface UserLoopResult {
  config: UserLoopConfig;
  texts: UserTexts;
  chats: number;
  perChat: number;
  requests: number;
  reqPerS: number;
  /** CPU time per request, µs (process.cpuUsage: a busy machine disturbs it less than wall time). */
  cpuUs: number;
  p50Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  gcCount: number;
  gcMajor: number;
  gcMaxMs: number;
  rssMB: number;
  heapMB: number;
  sentPerRequest: number;
  load: number;
}

const MODEL = "gpt-4o";
const SYSTEM = "You are a helpful assistant.";

/** The texts: the corpus, or a short sentence each. */
function textsOf(kind: UserTexts): string[] {
  if (kind === "corpus") return corpus();
  return Array.from({ length: 500 }, (_, i) => `Message ${i}: a short line about the trip, day ${i % 30}.`);
}

interface Turns {
  turn(c: number, question: string, answer: string): Promise<number>;
}

async function loomTurns(chats: number, perChat: number, texts: string[]): Promise<Turns> {
  const loom = await Loom.open();
  const open: Chat[] = [];
  for (let c = 0; c < chats; c++) {
    const chat = await loom.user(`user-${c}`).create({ model: MODEL, system: SYSTEM });
    for (let i = 0; i < perChat; i++)
      await chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[(c * 7 + i) % texts.length]! });
    open.push(chat);
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

interface Entry {
  role: "user" | "assistant";
  content: string;
  tokens: number;
}

async function plainTurns(chats: number, perChat: number, texts: string[]): Promise<Turns> {
  const counter = await loadTokenizer(MODEL);
  const budget = budgetFor(MODEL);
  const limit = budget.effective - budget.reserve - 3 - messageTokens(counter, { role: "system", content: SYSTEM });
  const histories: Entry[][] = [];
  const push = async (history: Entry[], role: "user" | "assistant", content: string) => {
    history.push({ role, content, tokens: messageTokens(counter, { role, content }) });
  };
  for (let c = 0; c < chats; c++) {
    const history: Entry[] = [];
    for (let i = 0; i < perChat; i++)
      await push(history, i % 2 === 0 ? "user" : "assistant", texts[(c * 7 + i) % texts.length]!);
    histories.push(history);
  }
  const context = async (history: Entry[]) => {
    let used = 0;
    let i = history.length;
    while (i > 0 && used + history[i - 1]!.tokens <= limit) used += history[--i]!.tokens;
    while (i < history.length && history[i]!.role !== "user") i++;
    const messages: { role: string; content: string }[] = [{ role: "system", content: SYSTEM }];
    for (let k = i; k < history.length; k++) messages.push({ role: history[k]!.role, content: history[k]!.content });
    return { messages };
  };
  return {
    async turn(c, question, answer) {
      const history = histories[c]!;
      await push(history, "user", question);
      const built = await context(history);
      await push(history, "assistant", answer);
      return built.messages.length;
    },
  };
}

async function main(): Promise<void> {
  const [config = "loom", chatsArg = "10000", perChatArg = "100", requestsArg = "20000", textsArg = "corpus"] =
    process.argv.slice(2);
  if (config !== "loom" && config !== "plain") throw new Error(`unknown configuration ${config}: loom | plain`);
  if (textsArg !== "corpus" && textsArg !== "short") throw new Error(`unknown texts ${textsArg}: corpus | short`);
  const chats = Number(chatsArg);
  const perChat = Number(perChatArg);
  const requests = Number(requestsArg);
  const texts = textsOf(textsArg);
  const turns = config === "loom" ? await loomTurns(chats, perChat, texts) : await plainTurns(chats, perChat, texts);
  // The same shuffled order of chats in both configurations.
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % chats;
  };
  const order = Int32Array.from({ length: requests + 2_000 }, next);
  const question = (k: number) => `${texts[k % texts.length]!.slice(0, 200)} (request ${k})`;
  const answer = (k: number) => texts[(k * 31) % texts.length]!;
  for (let k = 0; k < 2_000; k++) await turns.turn(order[requests + k]!, `warm-up ${k}`, answer(k));
  globalThis.gc?.();

  const latencies = new Float64Array(requests);
  let sent = 0;
  const collector = watchGc();
  const profile = process.env.CTXLOOM_BENCH_PROFILE ? new Session() : undefined;
  if (profile) {
    profile.connect();
    await profile.post("Profiler.enable");
    await profile.post("Profiler.setSamplingInterval", { interval: 50 });
    await profile.post("Profiler.start");
  }
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let k = 0; k < requests; k++) {
    const t0 = performance.now();
    sent += await turns.turn(order[k]!, question(k), answer(k));
    latencies[k] = (performance.now() - t0) * 1000;
  }
  const wallS = (performance.now() - wall0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (profile)
    writeFileSync(process.env.CTXLOOM_BENCH_PROFILE!, JSON.stringify((await profile.post("Profiler.stop")).profile));
  const gc = collector.stop();
  const sorted = latencies.slice().sort();
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const mem = process.memoryUsage();
  const result: UserLoopResult = {
    config,
    texts: textsArg,
    chats,
    perChat,
    requests,
    reqPerS: requests / wallS,
    cpuUs: (cpu.user + cpu.system) / requests,
    p50Us: q(0.5),
    p99Us: q(0.99),
    p999Us: q(0.999),
    maxUs: sorted[sorted.length - 1]!,
    gcCount: gc.durations.length,
    gcMajor: gc.major,
    gcMaxMs: Math.max(0, ...gc.durations),
    rssMB: mem.rss / 2 ** 20,
    heapMB: mem.heapUsed / 2 ** 20,
    sentPerRequest: sent / requests,
    load: Math.round(loadavg()[0]! * 10) / 10,
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
