// A chat's build resolves its options once, into one plan the lower layers receive: with recall
// on (the options checked before the query is embedded) and with a summary written in the call
// (the context built again after it), the tools are still counted once per call.
import { afterEach, describe, expect, it } from "vitest";
import { Loom, hashingEmbedder, type Chat, type Embedder, type ModelProfile } from "../../src/index.js";
import type { TokenCounter } from "../../src/tokens/types.js";
import { forEachEngine } from "../helpers.js";

const MARK = "zebra_route_planner";
const tools = [
  {
    type: "function" as const,
    function: {
      name: MARK,
      description: "Plans a route between two stops.",
      parameters: { type: "object", properties: { from: { type: "string" } } },
    },
  },
];

/** A counter of about 4 characters a token that counts how often it saw the tool's definition. */
function spyCounter(): TokenCounter & { toolCounts: number } {
  const spy = {
    name: "spy:0.25",
    exact: false,
    toolCounts: 0,
    count(text: string): number {
      if (text.includes(MARK)) spy.toolCounts++;
      return Math.ceil(text.length / 4);
    },
  };
  return spy;
}

forEachEngine((engine) => {
  describe("one plan per build", () => {
    let loom: Loom | undefined;
    afterEach(async () => {
      await loom?.close();
      loom = undefined;
    });

    async function chatWith(counter: TokenCounter, options: Parameters<typeof Loom.open>[0] = {}): Promise<Chat> {
      loom = await Loom.open({ engine, ...options });
      const model: Partial<ModelProfile> & Pick<ModelProfile, "name" | "contextWindow"> = {
        name: "spy-model",
        contextWindow: 2_000,
        tokensPerChar: 0.25,
        counter,
      };
      return loom.user("u").create({ model });
    }

    async function talk(chat: Chat, turns: number): Promise<void> {
      for (let i = 0; i < turns; i++) {
        await chat.append({
          role: "user",
          content: `Question ${i}: which ferry reaches pier ${i} before noon on a weekday?`,
        });
        await chat.append({
          role: "assistant",
          content: `The ${i % 3 === 0 ? "early" : "late"} ferry reaches pier ${i} at 11:40 on weekdays.`,
        });
      }
    }

    it("a plain build counts the tools once", async () => {
      const counter = spyCounter();
      const chat = await chatWith(counter);
      await talk(chat, 3);
      const ctx = await chat.buildContext({ tools });
      expect(ctx.usage.tools).toBeGreaterThan(0);
      expect(counter.toolCounts).toBe(1);
    });

    it("a build that recalls counts the tools once (the plan is made once, before the query is embedded)", async () => {
      const counter = spyCounter();
      const chat = await chatWith(counter, { recall: true });
      await talk(chat, 3);
      const ctx = await chat.buildContext({ tools, recall: { query: "ferry to pier 1" } });
      expect(ctx.usage.tools).toBeGreaterThan(0);
      expect(counter.toolCounts).toBe(1);
    });

    it("a build that writes a summary and builds again counts the tools once", async () => {
      const counter = spyCounter();
      const chat = await chatWith(counter, { summaries: { select: { keepLast: 4 } } });
      await talk(chat, 40);
      const ctx = await chat.buildContext({ tools, recall: true });
      expect(ctx.compressed).toBe(true);
      expect(chat.stats().compressions).toBe(1);
      expect(counter.toolCounts).toBe(1);
    });

    it("a bad option with recall on is refused before anything is embedded, and counts nothing", async () => {
      const counter = spyCounter();
      const inner = hashingEmbedder();
      const embedded: string[] = [];
      const embedder: Embedder = {
        name: inner.name,
        dimension: inner.dimension,
        embed: (texts, signal) => (embedded.push(...texts), inner.embed(texts, signal)),
      };
      const chat = await chatWith(counter, { recall: { embedder } });
      await talk(chat, 2);
      const query = "Which ferry is quiet on Sundays?";
      await expect(chat.buildContext({ tools, recall: { query }, maxMessages: 0 })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      expect(embedded).not.toContain(query);
      expect(counter.toolCounts).toBe(0); // maxMessages is checked before the tools are counted
      await chat.buildContext({ tools, recall: { query } });
      expect(embedded).toContain(query);
    });
  });
});
