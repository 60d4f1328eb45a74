/**
 * Runs changes one at a time, in call order: each starts when the one before it settled,
 * whether it succeeded or not.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `change`; its promise settles as the change does. */
  enqueue<T>(change: () => T | Promise<T>): Promise<T> {
    const next = this.#tail.then(change);
    // The tail settles as the change does but holds no value: a chat's last result (a whole
    // context) would otherwise live until its next change, long enough to reach the old space.
    this.#tail = next.then(settled, settled);
    return next;
  }

  /** Resolves when every change queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

const settled = (): void => {};
