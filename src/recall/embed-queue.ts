import { CtxloomError } from "../errors.js";
import { embedTexts, type Embedder } from "./embedder.js";

/** A message waiting for its embedding. */
export interface EmbedItem {
  userId: string;
  chatId: string;
  id: number;
  /** Its key in the user's recall scope (a KeyMap key). */
  key: number;
  role: "user" | "assistant";
  content: string;
  /** The user's recall epoch when it was queued: a clear in between discards it. */
  epoch: number;
}

/** Counters of a Loom's embedding queue. */
export interface EmbedQueueStats {
  /** Messages embedded by this Loom (restored vectors not counted). */
  embedded: number;
  /** Messages waiting for their embedding. */
  pending: number;
  /** Embedder calls that failed (threw, or returned something unusable). */
  failures: number;
  /** Calls that were retries of a failed batch. */
  retries: number;
  /** The code and message of the last failure, or null. */
  lastError: string | null;
}

const idOf = (userId: string, chatId: string, id: number) => `${userId}\u0000${chatId}\u0000${id}`;

/** Texts per embedder call. */
export const EMBED_BATCH = 64;
const BACKOFF_MS = 50;
const BACKOFF_MAX_MS = 30_000;

/**
 * A Loom's background embedding queue: appends push messages here and never wait; batches
 * of up to EMBED_BATCH texts go to the embedder one call at a time. A failed batch (an
 * embedder that threw, answered badly, or not within its timeoutMs) stays queued and is
 * retried with exponential backoff (50 ms doubling to 30 s); `flush()` (a build that
 * recalls) tries at once. `deliver` receives each embedded batch. `close()` aborts the
 * embedder calls under way (those made with `signal`).
 */
export class EmbedQueue {
  readonly #embedder: Embedder;
  readonly #deliver: (items: EmbedItem[], vectors: Float32Array) => Promise<void>;
  /** Aborted by `close()`: embedder calls under way are given up at once. */
  readonly #stop = new AbortController();
  /** Queued items from `#head` on (those before it were embedded): taking a batch costs O(batch), not O(queue). */
  #pending: EmbedItem[] = [];
  #head = 0;
  /** Items dropped by `discard` (possibly while their batch was being embedded). */
  readonly #discarded = new WeakSet<EmbedItem>();
  /** The pending items' "user, chat, id", for O(1) `has`. */
  readonly #queued = new Set<string>();
  #running: Promise<boolean> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #failedInRow = 0;
  #closed = false;
  readonly #stats = { embedded: 0, failures: 0, retries: 0, lastError: null as string | null };

  constructor(embedder: Embedder, deliver: (items: EmbedItem[], vectors: Float32Array) => Promise<void>) {
    this.#embedder = embedder;
    this.#deliver = deliver;
  }

  /** Aborts when the queue closes: for the Loom's other embedder calls (queries). */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Queues messages; returns at once. */
  push(items: readonly EmbedItem[]): void {
    if (this.#closed || items.length === 0) return;
    for (const item of items) {
      this.#pending.push(item);
      this.#queued.add(idOf(item.userId, item.chatId, item.id));
    }
    this.#schedule(this.#failedInRow === 0 ? 0 : this.#backoff());
  }

  /** Whether a message is queued (or being embedded). */
  has(userId: string, chatId: string, id: number): boolean {
    return this.#queued.has(idOf(userId, chatId, id));
  }

  /** Drops the queued messages `drop` selects (a deleted chat, a cleared memory). */
  discard(drop: (item: EmbedItem) => boolean): void {
    this.#pending = this.#pending.slice(this.#head).filter((item) => {
      if (!drop(item)) return true;
      this.#queued.delete(idOf(item.userId, item.chatId, item.id));
      this.#discarded.add(item);
      return false;
    });
    this.#head = 0;
  }

  /** Pending messages of a user (and chat). */
  pendingOf(userId: string, chatId?: string): number {
    let n = 0;
    for (let i = this.#head; i < this.#pending.length; i++) {
      const item = this.#pending[i]!;
      if (item.userId === userId && (chatId === undefined || item.chatId === chatId)) n++;
    }
    return n;
  }

  get #size(): number {
    return this.#pending.length - this.#head;
  }

  stats(): EmbedQueueStats {
    return { ...this.#stats, pending: this.#size };
  }

  /**
   * Embeds what is queued now, batch after batch, without waiting for a backoff. Stops at
   * the first failure (counted; the messages stay queued for the next retry): recall then
   * covers what is embedded. Waits for a batch already under way. Ends in bounded time
   * whatever the embedder does: each call is given up after the embedder's timeoutMs.
   */
  async flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (!this.#closed) {
      if (this.#running) await this.#running;
      if (this.#size === 0) return;
      if (!(await this.#run())) return;
    }
  }

  /** Stops: timers are cleared and nothing more is embedded; a call under way is aborted, not awaited. */
  close(): void {
    this.#closed = true;
    this.#stop.abort(
      new CtxloomError(
        "LOOM_CLOSED",
        "The Loom was closed while an embedding was under way; open a new one with Loom.open().",
      ),
    );
    this.#pending = [];
    this.#head = 0;
    this.#queued.clear();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #backoff(): number {
    return Math.min(BACKOFF_MAX_MS, BACKOFF_MS * 2 ** Math.min(this.#failedInRow - 1, 20));
  }

  #schedule(delay: number): void {
    if (this.#closed || this.#running || this.#timer !== null || this.#size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#run();
    }, delay);
    // A retrying queue must not keep a Node process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** One batch (single flight). Resolves true when it was embedded. */
  #run(): Promise<boolean> {
    if (this.#running) return this.#running;
    const running = this.#batch().finally(() => {
      this.#running = null;
      this.#schedule(this.#failedInRow === 0 ? 0 : this.#backoff());
    });
    this.#running = running;
    return running;
  }

  async #batch(): Promise<boolean> {
    const batch = this.#pending.slice(this.#head, this.#head + EMBED_BATCH);
    if (batch.length === 0) return true;
    if (this.#failedInRow > 0) this.#stats.retries++;
    let vectors: Float32Array;
    try {
      vectors = await embedTexts(
        this.#embedder,
        batch.map((item) => item.content),
        this.#stop.signal,
      );
    } catch (error) {
      if (this.#closed) return false; // aborted by the close: not the embedder's failure
      this.#failedInRow++;
      this.#stats.failures++;
      const e = error as CtxloomError;
      this.#stats.lastError = `${e.code ?? "ERROR"}: ${e.message}`;
      return false;
    }
    this.#failedInRow = 0;
    if (this.#closed) return true;
    // Items discarded meanwhile (a delete, a clear) are not in the queue any more; what a
    // discard left of the batch is still at the front of the queue, in order.
    const kept = batch.filter((item) => !this.#discarded.has(item));
    this.#head += kept.length;
    if (this.#head > 4096 && this.#head * 2 > this.#pending.length) {
      this.#pending = this.#pending.slice(this.#head);
      this.#head = 0;
    }
    for (const item of kept) this.#queued.delete(idOf(item.userId, item.chatId, item.id));
    if (kept.length === 0) return true;
    const dim = this.#embedder.dimension;
    const rows = new Float32Array(kept.length * dim);
    batch.forEach((item, i) => {
      const at = kept.indexOf(item);
      if (at >= 0) rows.set(vectors.subarray(i * dim, (i + 1) * dim), at * dim);
    });
    this.#stats.embedded += kept.length;
    try {
      await this.#deliver(kept, rows);
    } catch (error) {
      const e = error as CtxloomError;
      this.#stats.lastError = `${e.code ?? "ERROR"}: ${e.message}`;
    }
    return true;
  }
}
