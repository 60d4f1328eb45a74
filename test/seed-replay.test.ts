// A fast-check run replays from the seed a failing test prints: CTXLOOM_SEED fixes what every
// property of a file draws (test/setup.ts).
import fc from "fast-check";
import { expect, test } from "vitest";

test("every fast-check property draws from the file's seed (CTXLOOM_SEED when given): two runs, the same values", () => {
  const { seed } = fc.readConfigureGlobal();
  expect(Number.isInteger(seed)).toBe(true);
  if (process.env.CTXLOOM_SEED) expect(seed).toBe(Number(process.env.CTXLOOM_SEED) >>> 0);
  const run = () => {
    const drawn: number[] = [];
    fc.assert(
      fc.property(fc.integer(), (n) => void drawn.push(n)),
      { numRuns: 20 },
    );
    return drawn;
  };
  expect(run()).toEqual(run());
});
