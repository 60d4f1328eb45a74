// docs/tokens.md has its runnable example (a ```ts block followed by the ```text it prints):
// asking the provider for a count. test/docs/examples.test.ts type-checks and runs it, and fails
// when it does not print what the page shows.
import { expect, test } from "vitest";
import { blocksOf } from "../docs/blocks.js";

test("the page has its runnable examples", () => {
  const examples = blocksOf("docs/tokens.md").filter((b) => b.output !== undefined);
  expect(examples.filter((e) => e.code.includes("providerCounter"))).toHaveLength(1);
});
