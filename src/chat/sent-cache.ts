import { toOpenAI, type OpenAIMessage } from "../context/format.js";
import { ROLES } from "../message.js";
import type { MessageColumns } from "../store/columns.js";

/** Contexts of at least this many messages share their objects with the chat's next context. */
export const SHARED_FROM = 256;
/** Mismatches a context may have against the previous one before the rest is made anew. */
const RESYNCS = 8;

/**
 * What a chat's last long context sent, to send it again. A request's context repeats most of
 * the previous one (the window slides by a turn), and making an object per message sent is
 * most of what a long build costs: a context of SHARED_FROM messages or more hands out the
 * previous one's objects for the messages both send, frozen, so that no caller's change
 * reaches another context. Shorter ones are the chat's to make anew (ChatNodes.sendable): they
 * keep nothing alive between requests (a server's thousands of short chats hold no cache).
 *
 * A context that sends a run of the chat's path (every message from its first to its last, no
 * summary: the usual one) is kept by its ends, and the next run that reaches the same last
 * message takes the objects both send in one copy, with no id compared (sendRun). Others are
 * matched id by id (send).
 *
 * Stale once the columns rewrite a message (a redaction), or when the chat reads other columns.
 */
export class SentCache {
  /** The last context's ids, when they were no run; null when they were one (or none was sent). */
  #ids: Int32Array | null = null;
  /** When the last context was a run: its last message and its length (-1: it was none). */
  #last = -1;
  #count = 0;
  #out: readonly (OpenAIMessage | null)[] = [];
  #from: MessageColumns | null = null;
  #rewrites = 0;

  /**
   * Writes `ids` (a long context: SHARED_FROM or more; maybe a view the engine reuses) as
   * `make` sends them into `into` from index `at` (null for a summary, which the caller
   * presents), reusing the last long context's objects; returns how many are null. O(ids).
   */
  send(
    ids: Int32Array,
    columns: MessageColumns,
    make: (id: number) => OpenAIMessage | null,
    into: (OpenAIMessage | null)[],
    at: number,
  ): number {
    const n = ids.length;
    const nulls = matched(ids, this.#prevIds(columns), this.#out, make, into, at);
    // (copies: the ids may be the engine's, the array is the caller's)
    this.#kept(columns, ids.slice(), -1, 0, into.slice(at, at + n));
    return nulls;
  }

  /**
   * The messages of `ids`, a run of the chat's path (see ChatNodes.isRun) of SHARED_FROM or more,
   * as `make` sends them, sharing the last long context's objects: when the last one was a run
   * that `ids` reach the end of, those it sent of `ids` come in one copy. The array is kept
   * here: the caller copies it (it never goes out as is). O(ids) at worst; O(1) per message
   * shared, in a copy.
   */
  sendRun(
    ids: Int32Array,
    columns: MessageColumns,
    make: (id: number) => OpenAIMessage | null,
  ): readonly OpenAIMessage[] {
    const n = ids.length;
    const valid = this.#from === columns && this.#rewrites === columns.rewrites;
    // Where the last run ends in this one: ids up to there are its newest, on the same path.
    const j = valid && this.#last >= 0 ? ids.lastIndexOf(this.#last) : -1;
    let out: (OpenAIMessage | null)[];
    if (j === n - 1 && this.#count === n) {
      return this.#out as OpenAIMessage[]; // the same run again (a build repeated): the same array
    } else if (j >= 0) {
      const shared = Math.min(j + 1, this.#count);
      out = this.#out.slice(this.#count - shared, this.#count);
      if (shared < j + 1) {
        // This run starts before the last one did: its oldest messages are made.
        const older: OpenAIMessage[] = [];
        for (let k = 0; k < j + 1 - shared; k++) older.push(frozen(make(ids[k]!))!);
        out = older.concat(out as OpenAIMessage[]);
      }
      for (let k = j + 1; k < n; k++) out.push(frozen(make(ids[k]!)));
    } else {
      out = []; // (filled in order: a packed array, which the next runs copy fastest)
      matched(ids, this.#prevIds(columns), this.#out, make, out, 0);
    }
    this.#kept(columns, null, ids[n - 1]!, n, out);
    return out as OpenAIMessage[];
  }

  #kept(
    columns: MessageColumns,
    ids: Int32Array | null,
    last: number,
    count: number,
    out: readonly (OpenAIMessage | null)[],
  ): void {
    this.#ids = ids;
    this.#last = last;
    this.#count = count;
    this.#out = out;
    this.#from = columns;
    this.#rewrites = columns.rewrites;
  }

  /** The last context's ids when they still read what `columns` hold; else null. */
  #prevIds(columns: MessageColumns): Int32Array | null {
    if (this.#from !== columns || this.#rewrites !== columns.rewrites) return null;
    return this.#ids ?? (this.#last >= 0 ? runIds(columns, this.#last, this.#count) : null);
  }
}

/**
 * Writes `ids` into `into` from `at`: the previous context's object where it sent the same
 * message (`prev`, `prevOut`), else `make`'s, frozen. Returns how many are null (summaries).
 */
function matched(
  ids: Int32Array,
  prev: Int32Array | null,
  prevOut: readonly (OpenAIMessage | null)[],
  make: (id: number) => OpenAIMessage | null,
  into: (OpenAIMessage | null)[],
  at: number,
): number {
  const n = ids.length;
  let nulls = 0;
  // Both lists are in path order: walk them together, and look a message up again (a few
  // times at most) where the path changed (a message dropped or kept between the two).
  let j = prev === null ? -1 : prev.indexOf(ids[0]!);
  let resyncs = 0;
  for (let k = 0; k < n; k++) {
    const id = ids[k]!;
    let m: OpenAIMessage | null;
    if (j >= 0 && prev![j] === id) m = prevOut[j++]!;
    else {
      if (j >= 0) j = resyncs++ < RESYNCS ? prev!.indexOf(id, j) : -1;
      m = j >= 0 ? prevOut[j++]! : frozen(make(id));
    }
    if (m === null) nulls++;
    into[at + k] = m;
  }
  return nulls;
}

/**
 * Message `id` as the OpenAI format sends it, read from the columns alone (no engine call, no Message made); null for a
 * summary.
 */
export function sendableOf(cols: MessageColumns, id: number): OpenAIMessage | null {
  if (cols.kindOf(id) === "summary") return null;
  const role = ROLES[cols.roleCodeOf(id)]!;
  const content = cols.text(id);
  const x = cols.extrasOf(id);
  if (!x) return { role, content } as OpenAIMessage;
  return toOpenAI({ role, content, name: x.name, toolCalls: x.toolCalls, toolCallId: x.toolCallId, parts: x.parts });
}

/** The `count` messages of the path ending at `last`, oldest first, read from the columns' parents. */
export function runIds(columns: MessageColumns, last: number, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let k = count - 1, id = last; k >= 0; k--, id = columns.parentOf(id)) out[k] = id;
  return out;
}

/** `value` frozen, with every object and array it holds (a message's parts and tool calls). */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) if (v !== null && typeof v === "object") frozen(v);
    Object.freeze(value);
  }
  return value;
}
