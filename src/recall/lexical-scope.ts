import type { Engine } from "../engine/types.js";
import { LEXICAL_MAX_DOCS, type LexicalIndex } from "../engine/lexical.js";
import { lexicalTerms } from "./lexical-terms.js";

/** A lexical query's answer, copied out of the engine: keys best first and their BM25 scores. */
export interface LexicalMatches {
  keys: number[];
  scores: number[];
}

/**
 * Recall's lexical channel for one scope: the engine's inverted index (BM25 over hashed
 * terms: words lowercased, stop words out, light stems; see lexical-terms.ts) over the
 * scope's user and assistant messages, keyed like the scope (KeyMap keys). Texts are
 * tokenized here and never reach the engine. Memory: about 40 bytes a message of chat turns
 * and 400 a long answer (the index's blocks, bench/results/lexical.md), bounded by the
 * scope: removing messages frees theirs.
 */
export class LexicalScope {
  readonly #lexical: LexicalIndex;
  #handle: number;

  private constructor(lexical: LexicalIndex) {
    this.#lexical = lexical;
    this.#handle = lexical.create();
  }

  /** An empty channel on `engine`. Throws OUT_OF_MEMORY, WASM_UNAVAILABLE (a core without the index). */
  static create(engine: Engine): LexicalScope {
    return new LexicalScope(engine.lexical);
  }

  /** Messages indexed. */
  get size(): number {
    return this.#lexical.docs(this.#handle);
  }

  /** Bytes the index holds in WASM memory; -1 on the JS engine (its heap is not counted). */
  get bytes(): number {
    return this.#lexical.bytes(this.#handle);
  }

  has(key: number): boolean {
    return key < LEXICAL_MAX_DOCS && this.#lexical.has(this.#handle, key);
  }

  /**
   * Indexes a message's text (and its author's name, when it has one: a question that names
   * the speaker then finds their turns). Returns false when there is nothing to index (stop
   * words only) or its key is past the index's range (LEXICAL_MAX_DOCS: a scope of 16.7
   * million messages). Throws OUT_OF_MEMORY. O(words).
   */
  add(key: number, text: string, name?: string): boolean {
    if (key >= LEXICAL_MAX_DOCS || this.has(key)) return false;
    const t = lexicalTerms(name === undefined ? text : `${text}\n${name}`);
    if (t.terms.length === 0) return false;
    this.#lexical.add(this.#handle, key, t.terms, t.counts);
    return true;
  }

  /** Forgets messages (keys not indexed are skipped). One sweep over the postings. */
  remove(keys: readonly number[]): void {
    if (keys.length > 0) this.#lexical.remove(this.#handle, keys.filter((k) => k < LEXICAL_MAX_DOCS));
  }

  /** Forgets every message. */
  clear(): void {
    const old = this.#handle;
    this.#handle = this.#lexical.create();
    this.#lexical.drop(old);
  }

  drop(): void {
    this.#lexical.drop(this.#handle);
  }

  /** The `k` messages scoring best for `text` by BM25 (k1, b), best first; none when its terms are all stop words. */
  query(text: string, k: number, k1: number, b: number): LexicalMatches {
    const t = lexicalTerms(text);
    if (t.terms.length === 0 || k === 0) return { keys: [], scores: [] };
    const hits = this.#lexical.query(this.#handle, t.terms, t.counts, Math.min(k, Math.max(1, this.size)), k1, b);
    return { keys: Array.from(hits.docs.subarray(0, hits.count)), scores: Array.from(hits.scores.subarray(0, hits.count)) };
  }
}
