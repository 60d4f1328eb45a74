// The generator's seeded randomness (mulberry32, as the rest of the bench and tests use).
import { rng } from "../eval-set.js";

export class Rand {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = rng(seed);
  }
  /** A float in [0, 1). */
  float(): number {
    return this.#next();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }
}
