// Long texts without spaces (issue 7, item 1c): gpt-tokenizer's own count (quadratic on one
// long piece) against ctxloom's exact counter (heap merge, O(n log n)), and what the context
// builder does with 10 MiB: memory cut to its slice (only the kept part is encoded), input
// refused by a linear bound. Run alone: `node --import ./bench/ts-loader.mjs bench/tokens-long.bench.ts`.
import { countTokens as gptCount } from "gpt-tokenizer/encoding/o200k_base";
import { Loom } from "../src/index.js";
import { loadEncoding } from "../src/tokens/index.js";

const PLAIN = { disallowedSpecial: new Set<string>() };

async function time(f: () => unknown, runs = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** Text lengths of a full run, and of bench:smoke (gpt-tokenizer is quadratic on one long piece: 100k takes a minute). */
const FULL = { lengths: [10_000, 30_000, 100_000], hugeMiB: 10 };
const SMOKE: typeof FULL = { lengths: [1_000, 3_000, 10_000], hugeMiB: 0.25 };

/** The figures, measured in milliseconds (best of three; gpt-tokenizer's once). */
async function measure(C: typeof FULL = FULL): Promise<Record<string, number>> {
  const counter = await loadEncoding("o200k_base");
  const out: Record<string, number> = {};
  for (const n of C.lengths) {
    const text = "a".repeat(n);
    out[`gpt-tokenizer count ${n} a (ms)`] = await time(() => gptCount(text, PLAIN), 1);
    out[`ctxloom count ${n} a (ms)`] = await time(() => counter.count(text));
  }
  const huge = "x".repeat(C.hugeMiB * 1024 * 1024);
  out[`ctxloom count ${C.hugeMiB} MiB x (ms)`] = await time(() => counter.count(huge), 1);
  const loom = await Loom.open({ engine: "wasm" });
  const chat = await loom.user("bench").create({ model: "gpt-4o" });
  await chat.append({ role: "user", content: "hi" });
  out[`buildContext memory ${C.hugeMiB} MiB x, gpt-4o (ms)`] = await time(() => chat.buildContext({ memory: huge }));
  const small = {
    name: "o200k-60k",
    contextWindow: 60_000,
    sizeClass: "xlarge" as const,
    tokensPerChar: 0.25,
    encoding: "o200k_base" as const,
  };
  out[`buildContext input ${C.hugeMiB} MiB x refused, 60k window (ms)`] = await time(() =>
    chat.buildContext({ input: huge, model: small }).catch(() => 0),
  );
  await loom.close();
  return out;
}

/** The suite as bench/index.ts runs it: one table, goals, and its markdown. */
export async function runLongTokensSuite(options: { smoke?: boolean } = {}) {
  const C = options.smoke ? SMOKE : FULL;
  const out = await measure(C);
  const rows = Object.entries(out).map(([what, ms]) => ({ what, ms: +ms.toFixed(1) }));
  const [short, , long] = C.lengths as [number, number, number];
  const memory = out[`buildContext memory ${C.hugeMiB} MiB x, gpt-4o (ms)`]!;
  const input = out[`buildContext input ${C.hugeMiB} MiB x refused, 60k window (ms)`]!;
  const ratio = out[`ctxloom count ${long} a (ms)`]! / out[`ctxloom count ${short} a (ms)`]!;
  return {
    name: "tokens-long",
    tables: [{ title: "long runs without spaces (ms)", rows }],
    goals: [
      {
        goal: `${C.hugeMiB} MiB of memory cut to its slice`,
        target: "< 1000 ms",
        measured: `${memory.toFixed(0)} ms`,
        pass: memory < 1000,
      },
      {
        goal: `${C.hugeMiB} MiB of input refused`,
        target: "< 100 ms",
        measured: `${input.toFixed(1)} ms`,
        pass: input < 100,
      },
      {
        goal: `count ${long / 1000}k / ${short / 1000}k chars (n log n, not n^2)`,
        target: "< 20x",
        measured: `${ratio.toFixed(1)}x`,
        pass: ratio < 20,
      },
    ],
    markdown: [
      "| what | ms |",
      "| --- | ---: |",
      ...rows.map((r) => `| ${r.what.replace(/ \(ms\)$/, "")} | ${r.ms} |`),
    ].join("\n"),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [k, v] of Object.entries(await measure())) console.log(`${k.padEnd(55)} ${v.toFixed(1)}`);
}
