// Counters may be the user's own: whatever one throws reaches the caller as a CtxloomError
// (INVALID_ARGUMENT naming the counter), never as the counter's own TypeError.
import { describe, expect, it } from "vitest";
import { truncateToTokens } from "../../src/context/truncate.js";
import { Loom, countTokens, type TokenCounter } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

const broken = (what: "count" | "fit" | "atLeast"): TokenCounter => ({
  name: `broken-${what}`,
  exact: false,
  count: (t) => (what === "count" ? (null as unknown as { x: number }).x : Math.ceil(t.length / 4)),
  ...(what === "fit" ? { fit: () => { throw new TypeError("boom"); } } : {}),
  ...(what === "atLeast" ? { atLeast: () => { throw new RangeError("boom"); } } : {}),
});

describe("a counter that throws", () => {
  it("truncation and counting wrap it", () => {
    expectThrowCode(() => truncateToTokens("some text to cut", 2, broken("count")), "INVALID_ARGUMENT");
    expectThrowCode(() => truncateToTokens("some text to cut", 2, broken("fit")), "INVALID_ARGUMENT");
    const model = { name: "own", contextWindow: 1_000, counter: broken("count") };
    expectThrowCode(() => countTokens([{ role: "user", content: "hi" }], { model }), "INVALID_ARGUMENT");
    let message = "";
    try {
      countTokens([{ role: "user", content: "hi" }], { model });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("broken-count");
  });
});

forEachEngine((engine) => {
  describe("a counter that throws, in a chat", () => {
    it("append and buildContext reject with INVALID_ARGUMENT and change nothing", async () => {
      const loom = await Loom.open({ engine });
      const bad = await loom.user("u").create({ model: { name: "own-count", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25, counter: broken("count") } });
      await expectRejectCode(() => bad.append({ role: "user", content: "hi" }), "INVALID_ARGUMENT");
      expect(bad.messageCount).toBe(0);
      const fit = await loom.user("u").create({ model: { name: "own-fit", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25, counter: broken("fit") } });
      await fit.append({ role: "user", content: "hi" });
      await expectRejectCode(() => fit.buildContext({ system: "x".repeat(5_000) }), "INVALID_ARGUMENT");
      const least = await loom.user("u").create({ model: { name: "own-least", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25, counter: broken("atLeast") } });
      await least.append({ role: "user", content: "hi" });
      await expectRejectCode(() => least.buildContext({ input: "more" }), "INVALID_ARGUMENT");
      await loom.close();
    });
  });
});
