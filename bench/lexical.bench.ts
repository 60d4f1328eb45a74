// The lexical index (issue 23): what indexing a message costs (tokenizing and hashing in
// TypeScript, then the core's add), the memory it holds per message, and a query's median
// time (top 10, BM25) with 10k and 100k messages in scope, on the WASM core and its TypeScript
// twin, against the plain-JS BM25 reference that scores every message. Messages and questions
// are those of the evaluation set's generator (test/recall/eval/), conversations from 100 on
// (the evaluation's own conversations are 0-11). Printed, never asserted.
//
//   node --expose-gc --import ./bench/ts-loader.mjs bench/lexical.bench.ts [--smoke]

import { Bench } from "tinybench";
import { JsEngine, WasmEngine, embeddedModule, type Engine } from "../src/engine/index.js";
import { lexicalTerms, type Terms } from "../src/recall/lexical-terms.js";
import { Bm25, plainWords } from "../test/recall/eval/bm25.js";
import { generateConversation } from "../test/recall/eval/generate.js";
import { oasstExchanges } from "../test/recall/eval-set.js";
import { fmt, gc, latency, log, mdTable, type Goal, type SuiteOptions, type SuiteReport } from "./report.js";

const K = 10;

/** Turns and questions of generated conversations until `n` messages. */
function corpus(n: number): { texts: string[]; questions: string[] } {
  const texts: string[] = [];
  const questions: string[] = [];
  for (let i = 100; texts.length < n; i++) {
    const c = generateConversation(i);
    for (const t of c.turns) if (texts.length < n) texts.push(t.text);
    for (const q of c.questions) questions.push(q.question);
  }
  return { texts, questions };
}

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** Indexes every message (one add each); returns the index and the µs an add took on average. */
function build(engine: Engine, terms: readonly Terms[]): { x: number; addUs: number } {
  const l = engine.lexical;
  const x = l.create();
  const t0 = performance.now();
  terms.forEach((t, id) => l.add(x, id, t.terms, t.counts));
  return { x, addUs: ((performance.now() - t0) * 1000) / terms.length };
}

export async function runLexicalSuite(options: SuiteOptions): Promise<SuiteReport> {
  const sizes = options.smoke ? [2_000] : [10_000, 100_000];
  const rows: Record<string, string | number>[] = [];
  const goals: Goal[] = [];
  const corpora = sizes.map((n) => ({ name: "generated chat turns", ...corpus(n) }));
  const real = oasstExchanges();
  if (real) corpora.push({ name: "OASST (real, long answers)", texts: real.flat(), questions: corpora[0]!.questions });
  else log("lexical: ../shared/data is absent; generated messages only");
  for (const { name, texts, questions } of corpora) {
    const n = texts.length;
    log(`lexical: ${n.toLocaleString("en")} messages, ${name}`);
    const terms = texts.map((text) => lexicalTerms(text));
    // Tokenizing, warm: the best of three passes over (at most) 20k messages.
    const sample = texts.slice(0, 20_000);
    let tokenizeUs = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      const t0 = performance.now();
      for (const text of sample) lexicalTerms(text);
      tokenizeUs = Math.min(tokenizeUs, ((performance.now() - t0) * 1000) / sample.length);
    }
    const queries = questions.map((q) => lexicalTerms(q));
    const postings = terms.reduce((s, t) => s + t.terms.length, 0);

    const wasm = await WasmEngine.create(await embeddedModule());
    const usedBefore = wasm.memoryUsedBytes();
    const w = build(wasm, terms);
    const wasmBytes = wasm.lexical.bytes(w.x);
    const wasmUsed = wasm.memoryUsedBytes() - usedBefore;
    const js = new JsEngine();
    const j = build(js, terms);
    const bm25 = new Bm25();
    texts.forEach((text, id) => bm25.add(id, plainWords(text)));

    let qi = 0;
    const nextQuery = () => queries[(qi = (qi + 1) % queries.length)]!;
    const bench = new Bench({ time: options.smoke ? 50 : 1500, warmupTime: options.smoke ? 10 : 200 });
    bench.add("wasm query", () => {
      const q = nextQuery();
      wasm.lexical.query(w.x, q.terms, q.counts, K);
    });
    bench.add("js query", () => {
      const q = nextQuery();
      js.lexical.query(j.x, q.terms, q.counts, K);
    });
    bench.add("wasm tokenize + query", () => {
      const q = lexicalTerms(questions[(qi = (qi + 1) % questions.length)]!);
      wasm.lexical.query(w.x, q.terms, q.counts, K);
    });
    const reference = new Bench({ time: options.smoke ? 20 : 1000, warmupTime: 0, iterations: 5 });
    reference.add(
      "plain JS BM25",
      () => void bm25.search(plainWords(questions[(qi = (qi + 1) % questions.length)]!), K),
    );
    await bench.run();
    await reference.run();
    const p50 = (b: Bench, name: string) => latency(b.getTask(name)!).p50;
    const wasmMs = p50(bench, "wasm query");
    const row: Record<string, string | number> = {
      messages: `${n.toLocaleString("en")} ${name}`,
      "terms/msg": (postings / n).toFixed(1),
      "tokenize (µs/msg)": fmt(tokenizeUs),
      "add wasm (µs/msg)": fmt(w.addUs),
      "add ts (µs/msg)": fmt(j.addUs),
      "wasm index (B/msg)": fmt(wasmBytes / n),
      "wasm memory used (B/msg)": fmt(wasmUsed / n),
      "ts heap (B/msg)": "",
      "query p50 wasm (ms)": fmt(wasmMs),
      "query p50 ts (ms)": fmt(p50(bench, "js query")),
      "tokenize+query p50 wasm (ms)": fmt(p50(bench, "wasm tokenize + query")),
      "plain JS BM25 p50 (ms)": fmt(p50(reference, "plain JS BM25")),
    };
    rows.push(row);
    if (n === sizes[sizes.length - 1] && name.startsWith("generated")) {
      goals.push(
        {
          goal: `lexical query p50 at ${n.toLocaleString("en")} messages (wasm, top ${K})`,
          target: "< 1 ms",
          measured: `${fmt(wasmMs)} ms`,
          pass: wasmMs < 1,
        },
        {
          goal: "lexical index memory per message (wasm)",
          target: "< 200 B",
          measured: `${fmt(wasmBytes / n)} B`,
          pass: wasmBytes / n < 200,
        },
      );
    }
    wasm.lexical.drop(w.x);
    // The twin's heap: what dropping its index gives back to a collection.
    const heapWith = heapUsed();
    js.lexical.drop(j.x);
    row["ts heap (B/msg)"] = fmt((heapWith - heapUsed()) / n);
  }
  const markdown = [
    "Lexical index (BM25, top 10) over messages of generated conversations; tokenize: words, stop words out, Snowball stems in the text's language, hashed (TypeScript).",
    "wasm index: the bytes of its blocks (term table, postings, lengths); memory used: the core's allocator growth while indexing (includes the input buffer).",
    "ts heap: what dropping the TypeScript twin's index frees in a collection. Plain JS BM25 scores every message (test/recall/eval/bm25.ts).",
    "A query also uses a scratch shared by every index: 12 bytes per id of the largest index queried (1.5 MB at 100k messages).",
    "tokenize: warm, best of three passes; adds: one pass, indexing every message once (the first sizes include warm-up).",
    "",
    mdTable(rows),
    "",
  ].join("\n");
  return { name: "lexical", tables: [{ title: "lexical index: indexing, memory, query", rows }], goals, markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runLexicalSuite({ smoke: process.argv.includes("--smoke") });
  console.table(report.tables[0]!.rows);
  for (const g of report.goals)
    console.log(`${g.pass ? "PASS" : "MISS"}  ${g.goal}: ${g.measured} (target ${g.target})`);
  if (!process.argv.includes("--smoke")) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(new URL("./results/lexical.md", import.meta.url), report.markdown + "\n");
  }
}
