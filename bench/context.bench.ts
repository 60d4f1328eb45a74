// The context suite: what a request costs as the history grows, and against the alternatives.
//
//   (a) chat.window({ maxMessages: 40 }) and chat.buildContext() on both engines at 1k, 10k,
//       100k and 1M messages, gpt-4o's 128k window and its exact counter (the goal: flat);
//   (b) the same conversation, counter (4 characters a token) and conversation budget, at 1k,
//       10k, 100k and 1M messages: ctxloom's buildContext, the plain trimming a careful user
//       would write (an array per chat, each message's count cached at push, a loop walking
//       back from the end summing them), and LangChain's trimMessages up to 100k (it re-counts
//       the whole history on every call: one call at 1M takes minutes);
//   (c) a context carrying the user's working memory against buildContext({ memory }) with the
//       same text, at 10k messages, on both engines (bench/context-memory.ts).
// Texts are the real OASST conversations in ../shared/data when present (synthetic otherwise).
// Nothing here asserts on timings: goals are printed as PASS / MISS.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { Bench } from "tinybench";
import { corpus } from "./corpus.js";
import {
  TS_LOADER,
  count,
  fmt,
  latency,
  log,
  mdTable,
  ratio,
  ROOT,
  type Goal,
  type ScalePoint,
  type SuiteOptions,
  type SuiteReport,
} from "./report.js";
import { Loom, budgetFor, registerModel, type Chat, type TokenCounter } from "../src/index.js";
import { heuristicCounter, loadEncoding, messageTokens } from "../src/tokens-entry.js";
import { memoryReport, memoryRows, type MemoryRow } from "./context-memory.js";

const FULL = {
  sizes: [1_000, 10_000, 100_000, 1_000_000],
  versus: [1_000, 10_000, 100_000, 1_000_000],
  seconds: 2,
  trimSeconds: 3,
  trimUpTo: 100_000,
  memoryHistory: 10_000,
  memorySizes: [2_000, 60_000],
};
const SMOKE: typeof FULL = {
  sizes: [100, 1_000],
  versus: [100, 1_000],
  seconds: 0.02,
  trimSeconds: 0.02,
  trimUpTo: 1_000,
  memoryHistory: 100,
  memorySizes: [2_000],
};
const SYSTEM = "You are a helpful assistant.";

/** A counter that remembers each text's count: the corpus repeats, so building 1M-message chats stays quick. */
function memoized(counter: TokenCounter): TokenCounter {
  const seen = new Map<string, number>();
  return {
    name: counter.name,
    exact: counter.exact,
    count: (text) => {
      let n = seen.get(text);
      if (n === undefined) seen.set(text, (n = counter.count(text)));
      return n;
    },
  };
}

async function buildChat(loom: Loom, model: string, texts: string[], n: number): Promise<Chat> {
  const chat = await loom.user("bench").create({ model, system: SYSTEM });
  for (let i = 0; i < n; i++) {
    // Appends are queued in order; awaiting every 10,000th keeps the queue short.
    const pending = chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[i % texts.length]! });
    if (i % 10_000 === 9_999 || i === n - 1) await pending;
  }
  return chat;
}

type Timing = ReturnType<typeof latency>;

async function time(
  tasks: [string, () => unknown][],
  seconds: number,
  iterations = 5,
  warmupIterations = 16,
): Promise<Map<string, Timing>> {
  const bench = new Bench({
    time: seconds * 1000,
    warmupTime: Math.min(200, seconds * 100),
    iterations,
    warmupIterations,
  });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  return new Map(bench.tasks.map((t) => [t.name, latency(t)]));
}

// ---------------------------------------------------------------- the careful user's trimming

interface PlainMessage {
  role: "user" | "assistant";
  content: string;
  tokens: number; // counted once, at push
}

/**
 * The newest messages whose cached counts fit `budget`, starting on a user message: what a
 * careful user writes without a library (and what trimMessages does with strategy "last" and
 * startOn "human"). O(kept), not O(history).
 */
function plainTrim(history: PlainMessage[], budget: number): PlainMessage[] {
  let used = 0;
  let i = history.length;
  while (i > 0 && used + history[i - 1]!.tokens <= budget) used += history[--i]!.tokens;
  while (i < history.length && history[i]!.role !== "user") i++;
  return history.slice(i);
}

// ---------------------------------------------------------------- the suite

type ScaleRow = { window: Timing; build: Timing; kept: number; total: number };

/** Registers the bench's models: gpt-4o's window with the exact counter, and with the 4-characters estimate. */
async function registerModels(): Promise<{ heuristic: TokenCounter }> {
  const exact = memoized(await loadEncoding("o200k_base"));
  registerModel({
    name: "bench-gpt-4o",
    contextWindow: 128_000,
    sizeClass: "xlarge",
    tokensPerChar: 0.25,
    counter: exact,
  });
  const heuristic = heuristicCounter();
  registerModel({
    name: "bench-heuristic",
    contextWindow: 128_000,
    sizeClass: "xlarge",
    tokensPerChar: 0.25,
    counter: heuristic,
  });
  return { heuristic };
}

/** (a) for one engine, in this process: window and buildContext at every size. */
async function scaleOf(engine: "wasm" | "js", C: typeof FULL): Promise<Record<number, ScaleRow>> {
  await registerModels();
  const texts = corpus();
  const out: Record<number, ScaleRow> = {};
  const loom = await Loom.open({ engine });
  for (const n of C.sizes) {
    log(`(a) ${engine}, ${count(n)} messages: building the chat`);
    const chat = await buildChat(loom, "bench-gpt-4o", texts, n);
    const probe = await chat.buildContext();
    const t = await time(
      [
        ["window", () => chat.window({ maxMessages: 40 })],
        ["build", () => chat.buildContext()],
      ],
      C.seconds,
    );
    out[n] = {
      window: t.get("window")!,
      build: t.get("build")!,
      kept: probe.conversation.length,
      total: probe.usage.total,
    };
    await loom.user("bench").delete(chat.id);
  }
  await loom.close();
  return out;
}

export async function runContextSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const C = options.smoke ? SMOKE : FULL;
  const texts = corpus();
  const { heuristic } = await registerModels();

  // (a) window and buildContext by history size, each engine in a process of its own (run one
  // after the other in one process, the second would find the shared code paths already hot).
  const scale = {} as Record<"wasm" | "js", Record<number, ScaleRow>>;
  for (const engine of ["wasm", "js"] as const) {
    const stdout = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        "--import",
        TS_LOADER,
        "--max-old-space-size=8192",
        fileURLToPath(import.meta.url),
        "child",
        engine,
        options.smoke ? "smoke" : "full",
      ],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
    );
    scale[engine] = JSON.parse(stdout.trim().split("\n").pop()!) as Record<number, ScaleRow>;
  }

  // (b) the same conversation three ways, same counter, same conversation budget.
  const budget = budgetFor("bench-heuristic");
  const maxTokens =
    budget.effective - budget.reserve - 3 - messageTokens(heuristic, { role: "system", content: SYSTEM });
  const role = (m: BaseMessage) => (m.getType() === "human" ? "user" : "assistant");
  const tokenCounter = (ms: BaseMessage[]) =>
    ms.reduce((sum, m) => sum + messageTokens(heuristic, { role: role(m), content: String(m.content) }), 0);
  type Versus = Record<"wasm" | "js" | "plain", Timing & { kept: number }> & { trim?: Timing & { kept: number } };
  const versus: Record<number, Versus> = {};
  for (const n of C.versus) {
    const withTrim = n <= C.trimUpTo;
    log(`(b) ${count(n)} messages: ctxloom, ${withTrim ? "trimMessages and " : ""}a plain loop`);
    const lc: BaseMessage[] = [];
    const plain: PlainMessage[] = [];
    for (let i = 0; i < n; i++) {
      const content = texts[i % texts.length]!;
      const r = i % 2 === 0 ? "user" : "assistant";
      if (withTrim) lc.push(r === "user" ? new HumanMessage(content) : new AIMessage(content));
      plain.push({ role: r, content, tokens: messageTokens(heuristic, { role: r, content }) });
    }
    const looms = { wasm: await Loom.open({ engine: "wasm" }), js: await Loom.open({ engine: "js" }) };
    const chats = {
      wasm: await buildChat(looms.wasm, "bench-heuristic", texts, n),
      js: await buildChat(looms.js, "bench-heuristic", texts, n),
    };
    const trim = () => trimMessages(lc, { maxTokens, strategy: "last", tokenCounter, startOn: "human" });
    // trimMessages re-counts the history on every call (its cost grows faster than the history):
    // from 100k on, one timed call is the measurement.
    const once = n >= 100_000;
    const t0 = performance.now();
    const trimmed = withTrim ? await trim() : [];
    const trimOnce: Timing = { p50: performance.now() - t0, mean: performance.now() - t0, samples: 1 };
    // Like for like: the plain selection (the default also keeps the request's start stable,
    // which leaves up to a tenth of the conversation's room unused).
    const plainSelection = { stablePrefix: false } as const;
    const kept = {
      wasm: (await chats.wasm.buildContext(plainSelection)).conversation.length,
      js: (await chats.js.buildContext(plainSelection)).conversation.length,
      trim: trimmed.length,
      plain: plainTrim(plain, maxTokens).length,
    };
    const fast = await time(
      [
        ["wasm", () => chats.wasm.buildContext(plainSelection)],
        ["js", () => chats.js.buildContext(plainSelection)],
        ["plain", () => plainTrim(plain, maxTokens)],
      ],
      C.seconds,
    );
    const slow = !withTrim
      ? null
      : once
        ? new Map([["trim", trimOnce]])
        : await time([["trim", trim]], C.trimSeconds, 3, 1);
    versus[n] = {
      wasm: { ...fast.get("wasm")!, kept: kept.wasm },
      js: { ...fast.get("js")!, kept: kept.js },
      plain: { ...fast.get("plain")!, kept: kept.plain },
      ...(slow ? { trim: { ...slow.get("trim")!, kept: kept.trim } } : {}),
    };
    await looms.wasm.close();
    await looms.js.close();
  }

  // (c) the user's working memory in a context, against the same text given.
  const memory = await memoryRows(
    (loom) => buildChat(loom, "bench-gpt-4o", texts, C.memoryHistory),
    C.memorySizes,
    C.seconds,
  );

  return report(C, scale, versus, maxTokens, memory);
}

// ---------------------------------------------------------------- report

function report(
  C: typeof FULL,
  scale: Record<"wasm" | "js", Record<number, ScaleRow>>,
  versus: Record<
    number,
    Record<"wasm" | "js" | "plain", Timing & { kept: number }> & { trim?: Timing & { kept: number } }
  >,
  maxTokens: number,
  memory: MemoryRow[],
): SuiteReport {
  const ms = (x: number) => fmt(x);
  const small = C.sizes[0]!;
  const large = C.sizes[C.sizes.length - 1]!;
  const mid = C.versus.includes(10_000) ? 10_000 : C.versus[C.versus.length - 1]!;
  const goals: Goal[] = [];
  for (const e of ["wasm", "js"] as const) {
    const flat = scale[e][large]!.build.p50 / scale[e][small]!.build.p50;
    goals.push({
      goal: `buildContext flat (${e}): ${count(large)} within 1.5x of ${count(small)}`,
      target: "<= 1.5x",
      measured: ratio(flat),
      pass: flat <= 1.5,
    });
    const wflat = scale[e][large]!.window.p50 / scale[e][small]!.window.p50;
    goals.push({
      goal: `window of 40 flat (${e}): ${count(large)} within 1.5x of ${count(small)}`,
      target: "<= 1.5x",
      measured: ratio(wflat),
      pass: wflat <= 1.5,
    });
  }
  const speedup = versus[mid]!.trim!.p50 / versus[mid]!.wasm.p50;
  goals.push({
    goal: `buildContext vs trimMessages at ${count(mid)} (WASM)`,
    target: ">= 1000x",
    measured: ratio(speedup),
    pass: speedup >= 1000,
  });
  for (const n of C.versus) {
    const plainRatio = versus[n]!.wasm.p50 / versus[n]!.plain.p50;
    goals.push({
      goal: `buildContext (WASM) vs a plain trimming loop at ${count(n)}`,
      target: "<= 3x slower",
      measured: `${ratio(plainRatio)} slower (${fmt(versus[n]!.wasm.p50 * 1000)} vs ${fmt(versus[n]!.plain.p50 * 1000)} µs)`,
      pass: plainRatio <= 3,
    });
  }

  const rows = C.sizes.map((n) => ({
    history: count(n),
    "window WASM µs": fmt(scale.wasm[n]!.window.p50 * 1000),
    "window JS µs": fmt(scale.js[n]!.window.p50 * 1000),
    "build WASM ms": ms(scale.wasm[n]!.build.p50),
    "build JS ms": ms(scale.js[n]!.build.p50),
    "JS / WASM": ratio(scale.js[n]!.build.p50 / scale.wasm[n]!.build.p50),
    kept: scale.wasm[n]!.kept,
    "tokens sent": scale.wasm[n]!.total,
  }));
  const label = {
    wasm: "ctxloom buildContext (WASM)",
    js: "ctxloom buildContext (JS engine)",
    plain: "plain loop over cached counts",
    trim: "LangChain trimMessages",
  } as const;
  const trimOver = (n: number, p50: number) => (versus[n]!.trim ? ratio(versus[n]!.trim!.p50 / p50) : "-");
  const vrows = C.versus.flatMap((n) =>
    (["wasm", "js", "plain", "trim"] as const)
      .filter((k) => versus[n]![k])
      .map((k) => ({
        history: count(n),
        how: label[k],
        "p50 ms": ms(versus[n]![k]!.p50),
        "messages kept": versus[n]![k]!.kept,
        "this / plain loop": ratio(versus[n]![k]!.p50 / versus[n]!.plain.p50),
        "trimMessages / this": trimOver(n, versus[n]![k]!.p50),
      })),
  );
  const markdown = [
    `#### window and buildContext by history size (gpt-4o, 128k window, exact counts)`,
    "",
    mdTable(rows),
    "",
    `Same conversation, same counter (4 characters a token) and the same ${count(maxTokens)}-token conversation budget:`,
    "",
    mdTable(vrows),
    "",
    `The plain loop returns message references only; buildContext also formats the messages it returns (OpenAI format)`,
    `and keeps tool units, priorities and the budget of the other parts.`,
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  const m = memoryReport(memory, C.memoryHistory);
  goals.push(...m.goals);
  const withMemory = [
    markdown,
    "",
    m.markdown,
    "",
    mdTable(m.table),
    "",
    ...m.goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  const sameKept = C.versus.every((n) =>
    (["js", "plain", "trim"] as const).every((k) => !versus[n]![k] || versus[n]![k]!.kept === versus[n]!.wasm.kept),
  );
  const scalePoints: ScalePoint[] = (["wasm", "js"] as const).flatMap((config) =>
    C.sizes.map((messages) => ({
      series: "build" as const,
      config,
      messages,
      value: scale[config][messages]!.build.p50,
    })),
  );
  return {
    name: "context",
    tables: [
      { title: "window of 40 and buildContext by history size (p50, 128k window)", rows },
      { title: "the same conversation, counter and budget, three ways", rows: vrows },
      { title: "a context carrying the user's memory vs buildContext({ memory }) with its text", rows: m.table },
    ],
    goals,
    markdown: withMemory,
    scale: scalePoints,
    readme: [
      {
        title: "A request's context as the history grows (gpt-4o's 128k window, exact counts, p50)",
        columns: [
          "history",
          "window of 40, WASM",
          "window of 40, JS",
          "buildContext, WASM",
          "buildContext, JS",
          "messages kept",
        ],
        rows: C.sizes.map((n) => [
          count(n),
          `${fmt(scale.wasm[n]!.window.p50 * 1000)} µs`,
          `${fmt(scale.js[n]!.window.p50 * 1000)} µs`,
          `${ms(scale.wasm[n]!.build.p50)} ms`,
          `${ms(scale.js[n]!.build.p50)} ms`,
          count(scale.wasm[n]!.kept),
        ]),
      },
      {
        title: `The same conversation, counter and ${count(maxTokens)}-token budget, three ways (p50)`,
        columns: [
          "history",
          "buildContext, WASM",
          "buildContext, JS",
          "plain loop over cached counts",
          "WASM / plain loop",
          "LangChain trimMessages",
          "trimMessages / WASM",
        ],
        rows: C.versus.map((n) => [
          count(n),
          `${ms(versus[n]!.wasm.p50)} ms`,
          `${ms(versus[n]!.js.p50)} ms`,
          `${ms(versus[n]!.plain.p50)} ms`,
          ratio(versus[n]!.wasm.p50 / versus[n]!.plain.p50),
          versus[n]!.trim ? `${ms(versus[n]!.trim!.p50)} ms` : "-",
          trimOver(n, versus[n]!.wasm.p50),
        ]),
        note: `${sameKept ? "All four keep the same number of messages." : `Messages kept differ: ${C.versus.map((n) => (["wasm", "js", "plain", "trim"] as const).map((k) => versus[n]![k]?.kept ?? "-").join(" / ")).join("; ")}.`} The plain loop (what a careful user writes: an array per chat, counts cached at push, a walk back from the end) returns references; buildContext also formats them and keeps tool units, priorities and the other parts' budgets; here it runs with \`stablePrefix: false\` (the plain selection), like for like, build after build of the same chat (a context of 256 messages or more hands out its previous one's message objects again: a request that appended makes only the new ones). trimMessages re-counts the history on every call${C.versus.some((n) => n >= 100_000 && n <= C.trimUpTo) ? "; at 100,000 messages it is timed on one call" : ""}${C.versus.some((n) => n > C.trimUpTo) ? `, and above ${count(C.trimUpTo)} not run` : ""}.`,
      },
    ],
    results: { scale, versus, maxTokens, memory },
  };
}

if (process.argv[2] === "child") {
  const engine = process.argv[3] as "wasm" | "js";
  process.stdout.write(JSON.stringify(await scaleOf(engine, process.argv[4] === "smoke" ? SMOKE : FULL)) + "\n");
}
