// A chat's texts by id, in one of two forms:
//   StringTexts  JS strings, one per message (the memory store: what the caller gave is kept).
//   Utf8Texts    UTF-8 bytes in a few large buffers, off the JS heap, decoded when read, with a
//                small cache of the strings read last (chats loaded from a store outside the
//                process: a long chat opens without decoding or allocating its texts).

/** What a column of texts does. Append-only: ids count up from 0. */
export interface TextColumn {
  readonly size: number;
  get(id: number): string;
  /** True when text `id` is the empty string (no decoding). */
  isEmpty(id: number): boolean;
  push(text: string): void;
  /**
   * Replaces text `id` (a redaction: the one change a text ever gets). The old text is dropped
   * (strings: left to the collector) or overwritten with zeros (UTF-8 bytes).
   */
  rewrite(id: number, text: string): void;
  /** Bytes held off the JS heap (0 for strings). */
  readonly bytes: number;
}

export class StringTexts implements TextColumn {
  readonly #texts: string[] = [];

  get size(): number {
    return this.#texts.length;
  }

  get(id: number): string {
    return this.#texts[id]!;
  }

  isEmpty(id: number): boolean {
    return this.#texts[id]!.length === 0;
  }

  push(text: string): void {
    this.#texts.push(text);
  }

  rewrite(id: number, text: string): void {
    this.#texts[id] = text;
  }

  get bytes(): number {
    return 0;
  }
}

const encoder = new TextEncoder();
// ignoreBOM: a text that starts with U+FEFF keeps it (the default decoder drops it as a byte order mark).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Bytes of the first buffer; each next one doubles, up to MAX_SLAB (a text larger gets its own). */
const MIN_SLAB = 4096;
const MAX_SLAB = 1 << 22;
/** Strings kept decoded: two generations of this many, the older dropped when the newer fills. */
const CACHED = 2048;

/**
 * Texts as UTF-8 in slabs (ArrayBuffers: outside the JS heap the collector scans). Texts are
 * contiguous in id order; a slab holds a run of ids whole, so a text is one `subarray`.
 *
 *   slab s:  | text first[s] | text first[s]+1 | ... |      ends[id] = where text id ends in its slab
 */
export class Utf8Texts implements TextColumn {
  #size = 0;
  readonly #slabs: Uint8Array[] = [];
  /** The first id of each slab. */
  readonly #first: number[] = [];
  /** Bytes used in the last slab. */
  #used = 0;
  #ends = new Uint32Array(16);
  #young = new Map<number, string>();
  #old = new Map<number, string>();
  /** Texts replaced by `rewrite` (their bytes in the slabs are zeros). */
  readonly #rewritten = new Map<number, string>();

  get size(): number {
    return this.#size;
  }

  get bytes(): number {
    let n = this.#ends.byteLength;
    for (const slab of this.#slabs) n += slab.byteLength;
    return n;
  }

  /** The slab that holds `id`: the last one, or a binary search over the few others. */
  #slabOf(id: number): number {
    let hi = this.#first.length - 1;
    if (id >= this.#first[hi]!) return hi;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#first[mid]! <= id) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #bytesOf(id: number): Uint8Array {
    const s = this.#slabOf(id);
    const start = id === this.#first[s] ? 0 : this.#ends[id - 1]!;
    return this.#slabs[s]!.subarray(start, this.#ends[id]!);
  }

  get(id: number): string {
    if (this.#rewritten.size > 0 && this.#rewritten.has(id)) return this.#rewritten.get(id)!;
    let text = this.#young.get(id);
    if (text !== undefined) return text;
    text = this.#old.get(id) ?? decoder.decode(this.#bytesOf(id));
    if (this.#young.size >= CACHED) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(id, text);
    return text;
  }

  isEmpty(id: number): boolean {
    if (this.#rewritten.size > 0 && this.#rewritten.has(id)) return this.#rewritten.get(id)!.length === 0;
    const s = this.#slabOf(id);
    return this.#ends[id]! === (id === this.#first[s] ? 0 : this.#ends[id - 1]!);
  }

  rewrite(id: number, text: string): void {
    this.#bytesOf(id).fill(0);
    this.#young.delete(id);
    this.#old.delete(id);
    this.#rewritten.set(id, text);
  }

  push(text: string): void {
    // Up to 3 bytes per UTF-16 unit; most texts need far less, so try the room left first.
    const slab = this.#slabs[this.#slabs.length - 1];
    if (slab && slab.length - this.#used >= text.length) {
      const { read, written } = encoder.encodeInto(text, slab.subarray(this.#used));
      if (read === text.length) {
        this.#added(this.#used + written!);
        return;
      }
    }
    const bytes = encoder.encode(text);
    this.pushRun(bytes, [bytes.length]);
  }

  /**
   * Adds texts already in UTF-8, one after the other in `bytes`, `lengths[i]` bytes each (how
   * a store hands over a chunk of rows): one copy, no decoding; none with `adopt` (the caller
   * gives `bytes` away and never writes to it again) when the run is large.
   */
  pushRun(bytes: Uint8Array, lengths: ArrayLike<number>, adopt = false): void {
    let slab = this.#slabs[this.#slabs.length - 1];
    if (adopt && bytes.length >= MIN_SLAB && (!slab || slab.length - this.#used < bytes.length)) {
      // A large run the caller gives away becomes a slab of its own, full: no copy.
      this.#slabs.push(bytes);
      this.#first.push(this.#size);
      this.#used = 0;
      let end = 0;
      for (let i = 0; i < lengths.length; i++) this.#added((end += lengths[i]!));
      return;
    }
    if (!slab || slab.length - this.#used < bytes.length) {
      const last = slab?.length ?? MIN_SLAB / 2;
      slab = new Uint8Array(Math.max(bytes.length, Math.min(MAX_SLAB, last * 2)));
      this.#slabs.push(slab);
      this.#first.push(this.#size);
      this.#used = 0;
    }
    slab.set(bytes, this.#used);
    let end = this.#used;
    for (let i = 0; i < lengths.length; i++) this.#added((end += lengths[i]!));
  }

  #added(end: number): void {
    if (this.#size === this.#ends.length) {
      const ends = new Uint32Array(this.#size * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#ends[this.#size++] = end;
    this.#used = end;
  }
}
