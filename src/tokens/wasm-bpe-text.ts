// The WebAssembly counter's instance (wasm-bpe.ts loads it): how texts cross into its memory,
// and the counts it makes of them. A text crosses once, as UTF-8; short texts go to a small
// buffer of their own, so that counting one (a marker, a role) leaves a measured text in place.
import { CtxloomError } from "../errors.js";
import type { TextMeasure } from "./types.js";

export interface BpeExports {
  memory: WebAssembly.Memory;
  init(encoding: number): number;
  ranks(encoding: number): number;
  reserve(encoding: number, count: number, poolBytes: number, longest: number, pattern: number): number;
  insertRanks(encoding: number, to: number): void;
  input(capacity: number): number;
  count(encoding: number, bytes: number): number;
  smallInput(): number;
  countSmall(encoding: number, bytes: number): number;
  countUpTo(encoding: number, bytes: number, cap: number): number;
  measure(encoding: number, bytes: number, cap: number): number;
  measuredSpan(from: number, to: number): number;
  measuredReplace(from: number, to: number, bytes: number): number;
  headCut(max: number): number;
  tailCut(max: number): number;
  cutCount(): number;
  units(from: number, to: number): number;
  byteOffset(units: number): number;
  tableBytes(): number;
  mergeSteps(): number;
  longest(encoding: number): number;
  forget(): void;
}

const RANK_SLICE = 8192;
/** The module's small buffer, in bytes (assembly/bpe/index.ts: SMALL_BYTES). */
const SMALL_BYTES = 4096;
/** Texts of at most this many UTF-16 units fit the small buffer (3 bytes a unit at most). */
const SMALL_UNITS = Math.floor(SMALL_BYTES / 3);
/** Texts at least this long are remembered with their count: counted again, they cost nothing. */
const REMEMBER_UNITS = 1 << 16;
const NO_CAP = 0xffffffff;

/**
 * One instance of a counter module (one encoding, or a vocabulary written in): its input buffer and the views on it.
 */
export class Bpe {
  readonly #encoder = new TextEncoder();
  #view = new Uint8Array(0);
  #small = new Uint8Array(0);
  /** Counts every write to the input buffer: a measure made before the last one reads its text again. */
  #writes = 0;
  #lastText = "";
  #lastId = -1;
  #lastCount = 0;

  constructor(readonly exports: BpeExports) {}

  /** Builds an encoding's rank table (once). @throws OUT_OF_MEMORY */
  init(id: number): void {
    const ranks = this.exports.init(id);
    if (ranks < 0)
      throw new CtxloomError(
        "WASM_UNAVAILABLE",
        "The BPE counter's module holds no tables it can read for this encoding (a damaged ctxloom-bpe.wasm?).",
      );
    if (ranks === 0)
      throw new CtxloomError("OUT_OF_MEMORY", "The BPE counter's memory could not grow to hold its rank table.");
    // In slices: the engine starts on baseline code and swaps in optimized code between calls.
    for (let done = 0; done < ranks; done += RANK_SLICE) this.exports.insertRanks(id, done + RANK_SLICE);
    this.#view = new Uint8Array(0); // init may move the input buffer
    this.#writes++;
    this.#reserve(SMALL_BYTES); // the small buffer counts once an input buffer (and its work area) exists
  }

  count(id: number, text: string): number {
    if (text.length <= SMALL_UNITS) return this.#countSmall(id, text);
    if (id === this.#lastId && text === this.#lastText) return this.#lastCount;
    const tokens = checked(this.exports.count(id, this.#write(text)), text);
    this.#remember(id, text, tokens);
    return tokens;
  }

  /** count(text) if at most max, else a number above max (no more than the count): see TokenCounter.countUpTo. */
  countUpTo(id: number, text: string, max: number, longest: number): number {
    // A token holds at most `longest` bytes, and a UTF-16 unit at least one byte: refused unread.
    const least = Math.ceil(text.length / longest);
    if (least > max) return least;
    if (text.length <= SMALL_UNITS) return this.#countSmall(id, text);
    if (id === this.#lastId && text === this.#lastText) return this.#lastCount;
    const tokens = checked(this.exports.countUpTo(id, this.#write(text), Math.min(max, NO_CAP - 1)), text);
    if (tokens <= max) this.#remember(id, text, tokens);
    return tokens;
  }

  /** The text measured once (see TokenCounter.measure). */
  measure(id: number, text: string, upTo: number | undefined, longest: number): TextMeasure {
    return new WasmMeasure(this, id, text, upTo, longest);
  }

  /**
   * @internal Writes `text` into the input buffer and measures it: its count (or, past `cap`, a number above it) and
   * the write it is.
   */
  measureNow(id: number, text: string, cap: number): { tokens: number; write: number; ascii: boolean } {
    const bytes = this.#write(text);
    const tokens = checked(this.exports.measure(id, bytes, cap), text);
    if (cap === NO_CAP) this.#remember(id, text, tokens);
    return { tokens, write: this.#writes, ascii: bytes === text.length };
  }

  /** @internal The number of the last write to the input buffer. */
  get writes(): number {
    return this.#writes;
  }

  /**
   * @internal Tokens of the measured text with bytes [from, to) replaced by `insert` (a short
   * text), counted from the record; undefined when `insert` is too long for the small buffer.
   */
  replaceMeasured(
    id: number,
    text: string,
    from: number,
    to: number,
    insert: string,
    joined: string,
  ): number | undefined {
    if (insert.length > SMALL_UNITS) return undefined;
    const tokens = checked(this.exports.measuredReplace(from, to, this.#intoSmall(insert)), text);
    this.#remember(id, joined, tokens);
    return tokens;
  }

  #countSmall(id: number, text: string): number {
    return checked(this.exports.countSmall(id, this.#intoSmall(text)), text);
  }

  /** Writes a short text into the small buffer; returns its bytes. */
  #intoSmall(text: string): number {
    if (this.#small.buffer !== this.exports.memory.buffer)
      this.#small = new Uint8Array(this.exports.memory.buffer, this.exports.smallInput(), SMALL_BYTES);
    return this.#encoder.encodeInto(text, this.#small).written;
  }

  /** Writes `text` as UTF-8 into the input buffer; returns its bytes. */
  #write(text: string): number {
    const capacity = text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (capacity > this.#view.length || this.#view.buffer !== this.exports.memory.buffer) this.#reserve(capacity);
    this.#writes++;
    return this.#encoder.encodeInto(text, this.#view).written;
  }

  #remember(id: number, text: string, tokens: number): void {
    if (text.length < REMEMBER_UNITS) return;
    this.#lastId = id;
    this.#lastText = text;
    this.#lastCount = tokens;
  }

  #reserve(capacity: number): void {
    const wanted = Math.max(capacity, this.#view.length, 4096);
    const at = this.exports.input(wanted);
    if (at === 0)
      throw new CtxloomError("OUT_OF_MEMORY", `The BPE counter could not reserve ${wanted} bytes for a text.`);
    this.#view = new Uint8Array(this.exports.memory.buffer, at, wanted);
    this.#writes++; // the work area moved with it: a measure's record is gone
  }
}

function checked(tokens: number, text: string): number {
  if (tokens < 0) {
    throw new CtxloomError(
      "OUT_OF_MEMORY",
      `The BPE counter ran out of memory on a text of ${text.length} characters (status ${tokens}).`,
    );
  }
  return tokens;
}

/**
 * A text measured by the module: the record of its pieces stays in the module's memory, and
 * slices and cuts are answered from it. Another text written into the input buffer meanwhile
 * replaces the record: the text is then measured again at the next question (correct, only slower).
 */
class WasmMeasure implements TextMeasure {
  #tokens: number;
  #write: number;
  /** Only a head was measured: the first `#read` units, or up to a cap. */
  #partial: boolean;
  #read: number;
  /** Every unit is one byte: offsets need no conversion. */
  #ascii: boolean;

  constructor(
    private readonly bpe: Bpe,
    private readonly id: number,
    private readonly text: string,
    upTo: number | undefined,
    longest: number,
  ) {
    let read = text;
    let cap = NO_CAP;
    if (upTo !== undefined && upTo < NO_CAP - 1) {
      // A head of upTo tokens lies within the first (upTo + 1) x longest units: a token holds at most `longest` bytes.
      const units = (upTo + 1) * longest;
      if (units < text.length) read = text.slice(0, units);
      cap = upTo;
    }
    const { tokens, write, ascii } = bpe.measureNow(id, read, cap);
    this.#tokens = tokens;
    this.#write = write;
    this.#ascii = ascii;
    this.#partial = read !== text || tokens > cap;
    this.#read = read.length;
  }

  get tokens(): number {
    return this.#tokens;
  }

  /** The module's record is this text's, whole when `whole`. */
  #ready(whole = false): BpeExports {
    if (this.bpe.writes !== this.#write || (whole && this.#partial)) {
      const { tokens, write, ascii } = this.bpe.measureNow(this.id, this.text, NO_CAP);
      this.#tokens = tokens;
      this.#write = write;
      this.#ascii = ascii;
      this.#partial = false;
      this.#read = this.text.length;
    }
    return this.bpe.exports;
  }

  /** The byte offset of UTF-16 index i (of the text measured: call after #ready). */
  #byte(i: number): number {
    return this.#ascii ? i : this.bpe.exports.byteOffset(i);
  }

  /** The UTF-16 index of byte offset b. */
  #unit(b: number): number {
    return this.#ascii ? b : this.bpe.exports.units(0, b);
  }

  count(start: number, end = this.text.length): number {
    const from = Math.max(0, Math.min(start, this.text.length));
    const to = Math.max(from, Math.min(end, this.text.length));
    if (from === to) return 0;
    const x = this.#ready(to > this.#read);
    return checked(x.measuredSpan(this.#byte(from), this.#byte(to)), this.text);
  }

  head(max: number): { end: number; tokens: number } {
    if (max <= 0) return { end: 0, tokens: 0 };
    const x = this.#ready(this.#tokens <= max && this.#partial);
    const cut = checked(x.headCut(Math.min(max, NO_CAP - 1)), this.text);
    return { end: this.#unit(cut), tokens: x.cutCount() };
  }

  replaced(start: number, end: number, insert: string): { text: string; tokens: number } {
    const from = Math.max(0, Math.min(start, this.text.length));
    const to = Math.max(from, Math.min(end, this.text.length));
    const joined = this.text.slice(0, from) + insert + this.text.slice(to);
    this.#ready(true);
    const tokens = this.bpe.replaceMeasured(this.id, this.text, this.#byte(from), this.#byte(to), insert, joined);
    return { text: joined, tokens: tokens ?? this.bpe.count(this.id, joined) };
  }

  tail(max: number): { start: number; tokens: number } {
    if (max <= 0) return { start: this.text.length, tokens: 0 };
    const x = this.#ready(true);
    const cut = checked(x.tailCut(Math.min(max, NO_CAP - 1)), this.text);
    return { start: this.#unit(cut), tokens: x.cutCount() };
  }
}
