import { PRIORITIES, ROLES, priorityCode, roleCode, type Message, type MessageExtras } from "../message.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { copyParts } from "../parts.js";
import { StringTexts, Utf8Texts, type TextColumn } from "./texts.js";

/** The rare fields of a message, frozen. */
export interface ColumnExtras extends MessageExtras {
  covers?: { first: number; last: number };
}

const SUMMARY = 16;
/** In the code column only: the message has extras (in the map), so a read without them skips the lookup. */
const EXTRAS = 32;
/** Messages per block of creation times: each block keeps its first time whole, the others as offsets from it. */
const BLOCK_SHIFT = 12;
/** An offset that does not fit (not a whole number of ms from 0 to 2^32 - 2): the time is in a map. */
const ESCAPE = 0xffffffff;
/** A message's numbers in `nums`: NUMS of them, at these offsets. */
const NUMS = 3;
const PARENT = 0;
const TOKENS = 1;
const TIME = 2;
/** The first buffer's room, in messages. */
const MIN_CAPACITY = 8;
/** The views of columns that hold no message yet (never written: the first push grows them). */
const NO_NUMS = new Int32Array(0);
const NO_CODES = new Uint8Array(0);
/** `extras` of columns that hold none. */
const NO_EXTRAS: ReadonlyMap<number, Readonly<ColumnExtras>> = new Map();

/** The fields of a run of stored messages, one array each, as a store reads them (see `pushRun`). */
export interface ColumnRun {
  parents: ArrayLike<number>;
  codes: ArrayLike<number>;
  tokens: ArrayLike<number>;
  created: ArrayLike<number>;
  extras: ArrayLike<ColumnExtras | null>;
}

/** Role, priority and kind in one code: role (bits 0-1) | priority (bits 2-3) | summary (bit 4). */
export const columnCode = (m: Pick<Message, "role" | "priority" | "kind">): number =>
  roleCode(m.role) | (priorityCode(m.priority) << 2) | (m.kind === "summary" ? SUMMARY : 0);

/**
 * A chat's messages in columns: no object per message but its text, or none at all with
 * `{ utf8: true }` (texts as UTF-8 off the JS heap, decoded when read: see texts.ts). Numbers
 * live in one buffer grown by doubling (off the JS heap), the rare optional fields (name,
 * tool calls, tool call id, content parts, covers) in a map. Append-only: a message, once in, never
 * changes, so readers may hold the columns while writers add to them.
 *
 *   per message: content (a string, or bytes) | parent i32 | tokens i32 | time u32 (in nums)
 *                code u8 = role (bits 0-1) | priority (bits 2-3) | summary (bit 4) | extras (bit 5)
 *   per block of 4096 messages: base f64 (the block's first createdAt)
 *
 * createdAt = base[id >> 12] + time[id]: appends come in time order, so an offset in ms fits
 * 32 bits; a time that does not (a clock set back, an imported fraction) is kept whole in a map.
 *
 * A server keeps thousands of chats open, and every full collection marks each of their
 * objects: the numbers share one ArrayBuffer (two views: the three i32 of each message side by
 * side, then the codes), the first block's base is a field, and the maps are made at their
 * first entry (most chats have no extras and no time that escapes).
 */
export class MessageColumns {
  #size = 0;
  readonly #texts: TextColumn;
  /** The first block's base; the next blocks' in `#bases` (block b at b - 1), made at the 4097th message. */
  #base0 = 0;
  #bases: Float64Array | null = null;
  #exactTimes: Map<number, number> | null = null;
  /** Per message, NUMS numbers: parent, tokens, time (a u32 kept as its i32 bits). */
  #nums = NO_NUMS;
  #codes = NO_CODES;
  #extras: Map<number, Readonly<ColumnExtras>> | null = null;
  #rewrites = 0;

  /**
   * `utf8`: keep texts as UTF-8 off the JS heap, decoded when read (default: strings); `texts`
   * (@internal): a column of one's own (a store's, which reads them when asked). @throws INVALID_ARGUMENT
   */
  constructor(options?: { utf8?: boolean; texts?: TextColumn }) {
    const o = checkOptions<{ utf8?: boolean; texts?: TextColumn }>(options, "new MessageColumns(options)", [
      "utf8",
      "texts",
    ]);
    if (o.utf8 !== undefined && typeof o.utf8 !== "boolean") {
      throw new CtxloomError("INVALID_ARGUMENT", `utf8 must be true or false; got ${describe(o.utf8)}.`);
    }
    this.#texts = o.texts ?? (o.utf8 ? new Utf8Texts() : new StringTexts());
  }

  /** The rare fields by message id (only messages that have some). */
  get extras(): ReadonlyMap<number, Readonly<ColumnExtras>> {
    return this.#extras ?? NO_EXTRAS;
  }

  /** True when texts are kept as UTF-8, here or in a store (which cannot hold a lone surrogate). */
  get utf8(): boolean {
    return !(this.#texts instanceof StringTexts);
  }

  /** The text of message `id`. */
  text(id: number): string {
    return this.#texts.get(id);
  }

  /** True when message `id`'s text is empty (no decoding). */
  isEmpty(id: number): boolean {
    return this.#texts.isEmpty(id);
  }

  get size(): number {
    return this.#size;
  }

  createdAt(id: number): number {
    const t = this.#nums[id * NUMS + TIME]! >>> 0;
    return t === ESCAPE ? this.#exactTimes!.get(id)! : this.#base(id >> BLOCK_SHIFT) + t;
  }

  #base(block: number): number {
    return block === 0 ? this.#base0 : this.#bases![block - 1]!;
  }

  #setCreatedAt(id: number, createdAt: number): void {
    const block = id >> BLOCK_SHIFT;
    if ((id & ((1 << BLOCK_SHIFT) - 1)) === 0) {
      if (block === 0) this.#base0 = createdAt;
      else {
        if (!this.#bases || block > this.#bases.length) {
          const bases = new Float64Array(Math.max(block, 2 * (this.#bases?.length ?? 0)));
          if (this.#bases) bases.set(this.#bases);
          this.#bases = bases;
        }
        this.#bases[block - 1] = createdAt;
      }
    }
    const base = this.#base(block);
    const offset = createdAt - base;
    if (Number.isInteger(offset) && offset >= 0 && offset < ESCAPE && Object.is(base + offset, createdAt)) {
      this.#nums[id * NUMS + TIME] = offset | 0;
    } else {
      this.#nums[id * NUMS + TIME] = ESCAPE | 0;
      (this.#exactTimes ??= new Map()).set(id, createdAt);
    }
  }

  /** Adds a message (its id must be `size`); copies everything, so the caller's object is not kept. */
  push(m: Message): void {
    this.#texts.push(m.content);
    let x: ColumnExtras | null = null;
    if (m.name !== undefined || m.toolCalls || m.toolCallId !== undefined || m.covers || m.parts) {
      x = {};
      if (m.name !== undefined) x.name = m.name;
      if (m.toolCalls) x.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
      if (m.toolCallId !== undefined) x.toolCallId = m.toolCallId;
      if (m.covers) x.covers = { ...m.covers };
      if (m.parts) x.parts = copyParts(m.parts, true);
    }
    this.#pushFields(m.parentId ?? -1, columnCode(m), m.tokens, m.createdAt, x);
  }

  /**
   * Adds a run of stored messages whose texts come as UTF-8, one after the other in `bytes`
   * (`lengths[i]` bytes each): how a store hands over a chunk of rows, with no object per
   * message. The caller has checked every value (integers in range, known codes) and that
   * the lengths add up to `bytes.length`. The extras objects are kept (frozen), not copied;
   * with `adopt` the bytes may be too (the caller never writes to them again).
   * @internal For a store's loader, which checks what it hands over.
   */
  pushRun(bytes: Uint8Array, lengths: ArrayLike<number>, run: ColumnRun, adopt = false): void {
    if (this.#texts instanceof Utf8Texts) this.#texts.pushRun(bytes, lengths, adopt);
    else {
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true }); // a leading U+FEFF is text, not a byte order mark
      for (let i = 0, at = 0; i < lengths.length; at += lengths[i++]!)
        this.#texts.push(decoder.decode(bytes.subarray(at, at + lengths[i]!)));
    }
    this.reserve(this.#size + lengths.length);
    for (let i = 0; i < lengths.length; i++)
      this.#pushFields(run.parents[i]!, run.codes[i]!, run.tokens[i]!, run.created[i]!, run.extras[i] ?? null);
  }

  /**
   * @internal Adds a run of stored messages whose texts its own column was given already (a store's, read when asked).
   */
  pushFieldsRun(run: ColumnRun): void {
    this.reserve(this.#size + run.parents.length);
    for (let i = 0; i < run.parents.length; i++)
      this.#pushFields(run.parents[i]!, run.codes[i]!, run.tokens[i]!, run.created[i]!, run.extras[i] ?? null);
  }

  #pushFields(parent: number, code: number, tokens: number, createdAt: number, x: ColumnExtras | null): void {
    const id = this.#size;
    if (id === this.#codes.length) this.#grow(Math.max(MIN_CAPACITY, id * 2));
    this.#setCreatedAt(id, createdAt);
    this.#nums[id * NUMS + PARENT] = parent;
    this.#nums[id * NUMS + TOKENS] = tokens;
    this.#codes[id] = x ? code | EXTRAS : code;
    if (x) {
      if (x.toolCalls) for (const c of x.toolCalls) Object.freeze(Object.freeze(c).function);
      if (x.toolCalls) Object.freeze(x.toolCalls);
      if (x.covers) Object.freeze(x.covers);
      if (x.parts) for (const part of Object.freeze(x.parts)) Object.freeze(part);
      (this.#extras ??= new Map()).set(id, Object.freeze(x));
    }
    this.#size = id + 1;
  }

  /**
   * Redacts message `id` (the one change a message ever gets): its text becomes `content`, its
   * content parts go, its tool calls become `toolCalls` when given, and its count `tokens`. The old text is dropped
   * (or its UTF-8 bytes overwritten with zeros).
   */
  rewrite(id: number, content: string, toolCalls: Message["toolCalls"] | undefined, tokens: number): void {
    this.#rewrites++;
    this.#texts.rewrite(id, content);
    this.#nums[id * NUMS + TOKENS] = tokens;
    const old = this.extrasOf(id);
    if (!old) return;
    const x: ColumnExtras = { ...old };
    delete x.parts;
    if (toolCalls)
      x.toolCalls = toolCalls.map((c) => Object.freeze({ ...c, function: Object.freeze({ ...c.function }) }));
    if (x.toolCalls) Object.freeze(x.toolCalls);
    if (Object.keys(x).length === 0) {
      this.#extras!.delete(id);
      this.#codes[id] = this.#codes[id]! & ~EXTRAS;
    } else this.#extras!.set(id, Object.freeze(x));
  }

  /** How many times a message was rewritten: what a reader made of them is stale when this moved. */
  get rewrites(): number {
    return this.#rewrites;
  }

  /** Room for `n` messages. */
  reserve(n: number): void {
    if (n > this.#codes.length) this.#grow(Math.max(n, MIN_CAPACITY, this.#codes.length * 2));
  }

  /** One buffer for `capacity` messages: their numbers, then their codes. */
  #grow(capacity: number): void {
    const buffer = new ArrayBuffer(capacity * (NUMS * 4 + 1));
    const nums = new Int32Array(buffer, 0, capacity * NUMS);
    const codes = new Uint8Array(buffer, capacity * NUMS * 4, capacity);
    nums.set(this.#nums.subarray(0, this.#size * NUMS));
    codes.set(this.#codes.subarray(0, this.#size));
    this.#nums = nums;
    this.#codes = codes;
  }

  /** The rare fields of message `id` (frozen), or undefined: most messages have none, and those pay no map lookup. */
  extrasOf(id: number): Readonly<ColumnExtras> | undefined {
    return this.#codes[id]! & EXTRAS ? this.#extras!.get(id) : undefined;
  }

  parentOf(id: number): number {
    return this.#nums[id * NUMS + PARENT]!;
  }

  tokensOf(id: number): number {
    return this.#nums[id * NUMS + TOKENS]!;
  }

  roleCodeOf(id: number): number {
    return this.#codes[id]! & 3;
  }

  priorityCodeOf(id: number): number {
    return (this.#codes[id]! >> 2) & 3;
  }

  kindOf(id: number): Message["kind"] {
    return this.#codes[id]! & SUMMARY ? "summary" : "message";
  }

  /** Message `id` as a new object (nothing shared with the columns but immutable strings). */
  message(id: number): Message {
    const code = this.#codes[id]!;
    const parent = this.#nums[id * NUMS + PARENT]!;
    const m: Message = {
      id,
      parentId: parent < 0 ? null : parent,
      role: ROLES[code & 3]!,
      content: this.#texts.get(id),
      priority: PRIORITIES[(code >> 2) & 3]!,
      tokens: this.#nums[id * NUMS + TOKENS]!,
      createdAt: this.createdAt(id),
      kind: code & SUMMARY ? "summary" : "message",
    };
    const x = this.extrasOf(id);
    if (x) {
      if (x.name !== undefined) m.name = x.name;
      if (x.toolCalls) m.toolCalls = x.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
      if (x.toolCallId !== undefined) m.toolCallId = x.toolCallId;
      if (x.covers) m.covers = { ...x.covers };
      if (x.parts) m.parts = copyParts(x.parts);
    }
    return m;
  }

  /** Messages `from` to `size - 1`, as new objects. */
  slice(from: number): Message[] {
    const out: Message[] = [];
    for (let id = Math.max(0, from); id < this.#size; id++) out.push(this.message(id));
    return out;
  }

  /** Bytes of the typed columns and of UTF-8 texts (off the JS heap). */
  get columnBytes(): number {
    return this.#texts.bytes + 8 + (this.#bases?.byteLength ?? 0) + this.#nums.byteLength + this.#codes.byteLength;
  }
}
