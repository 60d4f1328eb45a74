/**
 * Runs changes one at a time, in call order: each starts when the one before it settled,
 * whether it succeeded or not.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `change`; its promise settles as the change does. */
  enqueue<T>(change: () => T | Promise<T>): Promise<T> {
    const next = this.#tail.then(change);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves when every change queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
