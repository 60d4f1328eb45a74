import { CtxloomError, checkInteger, checkOptions } from "../errors.js";
import { MAX_DIMENSION, type Embedder } from "./embedder.js";

// The built-in embedder: signed feature hashing. Each text becomes a bag of features (its
// lowercase words, and the character 3- to 5-grams of each word with "<" and ">" marking its
// ends, so "remembers" and "remember" share most of theirs); a feature's weight is
// 1 + ln(count); a hash of the feature picks a coordinate and a sign, and the vector is
// L2-normalized. No model, no network, the same numbers on every runtime.

/** Options of `hashingEmbedder`. */
export interface HashingEmbedderOptions {
  /** Coordinates of a vector (default 384). More means fewer collisions, a larger index. */
  dimension?: number;
  /** Leave out common English function words ("the", "is", "what"...) (default true). */
  stopWords?: boolean;
}

const KNOWN = ["dimension", "stopWords"] as const;
const WORD_WEIGHT = 1;
const GRAM_WEIGHT = 0.5;
const WORD_SEED = 0x811c9dc5;
const GRAM_SEED = 0x2b5a8e1f;

const STOP_WORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were " +
    "be been being " +
    "am do does did doing have has had having i me my mine myself we us our ours you your yours he him his she her " +
    "hers " +
    "it its they them their theirs this that these those there here what which who whom whose when where why how " +
    "all any both each few more most other some such no nor not only own same so than too very can could will would " +
    "shall should may might must s t d ll m re ve just also again ever please tell know remember said say told let " +
    "get got make made take took use used want need like good much many well really thanks thank yes ok okay " +
    "one something anything thing things way go going come give see look think sure still even because up out off"
  ).split(" "),
);

/** FNV-1a over the UTF-16 units of `s[from, to)` (with `prefix` units first), then a final mix. */
function hash(seed: number, s: string, from: number, to: number, lead: number, trail: number): number {
  let h = seed;
  if (lead >= 0) h = Math.imul(h ^ lead, 0x01000193);
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  if (trail >= 0) h = Math.imul(h ^ trail, 0x01000193);
  // fmix32 (MurmurHash3): spreads FNV's low bits, which pick the coordinate.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const LT = 60; // "<"
const GT = 62; // ">"
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Feature counts of the text being embedded: an open-addressing table over typed arrays,
 * reused from text to text (a Map per text cost most of the time), and the list of features
 * in first-seen order, so sums run in a fixed order.
 */
const table = {
  keys: new Int32Array(1 << 12),
  counts: new Int32Array(1 << 12),
  order: new Int32Array(1 << 11), // slots in first-seen order
  size: 0,
};

function grow(): void {
  const { keys, counts, order, size } = table;
  const cap = keys.length * 2;
  table.keys = new Int32Array(cap);
  table.counts = new Int32Array(cap);
  table.order = new Int32Array(cap >> 1);
  table.size = 0;
  for (let i = 0; i < size; i++) {
    const slot = order[i]!;
    put(keys[slot]!, counts[slot]!);
  }
}

/** Adds `n` to the count of feature `h` (never 0: 0 marks an empty slot). */
function put(h: number, n: number): void {
  const mask = table.keys.length - 1;
  let slot = (Math.imul(h, 0x9e3779b1) >>> 20) & mask;
  for (;;) {
    const k = table.keys[slot]!;
    if (k === h) {
      table.counts[slot]! += n;
      return;
    }
    if (k === 0) break;
    slot = (slot + 1) & mask;
  }
  table.keys[slot] = h;
  table.counts[slot] = n;
  table.order[table.size++] = slot;
  if (table.size * 2 >= table.keys.length) grow();
}

/** Fills the table with the features of one text (keys: a word's hash is odd, a gram's even). */
function features(text: string, stopWords: boolean): void {
  for (let i = 0; i < table.size; i++) table.keys[table.order[i]!] = 0;
  table.size = 0;
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const w = match[0];
    if (stopWords && STOP_WORDS.has(w)) continue;
    put(hash(WORD_SEED, w, 0, w.length, -1, -1) | 1, 1);
    // Grams of "<w>": position -1 stands for "<", position w.length for ">".
    const len = w.length + 2;
    for (let n = 3; n <= 5; n++) {
      for (let i = 0; i + n <= len; i++) {
        const from = Math.max(i - 1, 0);
        const to = Math.min(i + n - 1, w.length);
        put(hash(GRAM_SEED ^ n, w, from, to, i === 0 ? LT : -1, i + n === len ? GT : -1) & ~1 || 2, 1);
      }
    }
  }
}

/** Embeds one text into `out` (`dim` floats), L2-normalized; an empty text gives the zero vector. */
export function hashInto(text: string, out: Float32Array, stopWords = true): void {
  const dim = out.length;
  const acc = new Float64Array(dim);
  features(text, stopWords);
  for (let i = 0; i < table.size; i++) {
    const slot = table.order[i]!;
    const h = table.keys[slot]! >>> 0;
    const weight = (1 + Math.log(table.counts[slot]!)) * (h & 1 ? WORD_WEIGHT : GRAM_WEIGHT);
    const at = (h >>> 1) % dim;
    acc[at] = acc[at]! + (h & 0x80000000 ? -weight : weight);
  }
  let norm = 0;
  for (let j = 0; j < dim; j++) norm += acc[j]! * acc[j]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let j = 0; j < dim; j++) out[j] = acc[j]! * scale;
}

/** Embedders made by hashingEmbedder(): recall weighs their queries by the scope's corpus statistics (corpus.ts). */
const BUILT_IN = new WeakSet<Embedder>();

/**
 * Whether `embedder` is a built-in one, whose coordinates stand for hashed words (so a per-coordinate idf means
 * something).
 */
export const isHashingEmbedder = (embedder: Embedder): boolean => BUILT_IN.has(embedder);

/**
 * The built-in embedder: deterministic signed feature hashing of words and character
 * n-grams, L2-normalized. Needs no model or network and runs on every runtime (Workers
 * included); it finds texts that share words or word stems, not synonyms. Recall weighs its
 * queries by the idf of each coordinate in the scope (rare words decide, common ones do not),
 * kept as messages are added. Throws
 * INVALID_ARGUMENT for bad options.
 */
export function hashingEmbedder(options?: HashingEmbedderOptions): Embedder {
  const o = checkOptions<HashingEmbedderOptions>(options, "hashingEmbedder options", KNOWN);
  const dimension =
    o.dimension === undefined ? 384 : checkInteger(o.dimension, "hashingEmbedder dimension", 1, MAX_DIMENSION);
  if (o.stopWords !== undefined && typeof o.stopWords !== "boolean") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `hashingEmbedder stopWords must be true or false; got ${String(o.stopWords)}.`,
    );
  }
  const stopWords = o.stopWords ?? true;
  const embedder: Embedder = {
    name: `hashing-${dimension}`,
    dimension,
    embed: async (texts, signal) => {
      signal?.throwIfAborted();
      return texts.map((text) => {
        const v = new Float32Array(dimension);
        hashInto(text, v, stopWords);
        return v;
      });
    },
  };
  BUILT_IN.add(embedder);
  return embedder;
}
