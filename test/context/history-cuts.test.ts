// History limits and truncation (issue 7, item 1): cuts never split a character, and a cut
// message never makes a context exceed its limit, on both engines.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CtxloomError, Loom, loadTokenizer, type ModelProfile } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";

const tiny = (over: Partial<ModelProfile> = {}): ModelProfile => ({
  name: "tiny-18",
  contextWindow: 18,
  sizeClass: "tiny",
  tokensPerChar: 0.25,
  encoding: "o200k_base",
  ...over,
});

const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

forEachEngine((engine) => {
  describe("history limits", () => {
    it("a message of emoji cut to 10 characters keeps whole emoji", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "😀".repeat(20) });
      const ctx = await chat.buildContext({ historyLimits: { maxCharsPerTurn: 10 } });
      const sent = ctx.conversation[0]!.content;
      expect(wellFormed(sent)).toBe(true);
      expect(sent).toBe("😀".repeat(4) + "…");
      expect(wellFormed(String(ctx.messages[0]!.content))).toBe(true);
      await loom.close();
    });

    it("a system prompt of astral letters cut to its slice keeps whole letters", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({
        model: {
          name: "small-300",
          contextWindow: 300,
          sizeClass: "tiny",
          tokensPerChar: 0.25,
          encoding: "o200k_base",
        },
      });
      await chat.append({ role: "user", content: "hi" });
      for (const system of ["𝔸".repeat(500), "😀".repeat(500), "👍🏽".repeat(300), "e\u0301".repeat(500)]) {
        const ctx = await chat.buildContext({ system });
        expect(ctx.system.length).toBeGreaterThan(0);
        expect(ctx.system.length).toBeLessThan(system.length);
        expect(wellFormed(ctx.system)).toBe(true);
        expect(system.startsWith(ctx.system)).toBe(true);
        // whole clusters: the cut lands on a multiple of the repeated unit
        const unit = system.slice(0, system.length / (system.startsWith("👍") ? 300 : 500));
        expect(ctx.system.length % unit.length).toBe(0);
      }
      await loom.close();
    });

    it("cut messages that cost more than whole ones never push usage past the limit (18-token model)", async () => {
      await loadTokenizer("gpt-4o");
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: tiny() });
      await chat.append({ role: "user", content: "-".repeat(44) });
      await chat.append({ role: "user", content: "-".repeat(44) });
      const ctx = await chat.buildContext({ historyLimits: { maxCharsPerTurn: 18 } });
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      const big = await loom.user("v").create({ model: tiny({ name: "tiny-194", contextWindow: 194 }) });
      for (let i = 0; i < 40; i++) await big.append({ role: "user", content: "-".repeat(44) });
      const ctx2 = await big.buildContext({ historyLimits: { maxCharsPerTurn: 18 } });
      expect(ctx2.usage.total).toBeLessThanOrEqual(ctx2.usage.limit);
      expect(ctx2.conversation.length).toBeGreaterThan(1);
      await loom.close();
    });

    it("10 MiB of memory is cut to its slice, and 10 MiB of input refused by a linear bound", async () => {
      await loadTokenizer("gpt-4o");
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "hi" });
      const huge = "x".repeat(10 * 1024 * 1024);
      const ctx = await chat.buildContext({ memory: huge });
      expect(ctx.usage.memory).toBeLessThanOrEqual(ctx.budget.memory);
      expect(ctx.usage.memory).toBeGreaterThan(ctx.budget.memory - 10);
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      const model = {
        name: "o200k-60k",
        contextWindow: 60_000,
        sizeClass: "xlarge" as const,
        tokensPerChar: 0.25,
        encoding: "o200k_base" as const,
      };
      await expect(chat.buildContext({ input: huge, model })).rejects.toMatchObject({
        code: "MESSAGE_TOO_LARGE",
        message: expect.stringContaining("at least"),
      });
      await loom.close();
    });

    it("property: with any history limits, usage.total <= usage.limit (or MESSAGE_TOO_LARGE)", async () => {
      await loadTokenizer("gpt-4o");
      const loom = await Loom.open({ engine });
      const runs = ["-", "=", "a", "😀", "𝔸", " ", "ab ", "é", "…"];
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat({ max: runs.length - 1 }), fc.integer({ min: 1, max: 80 }), fc.boolean()), {
            minLength: 1,
            maxLength: 25,
          }),
          fc.integer({ min: 1, max: 60 }),
          fc.integer({ min: 18, max: 400 }),
          fc.boolean(),
          async (messages, maxCharsPerTurn, contextWindow, exact) => {
            const model = tiny({ name: `p${n++}`, contextWindow, ...(exact ? {} : { encoding: undefined }) });
            const chat = await loom.user("p").create({ model });
            for (const [r, times, user] of messages) {
              await chat
                .append({ role: user ? "user" : "assistant", content: runs[r]!.repeat(times) })
                .catch((e: CtxloomError) => {
                  expect(e.code).toBe("MESSAGE_TOO_LARGE"); // larger than the whole window: refused at append
                });
            }
            if (chat.head === null) return;
            try {
              const ctx = await chat.buildContext({ historyLimits: { maxCharsPerTurn } });
              expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
              for (const m of ctx.conversation) expect(wellFormed(m.content)).toBe(true);
            } catch (e) {
              expect(e).toBeInstanceOf(CtxloomError);
              expect((e as CtxloomError).code).toBe("MESSAGE_TOO_LARGE");
            }
          },
        ),
        { numRuns: 150 },
      );
      await loom.close();
    });
  });
});
