// What the recall-quality suite compares, each as a ranker over one conversation's turns:
// ctxloom's recall as users call it (the outside benchmark's call, and the top-k call), the
// plain-JS BM25 reference, the core's lexical index (on either engine, with the term options
// and BM25's b measured), and the dense channel alone (the built-in hashing embedder over
// every turn, with and without the scope's idf, at two dimensions).

import { Loom } from "../../src/index.js";
import type { Engine } from "../../src/engine/index.js";
import { CorpusStats } from "../../src/recall/corpus.js";
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

/** A Loom's chat holding the conversation: the first speaker as the user, the second as the assistant. */
async function chatOf(c: Conversation, engine: "wasm" | "js") {
  const loom = await Loom.open({ engine, counter: "heuristic" });
  const chat = await loom.user("eval").create({ title: `conversation ${c.id}` });
  for (const t of c.turns) await chat.append({ role: t.speaker === 0 ? "user" : "assistant", content: t.text });
  return { loom, chat };
}

/**
 * ctxloom's recall as the outside benchmark calls it: the first k messages that
 * `chat.recall(q, { prompts: k, answersPerPrompt: 0, recent: 0 })` returns (the exchanges
 * of the best matches, best first, each whole).
 */
export const ctxloomRecall = (engine: "wasm" | "js"): Channel => ({
  name: `ctxloom recall, exchanges (${engine})`,
  async open(c) {
    const { loom, chat } = await chatOf(c, engine);
    return {
      async rank(question, k) {
        const found = await chat.recall(question, { prompts: k, answersPerPrompt: 0, recent: 0 });
        return found.slice(0, k).map((r) => r.message.id);
      },
      close: () => loom.close(),
    };
  },
});

/** ctxloom's top-k call: `chat.recall(q, { k })`, the k best messages. */
export const ctxloomTopK = (engine: "wasm" | "js"): Channel => ({
  name: `ctxloom recall, top k (${engine})`,
  async open(c) {
    const { loom, chat } = await chatOf(c, engine);
    return {
      rank: async (question, k) => (await chat.recall(question, { k })).map((r) => r.message.id),
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

/** The core's lexical index over every turn (document id = turn id), BM25 k1 1.2 and b (default 0.75). */
export const lexicalCore = (engine: Engine, options: Required<TermOptions>, b = 0.75): Channel => ({
  name: `lexical core (${engine.kind}, stem ${options.stem}${options.stopWords ? ", stop words out" : ""}${b === 0.75 ? "" : `, b ${b}`})`,
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
        return Array.from(l.query(x, q.terms, q.counts, k, { k1: 1.2, b }).docs);
      },
      close: async () => l.drop(x),
    };
  },
});

/** The dense channel alone: the built-in hashing embedder over every turn, cosine top k; with `idf`, the query weighted by the conversation's idf, as recall weighs it. */
export const denseChannel = (engine: Engine, dimension: number, idf: boolean): Channel => ({
  name: `dense alone (hashing-${dimension}${idf ? ", idf" : ""})`,
  async open(c) {
    const embedder = hashingEmbedder({ dimension });
    const index = EmbeddingIndex.create(engine, { dimension });
    const corpus = new CorpusStats(dimension);
    const vectors = await embedTexts(
      embedder,
      c.turns.map((t) => t.text),
    );
    const row = (i: number) => vectors.subarray(i * dimension, (i + 1) * dimension);
    const keep = c.turns.filter((t) => row(t.id).some((v) => v !== 0));
    const rows = new Float32Array(keep.length * dimension);
    keep.forEach((t, j) => {
      rows.set(row(t.id), j * dimension);
      corpus.count(row(t.id), 1);
    });
    index.add(
      keep.map((t) => t.id),
      rows,
    );
    return {
      async rank(question, k) {
        const q = await embedTexts(embedder, [question]);
        const w = idf ? corpus.weigh(q) : q;
        return w.every((v) => v === 0) ? [] : index.search(w, { k }).map((h) => h.key);
      },
      close: async () => index.drop(),
    };
  },
});
