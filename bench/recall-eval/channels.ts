// What the recall-quality suite compares, each as a ranker over one conversation's turns:
// ctxloom's recall as users call it today, the plain-JS BM25 reference, the core's lexical
// index (on either engine, with the term options measured), and the dense channel alone
// (the built-in hashing embedder over every turn).

import { Loom } from "../../src/index.js";
import type { Engine } from "../../src/engine/index.js";
import { EmbeddingIndex } from "../../src/recall/embedding-index.js";
import { embedTexts } from "../../src/recall/embedder.js";
import { hashingEmbedder } from "../../src/recall/hashing.js";
import { lexicalTerms, type TermOptions } from "../../src/recall/lexical-terms.js";
import { Bm25, plainWords } from "../../test/recall/eval/bm25.js";
import type { Conversation } from "../../test/recall/eval/generate.js";

/** Ranks a conversation's turns for a question: turn ids, best first, at most k. */
export interface Ranker {
  rank(question: string, k: number): Promise<number[]> | number[];
  close?(): Promise<void>;
}

export interface Channel {
  name: string;
  open(conversation: Conversation): Promise<Ranker>;
}

/**
 * ctxloom's recall today, as the outside benchmark calls it: the conversation appended to a
 * chat (first speaker user, second assistant), then the first k messages that
 * `chat.recall(q, { prompts: k, answersPerPrompt: 0, recent: 0 })` returns (they come
 * oldest first, each prompt with its answer).
 */
export const ctxloomRecall = (engine: "wasm" | "js"): Channel => ({
  name: `ctxloom recall (${engine})`,
  async open(c) {
    const loom = await Loom.open({ engine, counting: "heuristic" });
    const chat = await loom.user("eval").create({ title: `conversation ${c.id}` });
    for (const t of c.turns) await chat.append({ role: t.speaker === 0 ? "user" : "assistant", content: t.text });
    return {
      async rank(question, k) {
        const found = await chat.recall(question, { prompts: k, answersPerPrompt: 0, recent: 0 });
        return found.slice(0, k).map((r) => r.message.id);
      },
      close: () => loom.close(),
    };
  },
});

/** The plain-JS BM25 reference (k1 1.2, b 0.75) over every turn, on the plain words. */
export const bm25Reference: Channel = {
  name: "BM25 reference (plain JS)",
  async open(c) {
    const bm25 = new Bm25({ k1: 1.2, b: 0.75 });
    for (const t of c.turns) bm25.add(t.id, plainWords(t.text));
    return { rank: (question, k) => bm25.search(plainWords(question), k).map((h) => h.id) };
  },
};

/** The core's lexical index over every turn (document id = turn id), BM25 k1 1.2, b 0.75. */
export const lexicalCore = (engine: Engine, options: Required<TermOptions>): Channel => ({
  name: `lexical core (${engine.kind}, stem ${options.stem}${options.stopWords ? ", stop words out" : ""})`,
  async open(c) {
    const l = engine.lexical;
    const x = l.create();
    for (const t of c.turns) {
      const terms = lexicalTerms(t.text, options);
      l.add(x, t.id, terms.terms, terms.counts);
    }
    return {
      rank(question, k) {
        const q = lexicalTerms(question, options);
        return Array.from(l.query(x, q.terms, q.counts, k).docs);
      },
      close: async () => l.drop(x),
    };
  },
});

/** The dense channel alone: the built-in hashing embedder (384 dimensions) over every turn, cosine top k. */
export const denseChannel = (engine: Engine): Channel => ({
  name: "dense alone (hashing-384, every turn)",
  async open(c) {
    const embedder = hashingEmbedder();
    const index = EmbeddingIndex.create(engine, { dimension: embedder.dimension });
    const vectors = await embedTexts(embedder, c.turns.map((t) => t.text));
    const keep = c.turns.filter((_, i) => vectors.subarray(i * embedder.dimension, (i + 1) * embedder.dimension).some((v) => v !== 0));
    const rows = new Float32Array(keep.length * embedder.dimension);
    keep.forEach((t, j) => rows.set(vectors.subarray(t.id * embedder.dimension, (t.id + 1) * embedder.dimension), j * embedder.dimension));
    index.add(keep.map((t) => t.id), rows);
    return {
      async rank(question, k) {
        const q = await embedTexts(embedder, [question]);
        return q.every((v) => v === 0) ? [] : index.search(q, { k }).map((h) => h.key);
      },
    };
  },
});
