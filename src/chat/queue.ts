/**
 * Runs changes one at a time, in call order: each starts when the one before it settled,
 * whether it succeeded or not.
 *
 * An idle queue holds no promise, only a count: a chat's queue lives as long as the chat (in
 * the collector's old space), and a promise kept there from one change to the next would be
 * promoted with each change and cost every minor collection a pointer to follow.
 *
 * A change that answers at once (an append or a build on the memory store) costs one promise
 * and one microtask before its caller's: it is counted done as it returns, with no promise
 * chained to learn it. A change that returns a promise is counted done when the promise
 * returned for it settles.
 */
export class SerialQueue {
  /** The last change's promise (it may reject: the next change runs on either outcome). */
  #tail: Promise<unknown> | null = null;
  #pending = 0;
  readonly #settled = (): void => {
    if (--this.#pending === 0) this.#tail = null;
  };

  /**
   * Queues `change`; its promise settles as the change does. With `waking`, the change runs once
   * `waking.wake()` settles when `waking` is not awake as the change's turn comes (a chat that slept:
   * no closure more per change for the usual one, awake).
   */
  enqueue<T>(change: () => T | Promise<T>, waking?: Waking): Promise<T> {
    const tail = this.#tail;
    let next: Promise<T>;
    if (tail === null) {
      // An idle queue (the usual case: a request's calls are awaited one by one): the change waits
      // in `starting` for its microtask, run by the one function every queue shares.
      const at = startEnd;
      starting[at] = this;
      starting[at + 1] = change;
      starting[at + 2] = waking;
      next = RESOLVED.then(SerialQueue.#runStarting) as Promise<T>;
      starting[at + 3] = next;
      startEnd = at + 4;
    } else {
      const run = (): T | Promise<T> => this.#run(change, waking, next);
      next = tail.then(run, run);
    }
    this.#tail = next;
    this.#pending++;
    return next;
  }

  #run<T>(change: () => T | Promise<T>, waking: Waking | undefined, next: Promise<T>): T | Promise<T> {
    let result: T | Promise<T>;
    try {
      result = waking === undefined || waking.awake ? change() : waking.wake().then(change);
    } catch (error) {
      this.#settled();
      throw error;
    }
    if (result !== null && typeof (result as { then?: unknown } | undefined)?.then === "function") {
      // The change goes on: done once the promise returned (which adopts the change's) settles.
      next.then(this.#settled, this.#settled);
    } else this.#settled();
    return result;
  }

  /**
   * Runs the oldest change of `starting`. Reactions to a settled promise run in the order they
   * were registered, so each call meets the change its `then` was made for.
   */
  static readonly #runStarting = (): unknown => {
    const at = startAt;
    const queue = starting[at] as SerialQueue;
    const change = starting[at + 1] as () => unknown;
    const waking = starting[at + 2] as Waking | undefined;
    const next = starting[at + 3] as Promise<unknown>;
    starting[at] = starting[at + 1] = starting[at + 2] = starting[at + 3] = undefined; // (held no longer)
    // Every change queued has run: the next starts at 0 again (the array keeps its size).
    if (at + 4 === startEnd) {
      startAt = startEnd = 0;
      if (starting.length > 4_096) starting.length = 0; // (after a burst: its room is not kept)
    } else startAt = at + 4;
    return queue.#run(change, waking, next);
  };
}

/** The changes queued on idle queues, waiting for their microtask: queue, change, waking, promise, 4 slots each. */
const starting: unknown[] = [];
/** Where the oldest change of `starting` begins, and where the next one goes. */
let startAt = 0;
let startEnd = 0;

const RESOLVED = Promise.resolve();

/** What a change may need awake before it runs (see SerialQueue.enqueue). */
export interface Waking {
  readonly awake: boolean;
  wake(): Promise<void>;
}
