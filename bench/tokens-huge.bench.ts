// One text of up to 10 MiB must never stall a server (issue 21, item 4): each text appended
// to a gpt-4.1 chat (kept when it fits its request, else refused), refused by a gpt-4o chat
// (a window far smaller than the text), and cut as a tool result in a gpt-4.1 chat opened with
// toolResults: { truncate: true }; the exact counter is the WebAssembly BPE (o200k_base).
// Texts of 1 MiB and 10 MiB (UTF-8): without spaces (one letter repeated; random lowercase
// letters, one piece of the split either way: the long merge's whole work), CJK prose (short
// sentences and their punctuation), CJK without punctuation (one piece: merged in chunks cut
// where no merge crosses, issue 30), and English prose. Goal: every row under 1 s.
// Run alone: `npm run bench tokens-huge`, or
// `node --expose-gc --import ./bench/ts-loader.mjs bench/suite.ts bench/tokens-huge.bench.ts out.json`.
import { Bench } from "tinybench";
import { Loom, loadTokenizer } from "../src/index.js";
import { forgetBpePieces } from "../src/tokens/wasm-bpe.js";
import { fmt, gc, log, mdTable, type Goal, type SuiteOptions, type SuiteReport } from "./report.js";

const MiB = 1024 * 1024;
const call = { id: "c1", type: "function" as const, function: { name: "read", arguments: "{}" } };

/** A seeded generator (the same texts every run). */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const COMMON_CJK =
  "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三己老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正";
const ENGLISH = [
  "the",
  "report",
  "shows",
  "that",
  "our",
  "team",
  "shipped",
  "seven",
  "features",
  "while",
  "fixing",
  "bugs",
  "in",
  "search",
  "and",
  "billing",
  "during",
  "a",
  "quiet",
  "quarter",
];

/** Texts of about `bytes` UTF-8 bytes. */
function texts(bytes: number): Record<string, string> {
  const r = random(21);
  const letters = new Array<string>(bytes);
  for (let i = 0; i < bytes; i++) letters[i] = String.fromCharCode(97 + Math.floor(r() * 26));
  const cjk: string[] = [];
  for (let n = 0; n < bytes; ) {
    const length = 8 + Math.floor(r() * 24);
    let sentence = "";
    for (let i = 0; i < length; i++) sentence += COMMON_CJK[Math.floor(r() * COMMON_CJK.length)];
    sentence += r() < 0.7 ? "，" : "。";
    cjk.push(sentence);
    n += 3 * sentence.length;
  }
  const english: string[] = [];
  for (let n = 0; n < bytes; ) {
    const words = Array.from({ length: 6 + Math.floor(r() * 14) }, () => ENGLISH[Math.floor(r() * ENGLISH.length)]!);
    const sentence = words.join(" ").replace(/^./, (c) => c.toUpperCase()) + ". ";
    english.push(sentence);
    n += sentence.length;
  }
  const run = new Array<string>(Math.floor(bytes / 3));
  for (let i = 0; i < run.length; i++) run[i] = COMMON_CJK[Math.floor(r() * COMMON_CJK.length)]!;
  return {
    "one letter": "x".repeat(bytes),
    "random letters": letters.join(""),
    "CJK prose": cjk.join(""),
    "CJK, no punctuation": run.join(""),
    "English prose": english.join(""),
  };
}

interface Row {
  text: string;
  size: string;
  operation: string;
  outcome: string;
  ms: number;
}

/** The rows: every operation on every text of every size, each the best of its rounds (ms). */
async function measure(sizes: number[], rounds: number): Promise<Row[]> {
  await loadTokenizer("gpt-4.1"); // (loaded before the first row)
  const loom = await Loom.open({ engine: "wasm", toolResults: { truncate: true } });
  const chats = loom.user("bench");
  const rows: Row[] = [];
  let made: { id: string }[] = [];
  const create = async (model: string) => {
    const chat = await chats.create({ model });
    made.push(chat);
    return chat;
  };
  const dropChats = async () => {
    for (const chat of made) await chats.delete(chat.id);
    made = [];
    gc();
  };
  for (const bytes of sizes) {
    for (const [kind, base] of Object.entries(texts(bytes))) {
      let text = base;
      const size = bytes >= MiB ? `${bytes / MiB} MiB` : `${Math.round(bytes / 1024)} KiB`;
      const ops: [string, () => Promise<string>][] = [
        [
          "append (gpt-4.1)",
          async () => {
            const chat = await create("gpt-4.1");
            return chat.append({ role: "user", content: text }).then(
              (m) => `kept, ${m.tokens.toLocaleString("en")} tokens`,
              (e: { code?: string }) => `refused (${e.code})`,
            );
          },
        ],
        [
          "refuse (gpt-4o)",
          async () => {
            const chat = await create("gpt-4o");
            return chat.append({ role: "user", content: text }).then(
              (m) => `kept, ${m.tokens.toLocaleString("en")} tokens`,
              (e: { code?: string }) => `refused (${e.code})`,
            );
          },
        ],
        [
          "cut as a tool result (gpt-4.1)",
          async () => {
            const chat = await create("gpt-4.1");
            await chat.append({ role: "user", content: "Read it." });
            await chat.append({ role: "assistant", content: "", toolCalls: [call] });
            const m = await chat.append({ role: "tool", toolCallId: "c1", content: text });
            return m.content === text
              ? `kept, ${m.tokens.toLocaleString("en")} tokens`
              : `cut to ${m.tokens.toLocaleString("en")} tokens`;
          },
        ],
      ];
      for (const [index, [operation, op]] of ops.entries()) {
        // Each round its own text (the counter remembers the last long text it counted) and an
        // empty cache of merged words: every round counts its text at first sight.
        let round = 0;
        const fresh = () => {
          forgetBpePieces();
          text = `${base} ${index}.${round++}`;
        };
        let outcome = "";
        const bench = new Bench({ time: 0, warmupTime: 0, iterations: rounds, warmupIterations: 0 });
        bench.add(operation, async () => void (outcome = await op()), { beforeEach: fresh, afterEach: dropChats });
        await bench.run();
        const ms =
          bench.tasks[0]!.result.state === "completed"
            ? (bench.tasks[0]!.result as { latency: { min: number } }).latency.min
            : NaN;
        log(`${kind} ${size} ${operation}: ${fmt(ms)} ms (${outcome})`);
        rows.push({ text: kind, size, operation, outcome, ms });
      }
    }
  }
  await loom.close();
  return rows;
}

export async function runTokensHugeSuite(options: SuiteOptions = { smoke: false }): Promise<SuiteReport> {
  const rows = await measure(options.smoke ? [64 * 1024] : [MiB, 10 * MiB], options.smoke ? 1 : 3);
  const table = rows.map((r) => ({
    text: r.text,
    size: r.size,
    operation: r.operation,
    outcome: r.outcome,
    ms: fmt(r.ms),
  }));
  const worst = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  const goals: Goal[] = [
    {
      goal: "any text up to 10 MiB appended, refused or cut",
      target: "< 1000 ms",
      measured: `${fmt(worst.ms)} ms (${worst.text}, ${worst.size}, ${worst.operation})`,
      pass: worst.ms < 1000,
    },
  ];
  return {
    name: "tokens-huge",
    tables: [{ title: "one huge text, WebAssembly BPE (ms, best of 3)", rows: table }],
    goals,
    markdown: mdTable(table),
  };
}
