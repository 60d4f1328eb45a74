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

  /** Queues `change`; its promise settles as the change does. */
  enqueue<T>(change: () => T | Promise<T>): Promise<T> {
    const run = (): T | Promise<T> => {
      let result: T | Promise<T>;
      try {
        result = change();
      } catch (error) {
        this.#settled();
        throw error;
      }
      if (result !== null && typeof (result as { then?: unknown } | undefined)?.then === "function") {
        // The change goes on: done once the promise returned (which adopts the change's) settles.
        next.then(this.#settled, this.#settled);
      } else this.#settled();
      return result;
    };
    const tail = this.#tail;
    const next = tail === null ? RESOLVED.then(run) : tail.then(run, run);
    this.#tail = next;
    this.#pending++;
    return next;
  }
}

const RESOLVED = Promise.resolve();
