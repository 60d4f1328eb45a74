import type { OpenAIMessage } from "../context/format.js";
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
 * Stale once the columns rewrite a message (a redaction), or when the chat reads other columns.
 */
export class SentCache {
  #ids: Int32Array | null = null;
  #out: readonly (OpenAIMessage | null)[] = [];
  #from: MessageColumns | null = null;
  #rewrites = 0;

  /**
   * Writes `ids` (a long context: SHARED_FROM or more) as `make` sends them into `into` from
   * index `at` (null for a summary, which the caller presents), reusing the last long context's
   * objects; returns how many are null. O(ids).
   */
  send(ids: Int32Array, columns: MessageColumns, make: (id: number) => OpenAIMessage | null, into: (OpenAIMessage | null)[], at: number): number {
    const n = ids.length;
    let nulls = 0;
    const prev = this.#from === columns && this.#rewrites === columns.rewrites ? this.#ids : null;
    const prevOut = this.#out;
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
    this.#ids = ids;
    this.#out = into.slice(at, at + n); // (a copy: the caller's array is the caller's)
    this.#from = columns;
    this.#rewrites = columns.rewrites;
    return nulls;
  }
}

/** `value` frozen, with every object and array it holds (a message's parts and tool calls). */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) if (v !== null && typeof v === "object") frozen(v);
    Object.freeze(value);
  }
  return value;
}
