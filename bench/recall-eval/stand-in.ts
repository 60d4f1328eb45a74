// A stand-in for a trained dense retriever, to measure the weight recall gives an app's
// embedder (issue 36, item 3). No MiniLM-class encoder runs here: npm ships none with its
// weights (the packages that embed download them at run time), so the stand-in is a retriever
// of known strength made from the evaluation set's answers: each question gets a random
// direction, each evidence turn leans towards its questions' directions by `signal` over
// random noise, every other text is noise. Alone it finds a set share of the evidence (the
// suite prints it: about that of the published dense retrievers at the chosen signal), and
// unlike them it knows no words: what it adds to the lexical side is what a retriever of that
// strength adds when its errors fall independently of the words'. Seeded: the same vectors on
// every run.

import type { Engine } from "../../src/engine/index.js";
import { embedTexts, type Embedder } from "../../src/recall/embedder.js";
import { EmbeddingIndex } from "../../src/recall/embedding-index.js";
import { RANKING } from "../../src/recall/rank.js";
import { recallAt } from "./evaluate.js";
import { pipeline } from "./pipeline.js";
import { mulberry32 } from "../../test/seeded.js";
import type { Conversation } from "../../test/recall/eval/generate.js";

const DIM = 64;

function gaussians(r: () => number, n: number): Float32Array {
  const v = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = Math.max(r(), 1e-12);
    const t = 2 * Math.PI * r();
    const m = Math.sqrt(-2 * Math.log(u));
    v[i] = m * Math.cos(t);
    if (i + 1 < n) v[i + 1] = m * Math.sin(t);
  }
  return v;
}

const unit = (v: Float32Array) => {
  let s = 0;
  for (const x of v) s += x * x;
  const k = 1 / Math.sqrt(s || 1);
  return v.map((x) => x * k);
};

/** The stand-in embedder of one conversation, `signal` its strength (0: noise). */
export function standInEmbedder(c: Conversation, signal: number, seed = 36): Embedder {
  const r = mulberry32(seed * 7919 + c.id);
  const vectors = new Map<string, Float32Array>();
  const lean = new Map<number, Float32Array>();
  for (const q of c.questions) {
    const u = unit(gaussians(r, DIM));
    vectors.set(q.question, u);
    for (const e of q.evidence) {
      const v = lean.get(e) ?? new Float32Array(DIM);
      for (let j = 0; j < DIM; j++) v[j]! += signal * u[j]!;
      lean.set(e, v);
    }
  }
  for (const t of c.turns) {
    const noise = unit(gaussians(r, DIM));
    const v = lean.get(t.id);
    if (v) for (let j = 0; j < DIM; j++) noise[j]! += v[j]!;
    if (!vectors.has(t.text) || v) vectors.set(t.text, unit(noise));
  }
  return {
    name: `stand-in-${signal}`,
    dimension: DIM,
    embed: async (texts) => texts.map((t) => vectors.get(t) ?? unit(gaussians(r, DIM))),
  };
}

/** The stand-in's strength alone and fused at several weights, R@10 of the outside benchmark's call, per part. */
export async function standInRows(
  engine: Engine,
  conversations: readonly Conversation[],
): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const part of ["tuning", "held-out"] as const) {
    const set = conversations.filter((c) => c.heldOut === (part === "held-out"));
    for (const signal of [0.25, 0.4]) {
      const row: Record<string, string | number> = { part, "stand-in": `signal ${signal}` };
      let alone = 0;
      let n = 0;
      for (const c of set) {
        const embedder = standInEmbedder(c, signal);
        const index = EmbeddingIndex.create(engine, { dimension: DIM });
        index.add(
          c.turns.map((t) => t.id),
          await embedTexts(
            embedder,
            c.turns.map((t) => t.text),
          ),
        );
        for (const q of c.questions) {
          alone += recallAt(
            index.search(await embedTexts(embedder, [q.question]), { k: 10 }).map((h) => h.key),
            q.evidence,
          )[1]!;
          n++;
        }
        index.drop();
      }
      row["alone R@10"] = +((100 * alone) / n).toFixed(1);
      for (const weight of [0, 0.2, 0.5, 1, 2]) {
        let fused = 0;
        for (const c of set) {
          const ranker = await pipeline("stand-in", engine, {
            embedder: () => standInEmbedder(c, signal),
            ranking: { embedder: weight },
          }).open(c);
          for (const q of c.questions) fused += recallAt(await ranker.rank(q.question, 10), q.evidence)[1]!;
          await ranker.close?.();
        }
        row[`fused, weight ${weight}${weight === RANKING.embedder ? " (default)" : ""}`] = +((100 * fused) / n).toFixed(
          1,
        );
      }
      rows.push(row);
    }
  }
  return rows;
}
