// The context suite (issue 3): buildContext on both engines at histories of 1k, 100k and 1M
// messages with gpt-4o's 128k window, and against LangChain's trimMessages on the same
// 10,000-message conversation with the same counter and the same token budget. Texts are
// the real OASST conversations in ../shared/data when present (synthetic otherwise).
// Nothing here asserts on timings: goals are printed as PASS / MISS.

import os from "node:os";
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { Bench } from "tinybench";
import { corpus } from "./corpus.js";
import { Loom, budgetFor, heuristicCounter, loadEncoding, messageTokens, registerModel, type Chat, type TokenCounter } from "../src/index.js";

const SIZES = [1_000, 100_000, 1_000_000] as const;
const VERSUS = 10_000;

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
  const chat = await loom.user("bench").create({ model, system: "You are a helpful assistant." });
  for (let i = 0; i < n; i++) {
    // Appends are queued in order; awaiting every 10,000th keeps the queue short.
    const pending = chat.append({ role: i % 2 === 0 ? "user" : "assistant", content: texts[i % texts.length]! });
    if (i % 10_000 === 9_999 || i === n - 1) await pending;
  }
  return chat;
}

interface Timing {
  p50: number;
  mean: number;
  samples: number;
}

async function time(tasks: [string, () => unknown][], seconds: number): Promise<Map<string, Timing>> {
  const bench = new Bench({ time: seconds * 1000, warmupTime: 200, iterations: 5 });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  const out = new Map<string, Timing>();
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== "completed") throw new Error(`task ${task.name}: ${r.state}`);
    out.set(task.name, { p50: r.latency.p50, mean: r.latency.mean, samples: r.latency.samplesCount });
  }
  return out;
}

export async function runContextSuite() {
  const log = (s: string) => process.stderr.write(`  ${s}\n`);
  const texts = corpus();
  const exact = memoized(await loadEncoding("o200k_base"));
  registerModel({ name: "bench-gpt-4o", contextWindow: 128_000, sizeClass: "xlarge", tokensPerChar: 0.25, counter: exact });
  const heuristic = heuristicCounter();
  registerModel({ name: "bench-heuristic", contextWindow: 128_000, sizeClass: "xlarge", tokensPerChar: 0.25, counter: heuristic });

  // (a) buildContext at 1k, 100k, 1M on both engines.
  const build: Record<string, Record<number, Timing & { kept: number; total: number }>> = { wasm: {}, js: {} };
  for (const engine of ["wasm", "js"] as const) {
    const loom = await Loom.open({ engine });
    for (const n of SIZES) {
      log(`buildContext, ${engine}, ${n.toLocaleString("en")} messages: building the chat`);
      const chat = await buildChat(loom, "bench-gpt-4o", texts, n);
      const probe = await chat.buildContext();
      const t = await time([[`${engine} ${n}`, () => chat.buildContext()]], 3);
      build[engine]![n] = { ...t.get(`${engine} ${n}`)!, kept: probe.conversation.length, total: probe.usage.total };
      await loom.user("bench").delete(chat.id);
    }
    await loom.close();
  }

  // (b) 10,000 messages: ctxloom vs trimMessages, same heuristic counter, same conversation budget.
  log(`versus trimMessages at ${VERSUS.toLocaleString("en")} messages`);
  const versus: Record<string, Timing & { kept: number }> = {};
  const budget = budgetFor("bench-heuristic");
  const maxTokens = budget.effective - budget.reserve - 3 - messageTokens(heuristic, { role: "system", content: "You are a helpful assistant." });
  const lcMessages: BaseMessage[] = [];
  for (let i = 0; i < VERSUS; i++) {
    const content = texts[i % texts.length]!;
    lcMessages.push(i % 2 === 0 ? new HumanMessage(content) : new AIMessage(content));
  }
  const role = (m: BaseMessage) => (m.getType() === "human" ? "user" : "assistant");
  const tokenCounter = (ms: BaseMessage[]) => ms.reduce((sum, m) => sum + messageTokens(heuristic, { role: role(m), content: String(m.content) }), 0);
  const chats: Record<string, Chat> = {};
  const looms: Loom[] = [];
  for (const engine of ["wasm", "js"] as const) {
    const loom = await Loom.open({ engine });
    looms.push(loom);
    chats[engine] = await buildChat(loom, "bench-heuristic", texts, VERSUS);
  }
  const trimmed = await trimMessages(lcMessages, { maxTokens, strategy: "last", tokenCounter, startOn: "human" });
  const t = await time(
    [
      ["ctxloom wasm", () => chats.wasm!.buildContext()],
      ["ctxloom js", () => chats.js!.buildContext()],
      ["trimMessages", () => trimMessages(lcMessages, { maxTokens, strategy: "last", tokenCounter, startOn: "human" })],
    ],
    4,
  );
  versus.wasm = { ...t.get("ctxloom wasm")!, kept: (await chats.wasm!.buildContext()).conversation.length };
  versus.js = { ...t.get("ctxloom js")!, kept: (await chats.js!.buildContext()).conversation.length };
  versus.trim = { ...t.get("trimMessages")!, kept: trimmed.length };
  for (const loom of looms) await loom.close();

  // Report.
  const ms = (x: number) => (x < 1 ? x.toFixed(3) : x.toFixed(1));
  const flat = (e: string) => build[e]![1_000_000]!.p50 / build[e]![1_000]!.p50;
  const speedup = versus.trim.p50 / versus.wasm.p50;
  const goals = [
    { goal: "buildContext at 10k vs trimMessages (WASM)", target: ">= 1000x", measured: `${speedup.toFixed(0)}x`, pass: speedup >= 1000 },
    { goal: "buildContext flat: 1M within 1.5x of 1k (WASM)", target: "<= 1.5x", measured: `${flat("wasm").toFixed(2)}x`, pass: flat("wasm") <= 1.5 },
    { goal: "buildContext flat: 1M within 1.5x of 1k (JS)", target: "<= 1.5x", measured: `${flat("js").toFixed(2)}x`, pass: flat("js") <= 1.5 },
  ];
  const rows = SIZES.map((n) => ({
    history: n.toLocaleString("en"),
    "WASM p50 ms": ms(build.wasm![n]!.p50),
    "JS p50 ms": ms(build.js![n]!.p50),
    "JS / WASM": (build.js![n]!.p50 / build.wasm![n]!.p50).toFixed(2),
    kept: build.wasm![n]!.kept,
    "tokens sent": build.wasm![n]!.total,
  }));
  const vrows = (["wasm", "js", "trim"] as const).map((k) => ({
    "10,000 messages": k === "trim" ? "LangChain trimMessages" : `ctxloom buildContext (${k})`,
    "p50 ms": ms(versus[k]!.p50),
    "mean ms": ms(versus[k]!.mean),
    "messages kept": versus[k]!.kept,
    "vs trimMessages": k === "trim" ? "1x" : `${(versus.trim!.p50 / versus[k]!.p50).toFixed(0)}x faster`,
  }));
  const machine = `${os.cpus()[0]?.model.trim()} (${os.cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const table = (rs: Record<string, string | number>[]) => {
    const keys = Object.keys(rs[0]!);
    return [`| ${keys.join(" | ")} |`, `|${keys.map(() => "---").join("|")}|`, ...rs.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`)].join("\n");
  };
  const markdown = [
    `#### buildContext, gpt-4o (128k window), ${machine}`,
    "",
    table(rows),
    "",
    `Same ${VERSUS.toLocaleString("en")}-message conversation, same counter (4 characters a token) and the same ${maxTokens.toLocaleString("en")}-token budget:`,
    "",
    table(vrows),
    "",
    ...goals.map((g) => `- ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.measured} (target ${g.target})`),
  ].join("\n");
  return {
    name: "context",
    tables: [
      { title: "buildContext by history size (128k window)", rows },
      { title: `ctxloom vs trimMessages at ${VERSUS} messages`, rows: vrows },
    ],
    goals,
    markdown,
  };
}
