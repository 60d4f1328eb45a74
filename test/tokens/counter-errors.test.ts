// Counters may be the user's own: whatever one throws reaches the caller as a CtxloomError
// (INVALID_ARGUMENT naming the counter), never as the counter's own TypeError.
import { describe, expect, it } from "vitest";
import { truncateToTokens } from "../../src/context/truncate.js";
import { Loom, countTokens, type TokenCounter } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

const broken = (what: "count" | "fit" | "atLeast", past = 0): TokenCounter => ({
  name: `broken-${what}`,
  exact: false,
  count: (t) => (what === "count" && t.length >= past ? (null as unknown as { x: number }).x : Math.ceil(t.length / 4)),
  ...(what === "fit"
    ? {
        fit: () => {
          throw new TypeError("boom");
        },
      }
    : {}),
  ...(what === "atLeast"
    ? {
        atLeast: (t: string) => {
          if (t.length >= past) throw new RangeError("boom");
          return 0;
        },
      }
    : {}),
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
    it("create refuses one that throws on the texts it is tried on; append and buildContext reject with INVALID_ARGUMENT and change nothing", async () => {
      const loom = await Loom.open({ engine });
      for (const what of ["count", "atLeast"] as const) {
        const model = {
          name: `own-${what}`,
          contextWindow: 1_000,
          sizeClass: "tiny" as const,
          tokensPerChar: 0.25,
          counter: broken(what),
        };
        await expectRejectCode(() => loom.user("u").create({ model }), "INVALID_ARGUMENT");
      }
      expect(await loom.user("u").list()).toEqual([]);
      // Broken only on texts longer than those: found where such a text is counted.
      const bad = await loom.user("u").create({
        model: {
          name: "own-count",
          contextWindow: 1_000,
          sizeClass: "tiny",
          tokensPerChar: 0.25,
          counter: broken("count", 40),
        },
      });
      await expectRejectCode(
        () => bad.append({ role: "user", content: "a message longer than the texts a counter is tried on" }),
        "INVALID_ARGUMENT",
      );
      expect(bad.messageCount).toBe(0);
      const fit = await loom.user("u").create({
        model: {
          name: "own-fit",
          contextWindow: 1_000,
          sizeClass: "tiny",
          tokensPerChar: 0.25,
          counter: broken("fit"),
        },
      });
      await fit.append({ role: "user", content: "hi" });
      await expectRejectCode(() => fit.buildContext({ system: "x".repeat(5_000) }), "INVALID_ARGUMENT");
      const least = await loom.user("u").create({
        model: {
          name: "own-least",
          contextWindow: 1_000,
          sizeClass: "tiny",
          tokensPerChar: 0.25,
          counter: broken("atLeast", 40),
        },
      });
      await least.append({ role: "user", content: "hi" });
      await expectRejectCode(
        () => least.buildContext({ input: "an input longer than the texts a counter is tried on" }),
        "INVALID_ARGUMENT",
      );
      await loom.close();
    });
  });
});
