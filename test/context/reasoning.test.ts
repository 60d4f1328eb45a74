// Reasoning beyond the newest turns is left out of a context (issue 31, item 3), as a view: the
// chat keeps every thinking block, reasoning item and reasoning part, and each build sends the
// newest `reasoningTurns` turns' (default 1) and what a provider requires: Anthropic's thinking
// blocks of the turn still using tools (before its tool_use blocks, signatures kept), OpenAI's
// reasoning items with their function calls. The chats are filled from the SDKs' own types,
// and the counts stay exact: usage.total is the cookbook count of what an OpenAI context sends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type {
  ResponseInputItem,
  ResponseOutputItem,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type { ModelMessage } from "ai";
import { Loom, countTokens, loadTokenizer, type Chat, type ContextWindow, type Message } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromResponseItems } from "../../src/openai.js";
import { fromModelMessages, toModelContext } from "../../src/ai-sdk.js";
import { forEachEngine } from "../helpers.js";

const MODEL = "gpt-4o";

async function appendAll(chat: Chat, inputs: Parameters<Chat["append"]>[0][]): Promise<void> {
  for (const input of inputs) await chat.append(input);
}

/** What a context's conversation costs as it is sent: its messages' counts add up to usage.conversation. */
function countsAddUp(ctx: ContextWindow): void {
  expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
  for (const m of ctx.conversation) {
    if (ctx.format === "openai") continue; // counted without the reasoning it keeps for the AI SDK (below)
    expect(m.tokens, `message ${m.id}`).toBe(
      countTokens([{ ...m, content: m.parts ?? m.content }], { model: MODEL }) - 3,
    );
  }
}

const think = (n: number) => `Turn ${n}: let me think this through step by step. `.repeat(20);
const call = (id: string) => ({ type: "tool_use" as const, id, name: "weather", input: { city: "Paris" } });

/** Three turns of Claude with thinking; the third still using a tool (its result is the head). */
const anthropicTurns: MessageParam[] = [
  { role: "user", content: "Hi." },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: think(1), signature: "sig-1" },
      { type: "text", text: "Hello." },
    ],
  },
  { role: "user", content: "Plans?" },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: think(2), signature: "sig-2" },
      { type: "redacted_thinking", data: "RED-2" },
      { type: "text", text: "Rest." },
    ],
  },
  { role: "user", content: "Weather in Paris?" },
  { role: "assistant", content: [{ type: "thinking", thinking: think(3), signature: "sig-3" }, call("c1")] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "Sunny, 21°C." }] },
];

/** The thinking blocks (with their signatures or data) of each assistant message sent, in order. */
function thinkingOf(messages: MessageParam[]): string[][] {
  return messages
    .filter((m) => m.role === "assistant")
    .map((m) => {
      if (typeof m.content === "string") return [];
      return m.content.flatMap((b) =>
        b.type === "thinking" ? [b.signature] : b.type === "redacted_thinking" ? [b.data] : [],
      );
    });
}

forEachEngine((engine) => {
  const open = async () => {
    await loadTokenizer(MODEL);
    const loom = await Loom.open({ engine });
    return { loom, chat: await loom.user("u").create({ model: MODEL }) };
  };

  describe("Anthropic: thinking blocks (MessageParam)", () => {
    it("the newest turn's thinking is sent, older turns' left out; the chat keeps them all", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromAnthropicMessages(anthropicTurns));
      const all = await chat.buildContext({ format: "anthropic", reasoningTurns: "all" });
      expect(thinkingOf(all.messages)).toEqual([["sig-1"], ["sig-2", "RED-2"], ["sig-3"]]);
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(thinkingOf(ctx.messages)).toEqual([[], [], ["sig-3"]]);
      expect(ctx.messages[1]).toEqual({ role: "assistant", content: "Hello." });
      countsAddUp(ctx);
      countsAddUp(all);
      expect(ctx.usage.total).toBeLessThan(all.usage.total - 2 * 200); // two turns' thinking, about 250 tokens each
      expect(thinkingOf((await chat.buildContext({ format: "anthropic", reasoningTurns: 2 })).messages)).toEqual([
        [],
        ["sig-2", "RED-2"],
        ["sig-3"],
      ]);
      // Nothing changed in the chat.
      expect(chat.path().filter((m) => m.parts?.some((p) => p.type === "reasoning")).length).toBe(3);
      await loom.close();
    });

    it("the turn still using tools keeps its thinking before its tool_use blocks, even with reasoningTurns 0", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromAnthropicMessages(anthropicTurns));
      const ctx = await chat.buildContext({ format: "anthropic", reasoningTurns: 0 });
      const last = ctx.messages[ctx.messages.length - 2]!;
      // Anthropic: "a final assistant message must start with a thinking block" during tool use, signature as sent.
      expect(last).toEqual({
        role: "assistant",
        content: [{ type: "thinking", thinking: think(3), signature: "sig-3" }, call("c1")],
      });
      expect(thinkingOf(ctx.messages)).toEqual([[], [], ["sig-3"]]);
      // Once the turn is answered and the user speaks again, no turn is under way: 0 sends none.
      await appendAll(
        chat,
        fromAnthropicMessages([
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: think(4), signature: "sig-4" },
              { type: "text", text: "Sunny." },
            ],
          },
          { role: "user", content: "Thanks!" },
        ]),
      );
      expect(thinkingOf((await chat.buildContext({ format: "anthropic", reasoningTurns: 0 })).messages)).toEqual([
        [],
        [],
        [],
        [],
      ]);
      // The default keeps the newest turn holding reasoning: the weather turn, both its steps.
      expect(thinkingOf((await chat.buildContext({ format: "anthropic" })).messages)).toEqual([
        [],
        [],
        ["sig-3"],
        ["sig-4"],
      ]);
      // A new user message given as input closes the turn too.
      await chat.checkout(chat.get(chat.head!).parentId!); // head: the answer
      const withInput = await chat.buildContext({ format: "anthropic", reasoningTurns: 0, input: "And tomorrow?" });
      expect(thinkingOf(withInput.messages)).toEqual([[], [], [], []]);
      await loom.close();
    });
  });

  describe("OpenAI Responses: reasoning items (ResponseOutputItem, ResponseInputItem)", () => {
    const reasoning = (n: number): ResponseReasoningItem => ({
      type: "reasoning",
      id: `rs_${n}`,
      summary: [{ type: "summary_text", text: `Summary ${n}.` }],
      encrypted_content: `gAAAA${"x".repeat(400)}${n}`,
      status: "completed",
    });
    const message = (text: string): ResponseOutputItem => ({
      type: "message",
      id: `msg_${text}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
    const user = (text: string): ResponseInputItem => ({ role: "user", content: text });
    const turns: (ResponseOutputItem | ResponseInputItem)[] = [
      user("Hi."),
      reasoning(1),
      message("Hello."),
      user("Weather in Paris?"),
      reasoning(2),
      { type: "function_call", call_id: "c1", name: "weather", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "c1", output: "Sunny." },
    ];

    it("the items that go with the turn's function calls are sent back byte for byte, older ones left out", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromResponseItems(turns));
      const ctx = await chat.buildContext({ format: "responses" });
      const sent: ResponseInputItem[] = ctx.messages;
      expect(sent.map((i) => ("type" in i ? i.type : "message"))).toEqual([
        "message",
        "message",
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
      ]);
      expect(JSON.stringify(sent[3])).toBe(JSON.stringify(reasoning(2)));
      countsAddUp(ctx);
      const all = await chat.buildContext({ format: "responses", reasoningTurns: "all" });
      expect(all.messages.filter((i) => i.type === "reasoning").map((i) => JSON.stringify(i))).toEqual([
        JSON.stringify(reasoning(1)),
        JSON.stringify(reasoning(2)),
      ]);
      expect(JSON.stringify(all.messages[1])).toBe(JSON.stringify(reasoning(1))); // before the message it goes with
      // Even with 0 the items of the function calls under way stay (OpenAI pairs them).
      expect(
        (await chat.buildContext({ format: "responses", reasoningTurns: 0 })).messages.filter(
          (i) => i.type === "reasoning",
        ),
      ).toEqual([reasoning(2)]);
      // Never sent to another format: no thinking block for Anthropic (they carry no signature), nothing for Chat Completions.
      const anthropic = await chat.buildContext({ format: "anthropic", reasoningTurns: "all" });
      expect(JSON.stringify(anthropic.messages)).not.toMatch(/rs_|gAAAA|thinking|Summary/);
      countsAddUp(anthropic);
      await loom.close();
    });
  });

  describe("the AI SDK: reasoning parts (ModelMessage)", () => {
    const reply = (n: number, signature: string): ModelMessage => ({
      role: "assistant",
      content: [
        { type: "reasoning", text: think(n), providerOptions: { anthropic: { signature } } },
        { type: "text", text: `Answer ${n}.` },
      ],
    });

    it("toModelContext sends the newest turn's reasoning only, and the turn under way's", async () => {
      const { loom, chat } = await open();
      await appendAll(
        chat,
        fromModelMessages([
          { role: "user", content: "One?" },
          reply(1, "s1"),
          { role: "user", content: "Two?" },
          reply(2, "s2"),
          { role: "user", content: "Three?" },
        ]),
      );
      const reasoningSent = (c: { messages: ModelMessage[] }) =>
        c.messages.map((m) =>
          typeof m.content === "string" ? 0 : m.content.filter((p) => p.type === "reasoning").length,
        );
      const ctx = await chat.buildContext();
      expect(reasoningSent(toModelContext(ctx))).toEqual([0, 0, 0, 1, 0]);
      expect(reasoningSent(toModelContext(await chat.buildContext({ reasoningTurns: "all" })))).toEqual([
        0, 1, 0, 1, 0,
      ]);
      // A tool loop under way: its reasoning goes with its calls whatever the setting.
      await appendAll(
        chat,
        fromModelMessages([
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: think(3), providerOptions: { anthropic: { signature: "s3" } } },
              { type: "tool-call", toolCallId: "t1", toolName: "weather", input: {} },
            ],
          },
          {
            role: "tool",
            content: [
              { type: "tool-result", toolCallId: "t1", toolName: "weather", output: { type: "text", value: "Sunny." } },
            ],
          },
        ]),
      );
      const loop = toModelContext(await chat.buildContext({ reasoningTurns: 0 }));
      expect(reasoningSent(loop)).toEqual([0, 0, 0, 0, 0, 1, 0]);
      expect(loop.messages[5]!.content).toContainEqual({
        type: "reasoning",
        text: think(3),
        providerOptions: { anthropic: { signature: "s3" } },
      });
      await loom.close();
    });
  });

  describe("OpenAI Chat Completions, which takes no reasoning back", () => {
    it("usage.total is the cookbook count of the messages sent, whatever reasoning the chat holds", async () => {
      const { loom, chat } = await open();
      await appendAll(chat, fromAnthropicMessages(anthropicTurns));
      for (const reasoningTurns of [0, 1, "all"] as const) {
        const ctx = await chat.buildContext({ reasoningTurns });
        expect(ctx.usage.total, `reasoningTurns ${reasoningTurns}`).toBe(countTokens(ctx.messages, { model: MODEL }));
        expect(JSON.stringify(ctx.messages)).not.toMatch(/let me think|sig-|RED-/);
        expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
      }
      // The turn under way keeps its reasoning in the conversation (for toModelContext), uncounted.
      const kept = (await chat.buildContext()).conversation.find((m) => m.toolCalls) as Message;
      expect(kept.parts?.map((p) => p.type)).toEqual(["reasoning"]);
      await loom.close();
    });
  });
});

describe("random chats with reasoning, tool loops and compactions: both engines, every format", () => {
  /** One turn: a user message, then steps (a tool call, or the answer), each with reasoning or not. */
  const turn = fc.record({
    steps: fc.array(fc.record({ tool: fc.boolean(), thinks: fc.nat(2), big: fc.boolean() }), {
      minLength: 1,
      maxLength: 4,
    }),
    compaction: fc.constantFrom(null, "openai", "anthropic"),
    answered: fc.boolean(),
  });
  const spec = fc.record({
    turns: fc.array(turn, { minLength: 1, maxLength: 6 }),
    reasoningTurns: fc.constantFrom(0, 1, 2, "all" as const),
    window: fc.constantFrom(600, 1500, 100_000),
  });

  type Turn = {
    steps: { tool: boolean; thinks: number; big: boolean }[];
    compaction: string | null;
    answered: boolean;
  };

  async function fill(chat: Chat, turns: Turn[]): Promise<void> {
    let call = 0;
    for (const [k, t] of turns.entries()) {
      await chat.append({ role: "user", content: `Question ${k}? ` + "detail ".repeat(k * 7) });
      for (const [j, s] of t.steps.entries()) {
        const last = j === t.steps.length - 1;
        if (last && !t.answered && k < turns.length - 1) continue;
        const parts: Message["parts"] & object = [];
        if (j === 0 && t.compaction === "anthropic")
          parts.push({
            type: "compaction",
            provider: "anthropic",
            data: JSON.stringify({ type: "compaction", content: `Summary before ${k}.`, encrypted_content: null }),
          });
        if (j === 0 && t.compaction === "openai")
          parts.push({
            type: "compaction",
            provider: "openai",
            data: JSON.stringify({ type: "compaction", id: `cmp_${k}`, encrypted_content: "gAAAA" + k }),
          });
        if (s.thinks === 1) parts.push({ type: "reasoning", text: think(k), signature: `sig-${k}-${j}` });
        if (s.thinks === 2)
          parts.push({
            type: "reasoning",
            text: `Summary ${k}.`,
            item: JSON.stringify({
              type: "reasoning",
              id: `rs_${k}_${j}`,
              summary: [{ type: "summary_text", text: `Summary ${k}.` }],
              encrypted_content: "gAAAA",
            }),
          });
        const text = last && !s.tool ? `Answer ${k}.` : "";
        if (text) parts.push({ type: "text", text });
        const content = parts.length > 0 && parts.some((p) => p.type !== "text") ? parts : text;
        if (s.tool) {
          const id = `c${call++}`;
          await chat.append({
            role: "assistant",
            content,
            toolCalls: [{ id, type: "function", function: { name: "look", arguments: "{}" } }],
          });
          await chat.append({ role: "tool", toolCallId: id, content: s.big ? "row ".repeat(300) : "ok" });
        } else if (content !== "") await chat.append({ role: "assistant", content });
      }
    }
  }

  it("counts add up, OpenAI's is the cookbook count, nothing goes to the wrong format, the engines agree", async () => {
    await loadTokenizer(MODEL);
    let built = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(spec, async ({ turns, reasoningTurns, window }) => {
        const seen: string[] = [];
        for (const engine of ["wasm", "js"] as const) {
          const loom = await Loom.open({ engine });
          const model = {
            name: `reasoning-${window}`,
            contextWindow: window,
            sizeClass: "small" as const,
            tokensPerChar: 0.25,
            encoding: "o200k_base" as const,
          };
          const chat = await loom.user("u").create({ model });
          await fill(chat, turns);
          const out: unknown[] = [];
          for (const format of ["openai", "anthropic", "responses"] as const) {
            const ctx = await chat
              .buildContext({ format, reasoningTurns, toolResults: { clear: true } })
              .catch((e: Error) => e.message);
            if (typeof ctx === "string") {
              expect(ctx).toMatch(/MESSAGE_TOO_LARGE|newest user turn|does not fit/);
              refused++;
              out.push(ctx);
              continue;
            }
            built++;
            expect(ctx.conversation.reduce((sum, m) => sum + m.tokens, 0)).toBe(ctx.usage.conversation);
            expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
            const sent = JSON.stringify(ctx.messages);
            if (ctx.format === "openai") {
              expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: MODEL }));
              expect(sent).not.toMatch(/gAAAA|sig-|Summary /);
            }
            if (format === "anthropic") expect(sent).not.toMatch(/gAAAA|rs_|cmp_/);
            if (format === "responses") expect(sent).not.toMatch(/sig-|Summary before/);
            out.push(ctx.messages, ctx.usage, ctx.evicted);
          }
          seen.push(JSON.stringify(out));
          await loom.close();
        }
        expect(seen[1]).toBe(seen[0]);
      }),
      { numRuns: 40 },
    );
    expect(built).toBeGreaterThan(refused); // most builds send something to check
  });
});

forEachEngine((engine) => {
  it("a redaction reaches the views: no context sends a text the chat no longer holds (reasoning left out, a tool result cut)", async () => {
    await loadTokenizer(MODEL);
    const loom = await Loom.open({ engine });
    const chat = await loom.user("u").create({ model: MODEL });
    const secret = "IBAN DE89370400440532013000";
    await appendAll(
      chat,
      fromAnthropicMessages([
        { role: "user", content: "Hi." },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: `The user's ${secret}.`, signature: "s1" },
            { type: "text", text: `Noted: ${secret}.` },
          ],
        },
        { role: "user", content: "Read the log." },
        { role: "assistant", content: [{ type: "thinking", thinking: "Read it.", signature: "s2" }, call("c1")] },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "c1", content: `${secret} ` + "log line\n".repeat(3000) }],
        },
      ]),
    );
    const build = () => chat.buildContext({ format: "anthropic", toolResults: { truncate: { maxTokens: 200 } } });
    const before = JSON.stringify((await build()).messages);
    expect(before).toContain(`Noted: ${secret}`); // its thinking is left out (an older turn): a view message holds its text
    expect(before).toContain(`${secret} log line`); // the result is cut: a view message holds its head
    await chat.redact(1);
    await chat.redact(4);
    const after = JSON.stringify((await build()).messages);
    expect(after).not.toContain(secret);
    await loom.close();
  });
});
