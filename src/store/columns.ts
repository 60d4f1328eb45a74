import {
  PRIORITIES, ROLES, priorityCode, roleCode, type Message, type MessageExtras,
} from "../message.js";
import { copyParts } from "../parts.js";

/** The rare fields of a message, frozen. */
export interface ColumnExtras extends MessageExtras {
  covers?: { first: number; last: number };
}

const SUMMARY = 16;
/** Messages per block of creation times: each block keeps its first time whole, the others as offsets from it. */
const BLOCK_SHIFT = 12;
/** An offset that does not fit (not a whole number of ms from 0 to 2^32 - 2): the time is in a map. */
const ESCAPE = 0xffffffff;

/**
 * A chat's messages in columns: no object per message but its text. Numbers live in typed
 * arrays grown by doubling (off the JS heap), texts in one array, the rare optional fields
 * (name, tool calls, tool call id, content parts, covers) in a map. Append-only: a message, once in, never
 * changes, so readers may hold the columns while writers add to them.
 *
 *   per message: content (a string reference) | time u32 | parent i32 | tokens i32 |
 *                code u8 = role (bits 0-1) | priority (bits 2-3) | summary (bit 4)
 *   per block of 4096 messages: base f64 (the block's first createdAt)
 *
 * createdAt = base[id >> 12] + time[id]: appends come in time order, so an offset in ms fits
 * 32 bits; a time that does not (a clock set back, an imported fraction) is kept whole in a map.
 */
export class MessageColumns {
  #size = 0;
  readonly content: string[] = [];
  #bases = new Float64Array(1);
  #times = new Uint32Array(8);
  readonly #exactTimes = new Map<number, number>();
  #parent = new Int32Array(8);
  #tokens = new Int32Array(8);
  #codes = new Uint8Array(8);
  readonly extras = new Map<number, Readonly<ColumnExtras>>();

  get size(): number {
    return this.#size;
  }

  createdAt(id: number): number {
    const t = this.#times[id]!;
    return t === ESCAPE ? this.#exactTimes.get(id)! : this.#bases[id >> BLOCK_SHIFT]! + t;
  }

  #setCreatedAt(id: number, createdAt: number): void {
    const block = id >> BLOCK_SHIFT;
    if (block >= this.#bases.length) {
      const bases = new Float64Array(this.#bases.length * 2);
      bases.set(this.#bases);
      this.#bases = bases;
    }
    if ((id & ((1 << BLOCK_SHIFT) - 1)) === 0) this.#bases[block] = createdAt;
    const offset = createdAt - this.#bases[block]!;
    if (Number.isInteger(offset) && offset >= 0 && offset < ESCAPE && Object.is(this.#bases[block]! + offset, createdAt)) {
      this.#times[id] = offset;
    } else {
      this.#times[id] = ESCAPE;
      this.#exactTimes.set(id, createdAt);
    }
  }

  /** Adds a message (its id must be `size`); copies everything, so the caller's object is not kept. */
  push(m: Message): void {
    const id = this.#size;
    if (id === this.#parent.length) this.#grow(id * 2);
    this.content.push(m.content);
    this.#setCreatedAt(id, m.createdAt);
    this.#parent[id] = m.parentId ?? -1;
    this.#tokens[id] = m.tokens;
    this.#codes[id] = roleCode(m.role) | (priorityCode(m.priority) << 2) | (m.kind === "summary" ? SUMMARY : 0);
    if (m.name !== undefined || m.toolCalls || m.toolCallId !== undefined || m.covers || m.parts) {
      const x: ColumnExtras = {};
      if (m.name !== undefined) x.name = m.name;
      if (m.toolCalls) x.toolCalls = m.toolCalls.map((c) => Object.freeze({ ...c, function: Object.freeze({ ...c.function }) }));
      if (m.toolCallId !== undefined) x.toolCallId = m.toolCallId;
      if (m.covers) x.covers = Object.freeze({ ...m.covers });
      if (m.parts) x.parts = copyParts(m.parts, true);
      this.extras.set(id, Object.freeze(x));
    }
    this.#size = id + 1;
  }

  /** Room for `n` messages. */
  reserve(n: number): void {
    if (n > this.#parent.length) this.#grow(Math.max(n, this.#parent.length * 2));
  }

  #grow(capacity: number): void {
    const grow = <T extends Uint32Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a);
      return b;
    };
    this.#times = grow(this.#times, (n) => new Uint32Array(n));
    this.#parent = grow(this.#parent, (n) => new Int32Array(n));
    this.#tokens = grow(this.#tokens, (n) => new Int32Array(n));
    this.#codes = grow(this.#codes, (n) => new Uint8Array(n));
  }

  /** Message `id` as a new object (nothing shared with the columns but immutable strings). */
  message(id: number): Message {
    const code = this.#codes[id]!;
    const parent = this.#parent[id]!;
    const m: Message = {
      id,
      parentId: parent < 0 ? null : parent,
      role: ROLES[code & 3]!,
      content: this.content[id]!,
      priority: PRIORITIES[(code >> 2) & 3]!,
      tokens: this.#tokens[id]!,
      createdAt: this.createdAt(id),
      kind: code & SUMMARY ? "summary" : "message",
    };
    const x = this.extras.get(id);
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

  /** Bytes of the typed columns (off the JS heap). */
  get columnBytes(): number {
    return this.#bases.byteLength + this.#times.byteLength + this.#parent.byteLength + this.#tokens.byteLength + this.#codes.byteLength;
  }
}
