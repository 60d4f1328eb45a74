// ctxloomMiddleware (issue 31 item 7, issue 32 item 6): LangChain v1's createAgent with its own
// fake tool-calling model, the agent's conversation kept in a chat: the state's new messages
// appended as they come (once, across runs), the model sent the chat's context (older tool
// results cleared, the read tool registered and answering from the chat, the tools counted),
// and a failed run leaving a chat that takes the next turn.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { createAgent, createMiddleware, FakeToolCallingModel } from "langchain";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { ctxloomMiddleware, langchainReadTool } from "../../src/langchain.js";
import { expectThrowCode, snapshot } from "../helpers.js";

const schema = { type: "object" as const, properties: { path: { type: "string" as const } }, required: ["path"] };
const filler = (n: number) =>
  Array.from({ length: n < 3 ? 500 : 100 }, (_, i) => `file ${n} line ${i} text`).join("\n"); // the three oldest larger: clearing batches pay for the cache they break
const readFile = tool(async (input: { path: string }) => filler(Number(input.path)), {
  name: "readFile",
  description: "Reads a file",
  schema,
});
const call = (name: string, args: object, id: string) => ({ name, args, id });

/** What each model call is sent (after ctxloom's middleware), its answer's text left out (the fake model echoes what it is sent). */
function recorder(seen: BaseMessage[][]) {
  return createMiddleware({
    name: "recorder",
    wrapModelCall: async (request, handler) => {
      seen.push([request.systemMessage, ...request.messages]);
      const answer = await handler(request);
      return new AIMessage({
        content: answer.tool_calls?.length ? "" : "Done.",
        id: answer.id,
        tool_calls: answer.tool_calls ?? [],
      });
    },
  });
}

async function agentChat() {
  const loom = await Loom.open();
  const chats = loom.user("u");
  const chat = await chats.create({ model: "gpt-4o", system: "You read files." });
  return { loom, chats, chat };
}

describe("createAgent with ctxloomMiddleware", () => {
  it("keeps the run in the chat, sends the chat's context, clears older results and reads one back", async () => {
    const { loom, chat } = await agentChat();
    const model = new FakeToolCallingModel({
      toolCalls: [
        ...[0, 1, 2, 3, 4, 5].map((n) => [call("readFile", { path: String(n) }, `c${n}`)]),
        [call("readToolResult", { id: 2 }, "r1")],
        [],
      ],
    });
    const seen: BaseMessage[][] = [];
    const agent = createAgent({ model, tools: [readFile], middleware: [ctxloomMiddleware(chat), recorder(seen)] });
    await agent.invoke({ messages: [{ role: "user", content: "Summarize the files." }] });
    expect(chat.path().map((m) => m.role)).toEqual([
      "user",
      ...Array(7).fill(["assistant", "tool"]).flat(),
      "assistant",
    ]);
    expect(
      chat
        .path()
        .filter((m) => m.role === "tool")
        .slice(0, 6)
        .map((m) => m.content),
    ).toEqual([0, 1, 2, 3, 4, 5].map(filler));
    expect(chat.get(14).content).toBe(`[tool result of message 2, page 1 of 1]\n${filler(0)}`);
    expect(chat.path().at(-1)!.content).toBe("Done.");
    // The seventh call: the chat's system prompt, the three oldest results cleared.
    const seventh = seen[6]!;
    expect(seventh[0]!.text).toBe("You read files.");
    const results = seventh.filter((m) => m.type === "tool").map((m) => m.text);
    expect(results.slice(0, 3)).toEqual(
      [2, 4, 6].map((id) => expect.stringMatching(new RegExp(`^\\[cleared: message ${id}\\]`))),
    );
    expect(results.slice(3)).toEqual([3, 4, 5].map(filler));
    await loom.close();
  });

  it("a second run appends only its own messages, and its model is sent the first run's too, from the chat", async () => {
    const { loom, chat } = await agentChat();
    const model = new FakeToolCallingModel({ toolCalls: [[call("readFile", { path: "1" }, "c1")], [], []] });
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt: "ignored: the chat has one",
      middleware: [ctxloomMiddleware(chat, { readTool: false })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "Read file 1." }] });
    const first = chat.path().length;
    const second = await agent.invoke({ messages: [{ role: "user", content: "And what did it say?" }] });
    expect(first).toBe(4);
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant"]);
    // The fake model echoes what it is sent: the chat's system prompt and the first run, not the agent's prompt.
    const echo = String(second.messages.at(-1)!.content);
    expect(echo.startsWith("You read files.-Read file 1.")).toBe(true);
    expect(echo).toContain(filler(1).slice(0, 40));
    expect(echo).not.toContain("ignored");
    await loom.close();
  });

  it("a failed run leaves no call open: the next run appends its question", async () => {
    const { loom, chat } = await agentChat();
    const model = new FakeToolCallingModel({ toolCalls: [[call("readFile", { path: "1" }, "c1")], []] });
    let calls = 0;
    const failing = createMiddleware({
      name: "overloaded",
      wrapModelCall: async (request, handler) => {
        if (calls++ === 1) throw new Error("overloaded");
        return handler(request);
      },
    });
    const agent = createAgent({ model, tools: [readFile], middleware: [ctxloomMiddleware(chat), failing] });
    await expect(agent.invoke({ messages: [{ role: "user", content: "Read file 1." }] })).rejects.toThrow("overloaded");
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    await chat.append({ role: "user", content: "Try again." });
    await loom.close();
  });
});

describe("the agent's tools", () => {
  it("are counted: on a small window they leave room for fewer messages", async () => {
    const sent = async (tools: StructuredToolInterface[]) => {
      const chat = await (await Loom.open())
        .user("u")
        .create({ model: { name: "tiny-agent", contextWindow: 1500, sizeClass: "tiny", tokensPerChar: 0.25 } });
      for (let i = 0; i < 30; i++) {
        await chat.append({ role: "user", content: `question ${i} ${"words ".repeat(8)}` });
        await chat.append({ role: "assistant", content: `answer ${i} ${"words ".repeat(8)}` });
      }
      const seen: BaseMessage[][] = [];
      const agent = createAgent({
        model: new FakeToolCallingModel({ toolCalls: [[]] }),
        tools,
        middleware: [ctxloomMiddleware(chat, { readTool: false }), recorder(seen)],
      });
      await agent.invoke({ messages: [{ role: "user", content: "last question" }] });
      expect(seen[0]!.at(-1)!.text).toBe("last question");
      return seen[0]!.length;
    };
    const long = tool(async () => "", { name: "search", description: "Searches the catalog. ".repeat(40), schema });
    expect(await sent([readFile, long])).toBeLessThan(await sent([]));
  });
});

describe("the read tool and bad input", () => {
  it("langchainReadTool answers from the chat; bad options are refused with no change", async () => {
    const { loom, chats, chat } = await agentChat();
    await chat.append({ role: "user", content: "hi" });
    const before = await snapshot(chat, chats);
    for (const bad of [{ tools: [readFile] }, { format: "anthropic" }, { readTool: "no" }, { maxMessages: 0 }]) {
      expectThrowCode(() => ctxloomMiddleware(chat, bad as never), "INVALID_ARGUMENT");
    }
    expectThrowCode(() => ctxloomMiddleware({} as never), "INVALID_ARGUMENT");
    expectThrowCode(() => langchainReadTool(chat, { maxTokens: -1 }), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    expect(await langchainReadTool(chat).invoke({ id: 0 })).toMatch(/^Error: Message 0 is a user message/);
    expect(ctxloomMiddleware(chat).tools.map((t) => t.name)).toEqual(["readToolResult"]);
    expect(ctxloomMiddleware(chat, { readTool: false }).tools).toEqual([]);
    await loom.close();
  });
});
