/**
 * Byte-pair merging in O(n log n) over gpt-tokenizer's own tables.
 *
 * gpt-tokenizer merges a pre-tokenized piece by rescanning every pair after each merge:
 * quadratic in the piece, and a run without spaces is one piece (10k "a" took 67 ms, 100k
 * 4.7 s). Here a long piece is merged with a min-heap of adjacent pairs keyed by (rank,
 * start) over a linked list of parts: the same merges in the same order (lowest rank,
 * leftmost first, as tiktoken and gpt-tokenizer do), so the same tokens. Short pieces go
 * through gpt-tokenizer itself (its merge cache makes repeated words free).
 *
 * Pair ranks are looked up once per pair of tokens (the parts of a piece are always
 * tokens), then cached by the two token ids.
 */

/** The parts of gpt-tokenizer's BytePairEncodingCore this module uses (same tables, same regex). */
export interface BpeCore {
  tokenSplitRegex: RegExp;
  bytePairRankDecoder: readonly (string | readonly number[] | undefined)[];
  getBpeRankFromString(text: string): number | undefined;
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
  bytePairEncode(text: string): number[];
}

/** Pieces up to this many UTF-16 units go through gpt-tokenizer's own merge (bounded, cached). */
const SHORT_PIECE = 64;
/** Pair cache entries kept before the cache is cleared (about 40 MB at most). */
const PAIR_CACHE_MAX = 1 << 20;
const KEY_SHIFT = 2 ** 32;
const HOT = 1 << 14;
const encoder = new TextEncoder();

export class HeapBpe {
  /** Heap pushes and pops since creation: what the linearity tests count. */
  steps = 0;
  /** The longest token, in UTF-8 bytes: no text of n tokens is longer than n times this. */
  readonly maxTokenBytes: number;
  readonly #core: BpeCore;
  readonly #pairs = new Map<number, number>();
  readonly #byteRank = new Int32Array(256);
  // A direct-mapped cache in front of the map: repeated pairs cost two array reads.
  readonly #hotA = new Int32Array(HOT).fill(-1);
  readonly #hotB = new Int32Array(HOT);
  readonly #hotRank = new Int32Array(HOT);

  constructor(core: BpeCore) {
    this.#core = core;
    let longest = 1;
    for (const value of core.bytePairRankDecoder) {
      if (value === undefined) continue;
      const n = typeof value === "string" ? encoder.encode(value).length : value.length;
      if (n > longest) longest = n;
    }
    this.maxTokenBytes = longest;
    for (let b = 0; b < 256; b++) this.#byteRank[b] = core.getBpeRankFromBytes(Uint8Array.of(b)) ?? -1;
  }

  /** Tokens of `text`, specials counted as plain text. */
  count(text: string): number {
    let n = 0;
    for (const [piece] of text.matchAll(this.#core.tokenSplitRegex)) n += this.#piece(piece, null);
    return n;
  }

  /**
   * count(text) when at most `max`, else a number above `max` (no more than the count): the
   * pieces are counted until the total passes `max`, and a piece that cannot fit by its
   * length alone (at least one byte a UTF-16 unit, at most maxTokenBytes a token) is not merged.
   */
  countUpTo(text: string, max: number): number {
    let n = 0;
    for (const [piece] of text.matchAll(this.#core.tokenSplitRegex)) {
      const least = Math.ceil(piece.length / this.maxTokenBytes);
      n += n + least > max ? least : this.#piece(piece, null);
      if (n > max) return n;
    }
    return n;
  }

  /**
   * Where each token of `text` ends (UTF-16 offsets, one per token, ascending), stopping
   * once more than `max` tokens are found: then `ends.length > max` and `ends[max - 1]` is
   * where the first `max` tokens end. A token that ends inside a character (byte-level
   * tokens of one emoji) ends where that character starts, so a cut never splits one.
   */
  ends(text: string, max: number): number[] {
    const ends: number[] = [];
    const byteEnds: number[] = [];
    for (const m of text.matchAll(this.#core.tokenSplitRegex)) {
      const piece = m[0];
      const start = m.index!;
      byteEnds.length = 0;
      this.#piece(piece, byteEnds);
      // Byte offsets within the piece to UTF-16 offsets within the text.
      let b = 0;
      let u = 0;
      for (const end of byteEnds) {
        for (;;) {
          if (u >= piece.length) break;
          const c = piece.codePointAt(u)!;
          const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
          if (b + size > end) break;
          b += size;
          u += c >= 0x10000 ? 2 : 1;
        }
        ends.push(start + u);
        if (ends.length > max) return ends;
      }
    }
    return ends;
  }

  /** Tokens of one piece; with `ends`, also pushes each token's end (bytes within the piece). */
  #piece(piece: string, ends: number[] | null): number {
    const core = this.#core;
    if (core.getBpeRankFromString(piece) !== undefined) {
      ends?.push(encoder.encode(piece).length);
      return 1;
    }
    if (piece.length <= SHORT_PIECE && !ends) return core.bytePairEncode(piece).length;
    return this.#merge(encoder.encode(piece), ends);
  }

  /** The rank of the token made of tokens a and b (bytes[from, to)), or -1: cached by the two ids. */
  #pairRank(a: number, b: number, bytes: Uint8Array, from: number, to: number): number {
    const slot = ((a * 40503) ^ b) & (HOT - 1);
    if (this.#hotA[slot] === a && this.#hotB[slot] === b) return this.#hotRank[slot]!;
    const key = a * 262144 + b;
    let rank = this.#pairs.get(key);
    if (rank === undefined) {
      rank = this.#core.getBpeRankFromBytes(bytes.subarray(from, to)) ?? -1;
      if (this.#pairs.size >= PAIR_CACHE_MAX) this.#pairs.clear();
      this.#pairs.set(key, rank);
    }
    this.#hotA[slot] = a;
    this.#hotB[slot] = b;
    this.#hotRank[slot] = rank;
    return rank;
  }

  /** The heap merge of one piece's bytes (push and pop written out: this loop is the whole cost). */
  #merge(bytes: Uint8Array, ends: number[] | null): number {
    const n = bytes.length;
    const next = new Int32Array(n + 1);
    const prev = new Int32Array(n + 1);
    const token = new Int32Array(n); // rank of the part starting at i
    const pair = new Int32Array(n); // rank of the pair starting at i, or -1
    const heap = new Float64Array(3 * n + 1); // keys rank * 2^32 + start: lowest rank, then leftmost
    const byteRank = this.#byteRank;
    for (let i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      token[i] = byteRank[bytes[i]!]!;
    }
    next[n] = n;
    let size = 0;
    for (let i = 0; i + 1 < n; i++) {
      const r = this.#pairRank(token[i]!, token[i + 1]!, bytes, i, i + 2);
      pair[i] = r;
      if (r >= 0) heap[size++] = r * KEY_SHIFT + i;
    }
    pair[n - 1] = -1;
    for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, i, heap[i]!);
    let steps = size;
    let parts = n;
    while (size > 0) {
      const key = heap[0]!;
      size--;
      if (size > 0) siftDown(heap, size, 0, heap[size]!);
      steps++;
      const rank = Math.floor(key / KEY_SHIFT);
      const i = key - rank * KEY_SHIFT;
      if (pair[i] !== rank) continue; // stale: the pair changed since it was pushed (a merged part's pair is -1)
      const j = next[i]!;
      const k = next[j]!;
      pair[j] = -1;
      next[i] = k;
      if (k < n) prev[k] = i;
      token[i] = rank;
      parts--;
      // The pair the merged part starts, and the one that ends at it.
      const r = k < n ? this.#pairRank(rank, token[k]!, bytes, i, next[k]!) : -1;
      pair[i] = r;
      if (r >= 0) {
        siftUp(heap, size++, r * KEY_SHIFT + i);
        steps++;
      }
      const h = prev[i]!;
      if (h >= 0) {
        const q = this.#pairRank(token[h]!, rank, bytes, h, k);
        pair[h] = q;
        if (q >= 0) {
          siftUp(heap, size++, q * KEY_SHIFT + h);
          steps++;
        }
      }
    }
    this.steps += steps;
    if (ends) for (let i = 0; i < n; i = next[i]!) ends.push(next[i]!);
    return parts;
  }
}

function siftDown(heap: Float64Array, size: number, at: number, key: number): void {
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= key) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = key;
}

function siftUp(heap: Float64Array, at: number, key: number): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (heap[parent]! <= key) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = key;
}
