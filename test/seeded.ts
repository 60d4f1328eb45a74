// Seeded randomness for tests: each run picks a seed and prints it; CTXLOOM_SEED=<seed> replays it.

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: CTXLOOM_SEED when given, else one picked at random (31 bits). */
export function pickSeed(): number {
  const given = process.env.CTXLOOM_SEED;
  return given !== undefined && given !== "" ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 31);
}

/** A generator for `what`, seeded from CTXLOOM_SEED or at random; the seed is printed so that a failure can be replayed. */
export function seeded(what: string): { seed: number; random: () => number } {
  const seed = pickSeed();
  console.log(`${what}: seed ${seed} (replay with CTXLOOM_SEED=${seed})`);
  return { seed, random: mulberry32(seed) };
}
