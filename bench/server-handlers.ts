// The server loop's configurations and its request driver, shared by bench/server-loop.ts (one
// configuration per process, timed) and bench/request-parts.ts (the same loop, profiled by part).
//
//   wasm:       a Loom as users run it by default: the WASM engine, exact counts by ctxloom's
//               WebAssembly BPE counter;
//   ts:         the pure-TypeScript configuration: the JS engine, exact counts by gpt-tokenizer
//               (`loadEncoding`, handed to the chat through its model profile's `counter`);
//   plain:      what a careful user writes without a library: an array per chat, each message's
//               count cached at push (gpt-tokenizer's own countTokens), the context trimmed by
//               walking back from the end, the same budget, OpenAI-shaped messages out;
//   plain-wasm: the same plain loop counting with ctxloom's WebAssembly BPE, the WASM
//               configuration's own counter: what is left between the two is the library's cost.
// With "heuristic" counting, every configuration counts by the 4-characters estimate instead.

import { countTokens as gptCount } from "gpt-tokenizer/encoding/o200k_base";
import { Loom, budgetFor, getModelProfile, loadTokenizer, type Chat, type TokenCounter } from "../src/index.js";
import { heuristicCounter, loadEncoding, messageTokens } from "../src/tokens/index.js";

export type Config = "wasm" | "ts" | "plain" | "plain-wasm";
export type Counting = "exact" | "heuristic";
export const CONFIGS: readonly Config[] = ["wasm", "ts", "plain", "plain-wasm"];

export const SYSTEM = "You are a helpful assistant.";
export const MODEL = "gpt-4o";
// Text that looks like a special token counts as text, as a chat API receives it.
const PLAIN = { disallowedSpecial: new Set<string>() };

export interface Handler {
  /** The counter's name. */
  counter: string;
  /** One turn of chat `c`; resolves to how many messages the context sent. */
  turn(c: number, question: string, answer: string): Promise<number>;
}

export function makeHandler(
  config: Config,
  counting: Counting,
  chats: number,
  perChat: number,
  texts: string[],
): Promise<Handler> {
  if (config === "wasm" || config === "ts") return loomHandler(config, counting, chats, perChat, texts);
  return plainHandler(config, counting, chats, perChat, texts);
}

async function loomHandler(
  config: "wasm" | "ts",
  counting: Counting,
  chats: number,
  perChat: number,
  texts: string[],
): Promise<Handler> {
  const loom = await Loom.open({ engine: config === "wasm" ? "wasm" : "js", counter: counting });
  // Engine "js" alone still counts with the WebAssembly BPE counter (the default wherever it
  // loads): the pure-TS configuration hands gpt-tokenizer to its chats through the profile.
  const model =
    config === "ts" && counting === "exact"
      ? { ...getModelProfile(MODEL), counter: await loadEncoding("o200k_base") }
      : MODEL;
  const open: Chat[] = [];
  for (let c = 0; c < chats; c++) open.push(await loom.user(`user-${c % 1000}`).create({ model, system: SYSTEM }));
  // Appended round-robin, as a server receives them; every chat's appends are awaited once a round.
  for (let i = 0; i < perChat; i++) {
    const pending: Promise<unknown>[] = [];
    for (let c = 0; c < chats; c++)
      pending.push(
        open[c]!.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[(c * 7 + i) % texts.length]! }),
      );
    await Promise.all(pending);
  }
  return {
    counter: `${open[0]!.stats().counter}${counting === "heuristic" ? "" : config === "wasm" ? " (ctxloom's WASM BPE)" : " (gpt-tokenizer)"}`,
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

// The plain loop's steps are functions of their own, named so that a CPU or allocation profile
// tells them apart (bench/request-parts.ts reads these names).
function plainCount(counter: TokenCounter, role: "user" | "assistant", content: string): number {
  return messageTokens(counter, { role, content });
}
function plainStore(history: PlainMessage[], role: "user" | "assistant", content: string, tokens: number): void {
  history.push({ role, content, tokens });
}
/** The oldest index sent: the newest messages that fit, starting at a user message. */
function plainSelect(history: PlainMessage[], limit: number): number {
  let used = 0;
  let i = history.length;
  while (i > 0 && used + history[i - 1]!.tokens <= limit) used += history[--i]!.tokens;
  while (i < history.length && history[i]!.role !== "user") i++;
  return i;
}
function plainOutput(history: PlainMessage[], from: number): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [{ role: "system", content: SYSTEM }];
  for (let k = from; k < history.length; k++) messages.push({ role: history[k]!.role, content: history[k]!.content });
  return messages;
}

async function plainHandler(
  config: "plain" | "plain-wasm",
  counting: Counting,
  chats: number,
  perChat: number,
  texts: string[],
): Promise<Handler> {
  const counter: TokenCounter =
    counting === "heuristic"
      ? heuristicCounter()
      : config === "plain-wasm"
        ? await loadTokenizer(MODEL) // ctxloom's WebAssembly BPE, as the WASM configuration counts
        : { name: "o200k_base", exact: true, count: (text) => gptCount(text, PLAIN) };
  const budget = budgetFor(MODEL);
  const systemTokens = messageTokens(counter, { role: "system", content: SYSTEM });
  const limit = budget.effective - budget.reserve - 3 - systemTokens;
  const store: PlainMessage[][] = [];
  const push = (history: PlainMessage[], role: "user" | "assistant", content: string) =>
    plainStore(history, role, content, plainCount(counter, role, content));
  for (let c = 0; c < chats; c++) store.push([]);
  for (let i = 0; i < perChat; i++) {
    for (let c = 0; c < chats; c++)
      push(store[c]!, i % 2 === 0 ? "user" : "assistant", texts[(c * 7 + i) % texts.length]!);
    await Promise.resolve();
  }
  return {
    counter:
      counting === "heuristic"
        ? counter.name
        : config === "plain-wasm"
          ? `${counter.name} (ctxloom's WASM BPE)`
          : "o200k_base (gpt-tokenizer)",
    // The awaits stand where the Loom's are: every step a microtask, as an async store or model call would be.
    async turn(c, question, answer) {
      const history = store[c]!;
      await push(history, "user", question);
      const messages = plainOutput(history, plainSelect(history, limit));
      await messages;
      await push(history, "assistant", answer);
      return messages.length;
    },
  };
}

/**
 * Request k goes to chat order[k % chats]: a fixed shuffle, so every configuration serves the
 * same turns in the same order, and no two requests in flight share a chat (a user waits for
 * the answer). Two at once on one chat would interleave differently in each configuration.
 */
export function requestOrder(chats: number): (k: number) => number {
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
  return (k) => order[k % chats]!;
}

/** The question and answer of request k (the question made per request, as a server reads it). */
export const question = (texts: string[], k: number): string =>
  `${texts[k % texts.length]!.slice(0, 200)} (request ${k})`;
export const answer = (texts: string[], k: number): string => texts[(k * 31) % texts.length]!;

/** A warm-up: the request path compiled and optimized before anything is measured. */
export async function warmUp(
  handler: Handler,
  texts: string[],
  chatOf: (k: number) => number,
  requests: number,
): Promise<void> {
  const warmup = Math.min(2_000, Math.ceil(requests / 10));
  for (let k = 0; k < warmup; k++) await handler.turn(chatOf(k), `warm-up ${k}`, texts[k % texts.length]!);
}

/**
 * Requests `from` to `to - 1`, `inFlight` of them under way at once. Latencies (µs, from a
 * request's first append to its last) land in `latencies[k - from]` when given. Resolves to
 * the messages sent, summed.
 */
export async function runRequests(
  handler: Handler,
  texts: string[],
  chatOf: (k: number) => number,
  from: number,
  to: number,
  inFlight: number,
  latencies?: Float64Array,
): Promise<number> {
  let next = from;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const k = next++;
      const q = question(texts, k);
      const a = answer(texts, k);
      const start = latencies ? process.hrtime.bigint() : 0n;
      const n = await handler.turn(chatOf(k), q, a); // (not `sent += await`: it would read `sent` before the await)
      if (latencies) latencies[k - from] = Number(process.hrtime.bigint() - start) / 1000;
      sent += n;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return sent;
}
