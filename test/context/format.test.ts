// Formats (issue 3, point 6): Anthropic's Messages shape (system apart, roles alternating, the
// user first, tool_use / tool_result blocks) and buildPrompt's single formatted string.
import { describe, expect, it } from "vitest";
import { Loom, type AnthropicBlock, type AnthropicMessage, type ModelProfile } from "../../src/index.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";

const SMALL: ModelProfile = { name: "fmt-small", contextWindow: 1_000, sizeClass: "tiny", tokensPerChar: 0.25 };
const call = (id: string, args = '{"city":"Paris"}') => ({
  id,
  type: "function" as const,
  function: { name: "weather", arguments: args },
});

/** Anthropic's rules on a message list: user first, roles alternate, every tool_result answers an earlier tool_use. */
function checkAnthropic(messages: AnthropicMessage[]): void {
  if (messages.length > 0) expect(messages[0]!.role).toBe("user");
  for (let i = 1; i < messages.length; i++) expect(messages[i]!.role).not.toBe(messages[i - 1]!.role);
  const used = new Set<string>();
  for (const m of messages) {
    expect(["user", "assistant"]).toContain(m.role);
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type === "tool_use") {
        expect(m.role).toBe("assistant");
        used.add(b.id);
      }
      if (b.type === "tool_result") {
        expect(m.role).toBe("user");
        expect(used.has(b.tool_use_id), `tool_result ${b.tool_use_id} has no tool_use before it`).toBe(true);
      }
    }
  }
}

forEachEngine((engine) => {
  describe('format: "anthropic"', () => {
    it("system apart, roles alternating, the user first, tool_use and tool_result blocks", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: SMALL, system: "You are helpful." });
      await chat.append({ role: "assistant", content: "Hello! How can I help?" }); // a greeting before the user: dropped
      await chat.append({ role: "user", content: "Weather in Paris and Lyon?" });
      await chat.append({ role: "system", content: "Use Celsius." });
      await chat.append({ role: "assistant", content: "Let me check.", toolCalls: [call("t1"), call("t2", '"Lyon"')] }); // JSON, not an object
      await chat.append({ role: "tool", content: "12C rain", toolCallId: "t1" });
      await chat.append({ role: "tool", content: "15C sun", toolCallId: "t2" });
      await chat.append({ role: "assistant", content: "Paris 12C, Lyon 15C." });
      await chat.append({ role: "user", content: "Thanks." });
      await chat.append({ role: "user", content: "And tomorrow?" });
      const ctx = await chat.buildContext({
        format: "anthropic",
        memory: "The user is in France.",
        input: "Be brief.",
      });
      expect(ctx.system).toBe("You are helpful.\n\nThe user is in France.\n\nUse Celsius.");
      checkAnthropic(ctx.messages);
      expect(ctx.messages).toEqual([
        { role: "user", content: "Weather in Paris and Lyon?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me check." },
            { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
            { type: "tool_use", id: "t2", name: "weather", input: { value: "Lyon" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "12C rain" },
            { type: "tool_result", tool_use_id: "t2", content: "15C sun" },
          ],
        },
        { role: "assistant", content: "Paris 12C, Lyon 15C." },
        {
          role: "user",
          content: [
            { type: "text", text: "Thanks." },
            { type: "text", text: "And tomorrow?" },
            { type: "text", text: "Be brief." },
          ] satisfies AnthropicBlock[],
        },
      ]);
      // the dropped greeting is out of the conversation and of the usage
      expect(ctx.conversation.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(ctx.evicted).toBe(1);
      expect(ctx.usage.conversation).toBe(ctx.conversation.reduce((s, m) => s + m.tokens, 0));
      expect(ctx.usage.total).toBe(3 + ctx.usage.system + ctx.usage.memory + ctx.usage.conversation + ctx.usage.input);
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
      await loom.close();
    });

    it("the same selection as the OpenAI format, within the same limit", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: SMALL });
      for (let i = 0; i < 60; i++) {
        await chat.append({ role: "user", content: `question ${i} `.padEnd(60, "q") });
        await chat.append({ role: "assistant", content: `answer ${i} `.padEnd(60, "a") });
      }
      await chat.append({ role: "user", content: "last" });
      const openai = await chat.buildContext();
      const anthropic = await chat.buildContext({ format: "anthropic" });
      checkAnthropic(anthropic.messages);
      const kept = openai.conversation.map((m) => m.id);
      const dropped = openai.conversation[0]!.role === "assistant" ? 1 : 0;
      expect(anthropic.conversation.map((m) => m.id)).toEqual(kept.slice(dropped));
      expect(anthropic.usage.total).toBeLessThanOrEqual(openai.usage.total);
      await loom.close();
    });

    it("a window that starts with a tool unit never sends a tool_result without its tool_use", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: SMALL });
      await chat.append({ role: "user", content: "x".repeat(3_350), priority: "low" }); // too large to keep beside the rest
      await chat.append({ role: "assistant", content: "", toolCalls: [call("c1")] });
      await chat.append({ role: "tool", content: "12C rain", toolCallId: "c1" });
      await chat.append({ role: "user", content: "so?" });
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(ctx.conversation[0]?.id).not.toBe(0);
      checkAnthropic(ctx.messages);
    });
  });

  describe("buildPrompt", () => {
    it("returns the context as one formatted string", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: SMALL, system: "Be brief." });
      await chat.append({ role: "user", content: "Weather?", name: "alice" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("t1")] });
      await chat.append({ role: "tool", content: "12C", toolCallId: "t1" });
      await chat.append({ role: "assistant", content: "12C in Paris." });
      const prompt = await chat.buildPrompt({ memory: "Lives in Paris.", input: "Thanks!" });
      expect(prompt).toBe(
        [
          "System: Be brief.",
          "System: Lives in Paris.",
          "User (alice): Weather?",
          'Assistant: -> weather({"city":"Paris"}) [t1]',
          "Tool [t1]: 12C",
          "Assistant: 12C in Paris.",
          "User: Thanks!",
        ].join("\n\n"),
      );
      await loom.close();
    });

    it("holds the same selection as buildContext (truncated system, evicted history)", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: SMALL });
      for (let i = 0; i < 80; i++)
        await chat.append({ role: i % 2 ? "assistant" : "user", content: `message ${i} `.padEnd(50, ".") });
      const system = Array.from({ length: 80 }, (_, i) => `Rule ${i} applies.`).join(" ");
      const ctx = await chat.buildContext({ system });
      const prompt = await chat.buildPrompt({ system });
      expect(prompt.startsWith(`System: ${ctx.system}\n\n`)).toBe(true);
      expect(prompt.split("\n\n").length).toBe(1 + ctx.conversation.length);
      for (const m of ctx.conversation) expect(prompt).toContain(m.content);
      expect(prompt).not.toContain("message 0 ");
      await loom.close();
    });
  });
});

forEachEngine((engine) => {
  describe("Anthropic format: what comes before the first user message", () => {
    it("a CRITICAL message there moves into the system text; others are dropped and counted as evicted", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "claude-sonnet-4", system: "Be brief." });
      await chat.append({ role: "assistant", content: "Welcome! Prices are in euros.", priority: "critical" });
      await chat.append({ role: "assistant", content: "Ask me anything." });
      await chat.append({ role: "user", content: "hi" });
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(ctx.system).toBe("Be brief.\n\nAssistant: Welcome! Prices are in euros.");
      expect(ctx.messages).toEqual([{ role: "user", content: "hi" }]);
      expect(ctx.conversation.map((m) => m.content)).toEqual(["Welcome! Prices are in euros.", "hi"]);
      expect(ctx.evicted).toBe(1);
      await loom.close();
    });

    it("a context with no user message at all is refused (the API would reject it)", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "claude-sonnet-4" });
      await chat.append({ role: "assistant", content: "Hello!" });
      await expectRejectCode(() => chat.buildContext({ format: "anthropic" }), "INVALID_ARGUMENT");
      expect((await chat.buildContext({ format: "anthropic", input: "hi" })).messages).toEqual([
        { role: "user", content: "hi" },
      ]);
      await loom.close();
    });
  });
});
