// Provider-native compaction (issue 31, item 6): OpenAI's compaction items and Anthropic's
// compaction blocks appended from a response are kept as they came and sent back, byte for byte,
// to the provider that made them, where they stand for everything before them; never to another
// format (there the originals go, as the budget allows); the run they replace stays in the tree.
// Items and blocks are the SDKs' own types (openai's ResponseOutputItem, @anthropic-ai/sdk's
// beta messages, where compaction lives).
import { describe, expect, it } from "vitest";
import type { BetaCompactionBlock, BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type {
  ResponseCompactionItem,
  ResponseInputItem,
  ResponseOutputItem,
} from "openai/resources/responses/responses";
import { Loom, countTokens, loadTokenizer, type Chat, type ContextWindow, type MessageInput } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromResponseItems } from "../../src/openai.js";
import { toModelContext, toModelMessages, toUIMessages } from "../../src/ai-sdk.js";
import { forEachEngine } from "../helpers.js";

const MODEL = "gpt-4o";
const SMALL = { name: "compaction-small", contextWindow: 4000, sizeClass: "small" as const, tokensPerChar: 0.25 };

async function appendAll(chat: Chat, inputs: MessageInput[]): Promise<void> {
  for (const input of inputs) await chat.append(input);
}

const task = "Refactor the billing module. " + "Here is the code: function bill(x) { return x * 2; } ".repeat(220);
const result = (n: number) => `Output of step ${n}: ` + "all tests passed, 42 files checked. ".repeat(25);

/** What Anthropic returned when its compaction triggered: the summary block first, then the next tool call. */
const block: BetaCompactionBlock = {
  type: "compaction",
  content: "Summary: the user asked to refactor billing; steps 1-2 ran the tests, all passed.",
  encrypted_content: "EnCrYpTeD-state-0123",
  signature: "compaction-sig",
  tool_changes: [],
};

/** An Anthropic agent loop: the task, two tool steps, a compaction, two more steps (head: the last result). */
function anthropicRun(): BetaMessageParam[] {
  const step = (n: number, first?: BetaCompactionBlock): BetaMessageParam[] => [
    {
      role: "assistant",
      content: [...(first ? [first] : []), { type: "tool_use", id: `t${n}`, name: "run_tests", input: { step: n } }],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: `t${n}`, content: result(n) }] },
  ];
  return [{ role: "user", content: task }, ...step(1), ...step(2), ...step(3, block), ...step(4)];
}

/** Nothing of the compaction in a context of another format. */
const noCompaction = (ctx: ContextWindow) =>
  expect(JSON.stringify(ctx.messages)).not.toMatch(/compaction|EnCrYpTeD|cmp_|gAAAA-compacted/);

forEachEngine((engine) => {
  const open = async (model: string | typeof SMALL = MODEL) => {
    await loadTokenizer(MODEL);
    const loom = await Loom.open({ engine });
    return { loom, chat: await loom.user("u").create({ model }) };
  };

  describe("Anthropic's compaction block", () => {
    it("round trip: fromAnthropicMessages, then the Anthropic context starts with the block as it came", async () => {
      const { loom, chat } = await open();
      const run = anthropicRun();
      await appendAll(chat, fromAnthropicMessages(run));
      const ctx = await chat.buildContext({ format: "anthropic" });
      const first = ctx.messages[0]!;
      expect(first.role).toBe("assistant");
      const sentBlock = (first.content as unknown[])[0];
      expect(sentBlock).toEqual(block);
      expect(JSON.stringify(sentBlock)).toBe(JSON.stringify(block)); // byte for byte
      // What it stands for is not sent: the request is the compaction and the steps after it.
      expect(ctx.messages.map((m) => m.role)).toEqual(["assistant", "user", "assistant", "user"]);
      expect(JSON.stringify(ctx.messages)).not.toContain("Refactor the billing");
      expect(ctx.evicted).toBe(0); // carried by the compaction, not evicted
      expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
      // The tree keeps the run it replaces.
      expect(chat.path().map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
      ]);
      expect(chat.path()[0]!.content).toBe(task);
      // With cache breakpoints on, the block is still first and unchanged.
      const cached = await chat.buildContext({ format: "anthropic", cacheControl: true });
      expect((cached.messages[0]!.content as unknown[])[0]).toEqual(block);
      await loom.close();
    });

    it("never sent to another format: there the originals go, and OpenAI's count is exact", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromAnthropicMessages(anthropicRun()));
      for (const ctx of [await chat.buildContext(), await chat.buildContext({ format: "responses" })]) {
        noCompaction(ctx);
        expect(JSON.stringify(ctx.messages)).toContain("Refactor the billing");
        expect(ctx.conversation.every((m) => !m.parts?.some((p) => p.type === "compaction"))).toBe(true);
        expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
      }
      const openai = await chat.buildContext();
      expect(openai.usage.total).toBe(countTokens(openai.messages, { model: MODEL }));
      expect(JSON.stringify(toModelContext(openai))).not.toContain("EnCrYpTeD");
      expect(JSON.stringify(toModelMessages(chat.path()))).not.toContain("EnCrYpTeD");
      expect(JSON.stringify(toUIMessages(chat))).not.toContain("EnCrYpTeD");
      await loom.close();
    });

    it("a task too large to send again beside the steps: the compaction carries it, the steps after it all go", async () => {
      const { loom, chat } = await open(SMALL);
      await appendAll(chat, fromAnthropicMessages(anthropicRun()));
      const plain = await chat.buildContext();
      expect(plain.evicted).toBeGreaterThan(0); // the task (forced) and the steps do not fit together
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(ctx.evicted).toBe(0);
      expect(ctx.conversation.map((m) => m.id)).toEqual([5, 6, 7, 8]);
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      await loom.close();
    });
  });

  describe("OpenAI's compaction item", () => {
    const compaction: ResponseCompactionItem = {
      type: "compaction",
      id: "cmp_1",
      encrypted_content: "gAAAA-compacted-state",
      created_by: "server",
    };
    const user = (text: string): ResponseInputItem => ({ role: "user", content: text });
    const message = (text: string): ResponseOutputItem => ({
      type: "message",
      id: `msg_${text.length}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });

    it("round trip: fromResponseItems, then the Responses context holds the item as it came, and what follows it", async () => {
      const { loom, chat } = await open();
      // Server-side compaction (context_management): the output holds the item before the reply.
      const items: (ResponseOutputItem | ResponseInputItem)[] = [
        user(task),
        message("Looking at it."),
        user("Go on."),
        compaction,
        message("Refactored."),
        user("Thanks."),
      ];
      await appendAll(chat, fromResponseItems(items));
      const ctx = await chat.buildContext({ format: "responses" });
      expect(JSON.stringify(ctx.messages[0])).toBe(JSON.stringify(compaction));
      expect(ctx.messages.slice(1)).toEqual([
        { type: "message", role: "assistant", content: "Refactored." },
        { type: "message", role: "user", content: "Thanks." },
      ]);
      expect(ctx.evicted).toBe(0);
      expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
      for (const other of [await chat.buildContext(), await chat.buildContext({ format: "anthropic" })]) {
        noCompaction(other);
        expect(JSON.stringify(other.messages)).toContain("Refactor the billing");
      }
      expect(chat.path().map((m) => m.content)).toEqual([task, "Looking at it.", "Go on.", "Refactored.", "Thanks."]); // the replaced run stays
      expect(chat.path()[3]!.parts?.map((p) => p.type)).toEqual(["compaction", "text"]);
      await loom.close();
    });

    it("responses.compact: its compaction item appended alone stands for the chat before it", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromResponseItems([user(task), message("Done.")]));
      // compact() gives the user messages (the chat's own) and one compaction item: append the item.
      await appendAll(chat, fromResponseItems([compaction]));
      await chat.append({ role: "user", content: "Next?" });
      const ctx = await chat.buildContext({ format: "responses" });
      expect(ctx.messages).toEqual([compaction, { type: "message", role: "user", content: "Next?" }]);
      noCompaction(await chat.buildContext());
      await loom.close();
    });
  });
});
