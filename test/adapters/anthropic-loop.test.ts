// anthropicLoop and anthropicReadTool (issue 31 items 2 and 7, issue 32 item 6) with the
// `@anthropic-ai/sdk` client over a fake fetch that answers like the API: tool_use blocks run,
// the read tool answered from the chat, older results sent cleared, the tools sent and counted
// with Anthropic's tool-use prompt, a failed step that leaves the chat taking the next turn.
import Anthropic from "@anthropic-ai/sdk";
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import { expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { anthropicLoop, anthropicReadTool } from "../../src/anthropic.js";
import { expectThrowCode, forEachEngine, snapshot } from "../helpers.js";

function fakeFetch(replies: unknown[]): { fetch: typeof fetch; bodies: Record<string, unknown>[] } {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response(JSON.stringify(replies.shift()), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const MODEL = "claude-sonnet-4-5";
const message = (content: unknown[], stop = "end_turn") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: MODEL,
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});
const use = (id: string, name: string, input: object) => message([{ type: "tool_use", id, name, input }], "tool_use");
const readFile: Tool = {
  name: "readFile",
  description: "Reads a file",
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const filler = (n: number) =>
  Array.from({ length: n < 3 ? 700 : 150 }, (_, i) => `file ${n} line ${i} text`).join("\n"); // the three oldest larger: clearing batches pay for the cache they break

async function agentChat(engine: "wasm" | "js") {
  const loom = await Loom.open({ engine });
  const chats = loom.user("u");
  const chat = await chats.create({ model: MODEL, system: "You read files." });
  await chat.append({ role: "user", content: "Summarize the files." });
  return { loom, chats, chat };
}

forEachEngine((engine) => {
  it("tool_use blocks run, the older results sent cleared, one read back, the tools sent with the read tool", async () => {
    const { fetch, bodies } = fakeFetch([
      ...[0, 1, 2, 3, 4, 5].map((n) => use(`toolu_${n}`, "readFile", { path: String(n) })),
      use("toolu_r", "readToolResult", { id: 2 }),
      message([{ type: "text", text: "Six files, read." }]),
    ]);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const { loom, chat } = await agentChat(engine);
    const loop = anthropicLoop(chat, { tools: [readFile], cacheControl: true });
    for (let step = 0; step < 12; step++) {
      const answer = await client.messages.create({ model: MODEL, max_tokens: 1024, ...(await loop.context()) });
      if ((await loop.step(answer, (call) => filler(Number((call.input as { path: string }).path)))) === 0) break;
    }
    expect(bodies[0]).toMatchObject({
      system: "You read files.",
      tools: [readFile, anthropicReadTool(chat).definition],
    });
    const sent = (
      bodies[6]!.messages as { role: string; content: { type: string; content?: string }[] | string }[]
    ).flatMap((m) =>
      typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_result").map((b) => b.content),
    );
    expect(sent.slice(0, 3)).toEqual(
      [2, 4, 6].map((id) => expect.stringMatching(new RegExp(`^\\[cleared: message ${id}\\]`))),
    );
    expect(sent.slice(3)).toEqual([3, 4, 5].map(filler));
    expect(chat.get(14).content).toBe(`[tool result of message 2, page 1 of 1]\n${filler(0)}`);
    expect(chat.path().at(-1)!.content).toBe("Six files, read.");
    await loom.close();
  });

  it("a tool that throws: the calls left open answered cancelled, the error thrown, the next turn taken", async () => {
    const { loom, chat } = await agentChat(engine);
    const loop = anthropicLoop(chat, { tools: [readFile] });
    const answer = message(
      [
        { type: "text", text: "Reading both." },
        ...[1, 2].map((n) => ({ type: "tool_use", id: `toolu_${n}`, name: "readFile", input: { path: String(n) } })),
      ],
      "tool_use",
    );
    let runs = 0;
    await expect(
      loop.step(answer as never, async (call) => {
        if (runs++ === 1) throw new Error(`cannot read ${(call.input as { path: string }).path}`);
        return "first file";
      }),
    ).rejects.toThrow("cannot read 2");
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Summarize the files."],
      ["assistant", "Reading both."],
      ["tool", "first file"],
      ["tool", "cancelled"],
    ]);
    await chat.append({ role: "user", content: "Try again." });
    await loom.close();
  });

  it("refuses bad tools and options before anything is appended", async () => {
    const { loom, chats, chat } = await agentChat(engine);
    const before = await snapshot(chat, chats);
    const bads = [
      { tools: [{ type: "function", function: { name: "openaiShape", parameters: {} } }] },
      { tools: [{ type: "web_search_20250305", name: "web_search" }] },
      { tools: [{ ...readFile, name: "readToolResult" }] },
      { readTool: 1 },
      { format: "anthropic" },
    ];
    for (const bad of bads) expectThrowCode(() => anthropicLoop(chat, bad as never), "INVALID_ARGUMENT");
    expectThrowCode(() => anthropicReadTool(chat, { maxTokens: 0 }), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    // The read tool's definition and its answers, for a loop written by hand.
    const reader = anthropicReadTool(chat);
    expect(reader.definition).toEqual({
      name: "readToolResult",
      description: expect.any(String),
      input_schema: expect.objectContaining({ type: "object", required: ["id"] }),
    });
    expect(await reader.run({ id: 0 })).toMatch(/^Error: Message 0 is a user message, not a tool result/);
    await loom.close();
  });
});
