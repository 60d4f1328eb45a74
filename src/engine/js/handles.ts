// Handle tables of the JS engine, as assembly/alloc.ts's: values by small integer handle.

/** Values by small integer handle; a dropped handle is handed out again (newest dropped first, as the core does). */
export class Handles<T> {
  readonly #values: (T | null)[] = [];
  readonly #free: number[] = [];

  add(value: T): number {
    const handle = this.#free.pop();
    if (handle === undefined) return this.#values.push(value) - 1;
    this.#values[handle] = value;
    return handle;
  }

  get(handle: number): T {
    return this.#values[handle]!;
  }

  drop(handle: number): void {
    this.#values[handle] = null;
    this.#free.push(handle);
  }

  /** The live values. */
  values(): T[] {
    return this.#values.filter((v): v is T => v !== null);
  }
}
