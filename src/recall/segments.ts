// Segments of a conversation for the lexical channel: runs of consecutive messages that the
// index also scores as one document (a session's words say what it is about; its turns gain
// from that). A message continues the segment of the message before it, unless there is none,
// it was written after a long pause (a new session, where messages carry their times), or
// that segment holds `block` messages already (fixed blocks, where they do not: messages
// appended in one go carry no pauses).

export interface SegmentOptions {
  /** A pause longer than this (ms) starts a new segment (default 30 minutes). */
  gapMs?: number;
  /** Most messages in a segment (default 8; 64 once a pause has been seen: then segments are sessions). */
  block?: number;
}

export const SEGMENT_DEFAULTS = { gapMs: 30 * 60_000, block: 8 } as const;
/** Once a pause has shown that messages carry their times, a segment (a session) may hold this many blocks. */
const SESSION_BLOCKS = 8;

/** Assigns segments to a scope's messages as they are indexed (parents first). */
export class Segments {
  readonly #gap: number;
  readonly #block: number;
  /** Per key: its segment + 1 (0: none). */
  #of = new Int32Array(0);
  readonly #members: number[] = [];
  /** Per segment: the newest time of its messages (NaN: none known). */
  readonly #last: number[] = [];
  /** Whether a pause has started a segment: messages carry their times. */
  #sessions = false;

  constructor(options?: SegmentOptions) {
    this.#gap = options?.gapMs ?? SEGMENT_DEFAULTS.gapMs;
    this.#block = options?.block ?? SEGMENT_DEFAULTS.block;
  }

  /** The segment of message `key`, after `prev` (-1: none), written at `time` (undefined: unknown). */
  place(key: number, prev: number, time: number | undefined): number {
    const t = time !== undefined && Number.isFinite(time) ? time : NaN;
    let s = prev >= 0 && prev < this.#of.length ? this.#of[prev]! - 1 : -1;
    if (s >= 0 && t - this.#last[s]! > this.#gap) {
      this.#sessions = true;
      s = -1;
    }
    if (s >= 0 && this.#members[s]! >= (this.#sessions ? SESSION_BLOCKS * this.#block : this.#block)) s = -1;
    if (s < 0) {
      s = this.#members.length;
      this.#members.push(0);
      this.#last.push(NaN);
    }
    this.#members[s]!++;
    if (!(this.#last[s]! >= t)) this.#last[s] = Number.isNaN(t) ? this.#last[s]! : t;
    if (key >= this.#of.length) {
      const grown = new Int32Array(Math.max(1024, 2 ** Math.ceil(Math.log2(key + 1))));
      grown.set(this.#of);
      this.#of = grown;
    }
    this.#of[key] = s + 1;
    return s;
  }
}
