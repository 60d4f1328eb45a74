import type { Engine } from "../engine/types.js";
import { LEXICAL_MAX_DOCS, type LexicalIndex, type LexicalScoring } from "../engine/lexical.js";
import { checkTermOptions, lexicalTerms, type TermOptions } from "./lexical-terms.js";
import type { Language } from "./languages.js";
import { Segments, type SegmentOptions } from "./segments.js";

/** A lexical query's answer, copied out of the engine: keys best first and their scores. */
export interface LexicalMatches {
  keys: number[];
  scores: number[];
}

/** Where a message sits in its conversation, for the lexical channel's windows and segments. */
export interface LexicalItem {
  key: number;
  text: string;
  /** Its author's name: a question that names the speaker then finds their turns. */
  name?: string;
  /** The key of the message before it (its parent, or the nearest one indexed), if any. */
  prev?: number;
  /** When it was written (ms since the epoch): a long pause starts a new segment. */
  time?: number;
}

/** What a message's text says of it, for the ranking's priors. */
export const QUESTION = 1;
export const SHORT = 2;
/** A message of fewer terms than this is short. */
export const SHORT_TERMS = 3;

/**
 * Recall's lexical channel for one scope: the engine's inverted index (BM25 over hashed
 * terms: words lowercased, stop words out, stemmed; see lexical-terms.ts) over the scope's
 * user and assistant messages, keyed like the scope (KeyMap keys), each linked to the one
 * before it (the engine scores a message's window: itself and its neighbours) and placed in
 * a segment (segments.ts). Texts are tokenized here and never reach the engine. Memory:
 * about 55 bytes a message of chat turns and 400 a long answer (the index's blocks,
 * bench/results/lexical.md), bounded by the scope: removing messages frees theirs.
 */
export class LexicalScope {
  readonly #lexical: LexicalIndex;
  readonly #terms: Required<TermOptions>;
  #handle: number;
  #segments: Segments;
  readonly #segmentOptions: SegmentOptions | undefined;
  /** Per key: QUESTION | SHORT. */
  #flags = new Uint8Array(0);
  /** Per key: when it was written (NaN: unknown). */
  #times = new Float64Array(0);
  /** Messages indexed per language they were stemmed as: the most common is the language of a text that shows none. */
  #languages = new Map<Language, number>();
  #usual: Language = "en";

  private constructor(lexical: LexicalIndex, terms: Required<TermOptions>, segments: SegmentOptions | undefined) {
    this.#lexical = lexical;
    this.#terms = terms;
    this.#segmentOptions = segments;
    this.#segments = new Segments(segments);
    this.#handle = lexical.create();
  }

  /**
   * An empty channel on `engine`. Throws OUT_OF_MEMORY, WASM_UNAVAILABLE (a core without the index), INVALID_ARGUMENT.
   */
  static create(engine: Engine, terms?: TermOptions, segments?: SegmentOptions): LexicalScope {
    return new LexicalScope(engine.lexical, checkTermOptions(terms), segments);
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

  /** When message `key` was written, as it was indexed (NaN: unknown, or not indexed). */
  time(key: number): number {
    return key < this.#times.length ? this.#times[key]! : NaN;
  }

  /** QUESTION and SHORT, as its text said when it was indexed (0 for a key not indexed). */
  flags(key: number): number {
    return key < this.#flags.length ? this.#flags[key]! : 0;
  }

  /**
   * Indexes a message's text (and its author's name). Returns false when there is nothing
   * to index (stop words only) or its key is past the index's range (LEXICAL_MAX_DOCS: a
   * scope of 16.7 million messages). Throws OUT_OF_MEMORY. O(words).
   */
  add(item: LexicalItem): boolean {
    const { key, text, name } = item;
    if (key >= LEXICAL_MAX_DOCS || this.has(key)) return false;
    const t = lexicalTerms(name === undefined ? text : `${text}\n${name}`, this.#terms, this.#usual);
    if (t.terms.length === 0) return false;
    const seen = (this.#languages.get(t.language) ?? 0) + 1;
    this.#languages.set(t.language, seen);
    if (seen > (this.#languages.get(this.#usual) ?? 0)) this.#usual = t.language;
    const prev = item.prev !== undefined && this.has(item.prev) ? item.prev : -1;
    const segment = this.#segments.place(key, prev, item.time);
    this.#lexical.add(this.#handle, key, t.terms, t.counts, { prev, segment });
    let words = 0;
    for (const c of t.counts) words += c;
    if (key >= this.#flags.length) {
      const size = Math.max(1024, 2 ** Math.ceil(Math.log2(key + 1)));
      const flags = new Uint8Array(size);
      flags.set(this.#flags);
      this.#flags = flags;
      const times = new Float64Array(size).fill(NaN);
      times.set(this.#times);
      this.#times = times;
    }
    this.#times[key] = item.time !== undefined && Number.isFinite(item.time) ? item.time : NaN;
    this.#flags[key] = (/\?\s*$/.test(text) ? QUESTION : 0) | (words < SHORT_TERMS ? SHORT : 0);
    return true;
  }

  /** Forgets messages (keys not indexed are skipped). One sweep over the postings. */
  remove(keys: readonly number[]): void {
    if (keys.length === 0) return;
    const held = keys.filter((k) => k < LEXICAL_MAX_DOCS);
    this.#lexical.remove(this.#handle, held);
    for (const k of held) {
      if (k >= this.#flags.length) continue;
      this.#flags[k] = 0;
      this.#times[k] = NaN;
    }
  }

  /** Forgets every message. */
  clear(): void {
    const old = this.#handle;
    this.#handle = this.#lexical.create();
    this.#lexical.drop(old);
    this.#segments = new Segments(this.#segmentOptions);
    this.#flags = new Uint8Array(0);
    this.#times = new Float64Array(0);
    this.#languages = new Map();
    this.#usual = "en";
  }

  drop(): void {
    this.#lexical.drop(this.#handle);
  }

  /**
   * The `k` messages scoring best for `text` (see LexicalIndex.query), best first; none when its terms are all stop
   * words.
   */
  query(text: string, k: number, scoring: LexicalScoring): LexicalMatches {
    const t = lexicalTerms(text, this.#terms, this.#usual);
    if (t.terms.length === 0 || k === 0) return { keys: [], scores: [] };
    const hits = this.#lexical.query(this.#handle, t.terms, t.counts, Math.min(k, Math.max(1, this.size)), scoring);
    return {
      keys: Array.from(hits.docs.subarray(0, hits.count)),
      scores: Array.from(hits.scores.subarray(0, hits.count)),
    };
  }
}
