// A chat's texts left in its store, read when asked (a Durable Object's chat too long to hold in
// the isolate: its storage answers synchronously). The column keeps, per message, only whether
// its text is empty (a bit), and a small cache of the texts read or appended last; a text read
// again after the cache let it go is read from the store again.
import type { TextColumn } from "./texts.js";

/** Strings kept: two generations of this many, the older dropped when the newer fills. */
const CACHED = 1024;

export class StoredTexts implements TextColumn {
  #size = 0;
  /** One bit per message: its text is empty. */
  #empty = new Uint8Array(128);
  #young = new Map<number, string>();
  #old = new Map<number, string>();
  /** Texts a loader read with their rows (the few a restore checks whole), dropped at their first read. */
  readonly #warm = new Map<number, string>();
  readonly #read: (id: number) => string;

  /** `read(id)`: message `id`'s text, from the store (throws when it cannot). */
  constructor(read: (id: number) => string) {
    this.#read = read;
  }

  get size(): number {
    return this.#size;
  }

  /** The bits and nothing else: the texts are the store's. */
  get bytes(): number {
    return this.#empty.byteLength;
  }

  get(id: number): string {
    let text = this.#young.get(id) ?? this.#old.get(id);
    if (text !== undefined) return text;
    text = this.#warm.get(id);
    if (text !== undefined) this.#warm.delete(id);
    else text = this.#read(id);
    this.#keep(id, text);
    return text;
  }

  #keep(id: number, text: string): void {
    if (this.#young.size >= CACHED) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(id, text);
  }

  isEmpty(id: number): boolean {
    return (this.#empty[id >> 3]! & (1 << (id & 7))) !== 0;
  }

  /** A message appended (the store holds its text already): cached, as it is likely read next. */
  push(text: string): void {
    const id = this.#added(text.length === 0);
    this.#keep(id, text);
  }

  /**
   * Messages read from the store without their texts: `n` of them, those in `empty` with an empty
   * text, those in `warm` with the text given (read with their rows).
   */
  pushStored(n: number, empty: readonly number[], warm: ReadonlyMap<number, string>): void {
    const first = this.#size;
    for (let i = 0; i < n; i++) this.#added(false);
    for (const id of empty) this.#empty[id >> 3]! |= 1 << (id & 7);
    for (const [id, text] of warm) if (id >= first) this.#warm.set(id, text);
  }

  /** A redaction: the store holds the new text; what is cached of the old goes. */
  rewrite(id: number, text: string): void {
    this.#young.delete(id);
    this.#old.delete(id);
    this.#warm.delete(id);
    this.#keep(id, text);
  }

  #added(empty: boolean): number {
    const id = this.#size++;
    if (id >> 3 >= this.#empty.length) {
      const bits = new Uint8Array(this.#empty.length * 2);
      bits.set(this.#empty);
      this.#empty = bits;
    }
    if (empty) this.#empty[id >> 3]! |= 1 << (id & 7);
    return id;
  }
}
