/**
 * Runs changes one at a time, in call order: each starts when the one before it settled,
 * whether it succeeded or not.
 *
 * An idle queue holds no promise, only a count: a chat's queue lives as long as the chat (in
 * the collector's old space), and a promise kept there from one change to the next would be
 * promoted with each change and cost every minor collection a pointer to follow.
 */
export class SerialQueue {
  #tail: Promise<void> | null = null;
  #pending = 0;
  readonly #settled = (): void => {
    if (--this.#pending === 0) this.#tail = null;
  };

  /** Queues `change`; its promise settles as the change does. */
  enqueue<T>(change: () => T | Promise<T>): Promise<T> {
    const next = (this.#tail ?? RESOLVED).then(change);
    // The tail settles as the change does but holds no value (a chat's last result, a whole
    // context, would otherwise live as long as the chat).
    this.#tail = next.then(this.#settled, this.#settled);
    this.#pending++;
    return next;
  }
}

const RESOLVED = Promise.resolve();
