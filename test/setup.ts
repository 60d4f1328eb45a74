// Every test file: fast-check draws from one seed, picked at random or given as CTXLOOM_SEED,
// and a failing test prints it, so that CTXLOOM_SEED=<seed> npx vitest run <file> replays the
// run (a property's own { seed } still wins; test/seeded.ts serves randomness outside fast-check).
import fc from "fast-check";
import { beforeEach } from "vitest";
import { pickSeed } from "./seeded.js";

const seed = pickSeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`fast-check seed ${seed} (replay with CTXLOOM_SEED=${seed})`));
});
