// Okapi BM25 in plain JavaScript, written from the textbook formula and nothing of ctxloom's:
// the reference the recall-quality suite compares recall against, and the oracle of the
// core's lexical index (test/engine/lexical-reference.test.ts).
//
//   score(d, q) = sum over the query's words w (each occurrence) of
//                 idf(w) * tf(w, d) * (k1 + 1) / (tf(w, d) + k1 * (1 - b + b * |d| / avgdl))
//   idf(w)      = ln(1 + (N - df(w) + 0.5) / (df(w) + 0.5))
//
// Documents are lists of words; the tokenizer is the caller's (plainWords below is the
// classic one: lowercase runs of Unicode letters and digits).

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** Lowercase runs of Unicode letters and digits: the plain tokenizer of the reference. */
export const plainWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class Bm25 {
  readonly k1: number;
  readonly b: number;
  readonly #docs: { id: number; tf: Map<string, number>; length: number }[] = [];
  readonly #df = new Map<string, number>();
  #total = 0;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
  }

  get size(): number {
    return this.#docs.length;
  }

  add(id: number, words: readonly string[]): void {
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) this.#df.set(w, (this.#df.get(w) ?? 0) + 1);
    this.#docs.push({ id, tf, length: words.length });
    this.#total += words.length;
  }

  /** Every document's score for the query, best first (ties: lower id first), those sharing no word left out; at most k. */
  search(query: readonly string[], k: number): { id: number; score: number }[] {
    const n = this.#docs.length;
    const avgdl = this.#total / n;
    const scored: { id: number; score: number }[] = [];
    for (const d of this.#docs) {
      let score = 0;
      let shares = false;
      for (const w of query) {
        const tf = d.tf.get(w);
        if (!tf) continue;
        shares = true;
        const df = this.#df.get(w)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * d.length) / avgdl));
      }
      if (shares) scored.push({ id: d.id, score });
    }
    return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
  }
}
