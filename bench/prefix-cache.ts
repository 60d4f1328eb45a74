// Prompt caching: providers bill a request's prefix cheaper when it is byte-identical to the
// previous request's (OpenAI automatically from 1,024 tokens, Anthropic at cache_control
// breakpoints). This measures, on a long conversation that grows one exchange at a time,
// the share of consecutive builds whose whole previous request (system, memory, every
// message sent) is an unchanged prefix of the next one, and the mean share of the previous
// request's serialized bytes the next one repeats at its start. A window that holds the
// whole chat keeps its prefix; once the window is full, the plain selection
// (`stablePrefix: false`) changes the start of nearly every request, and the stable prefix
// (the default, at several steps) keeps it for most, at the cost shown by the messages and
// tokens sent per request (means over all turns) and their share of the request's limit.
//
//   node --import ./bench/ts-loader.mjs bench/prefix-cache.ts [--smoke]

import { Loom, type ModelProfile } from "../src/index.js";

const smoke = process.argv.includes("--smoke");
const TURNS = smoke ? 60 : 400;
const WINDOWS = [1_000_000, 32_000, 8_000];

const words = ["route", "museum", "tram", "budget", "vegetarian", "sunset", "train", "market", "hostel", "ferry"];
const text = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ");

const STEPS: (false | number)[] = [false, 0.05, 0.1, 0.2];

async function measure(
  window: number,
  format: "openai" | "anthropic",
  step: false | number,
): Promise<Record<string, string | number>> {
  const model: ModelProfile = {
    name: `prefix-${window}`,
    contextWindow: window,
    sizeClass: window >= 32_000 ? "large" : "medium",
    tokensPerChar: 0.25,
  };
  const loom = await Loom.open();
  const chat = await loom.user("u").create({ model, system: "You are a concise travel guide." });
  let previous: string[] | null = null;
  let unchanged = 0;
  let builds = 0;
  let repeatedBytes = 0;
  let previousBytes = 0;
  let sentMessages = 0;
  let sentTokens = 0;
  let limitTokens = 0;
  for (let i = 0; i < TURNS; i++) {
    await chat.append({ role: "user", content: `question ${i}: ${text(i, 40)}` });
    const ctx = await chat.buildContext({
      format,
      memory: "Alice prefers walking.",
      stablePrefix: step === false ? false : { step },
    });
    sentMessages += ctx.conversation.length;
    sentTokens += ctx.usage.total;
    limitTokens += ctx.usage.limit;
    const sent = [ctx.system, ...ctx.messages.map((m) => JSON.stringify(m))];
    if (previous) {
      builds++;
      let same = 0;
      while (same < previous.length && same < sent.length && previous[same] === sent[same]) same++;
      if (same === previous.length) unchanged++;
      const bytes = (items: string[]) => items.reduce((n, s) => n + s.length, 0);
      repeatedBytes += bytes(previous.slice(0, same));
      previousBytes += bytes(previous);
    }
    await chat.append({ role: "assistant", content: `answer ${i}: ${text(i + 1, 60)}` });
    previous = sent;
  }
  await loom.close();
  return {
    window,
    format,
    stablePrefix: step === false ? "off" : `step ${step}`,
    "prefix unchanged": `${((100 * unchanged) / builds).toFixed(1)}%`,
    "bytes repeated": `${((100 * repeatedBytes) / previousBytes).toFixed(1)}%`,
    "messages sent": (sentMessages / TURNS).toFixed(1),
    "tokens sent": Math.round(sentTokens / TURNS),
    "of the limit": `${((100 * sentTokens) / limitTokens).toFixed(1)}%`,
  };
}

const rows = [];
for (const window of WINDOWS) {
  for (const format of ["openai", "anthropic"] as const) {
    for (const step of window >= 1_000_000 ? [false, 0.1] : STEPS)
      rows.push(await measure(window, format, step as false | number));
  }
}
console.table(rows);
