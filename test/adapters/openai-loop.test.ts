// openAILoop and openAIReadTool (issue 31 items 2 and 7, issue 32 item 6) with the `openai` client
// over a fake fetch that answers like the API: Chat Completions and Responses, older results
// cleared and read back by the read tool, the tools sent and counted, a failed step that leaves
// the chat taking the next turn, bad input refused before anything is appended.
import OpenAI from "openai";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { FunctionTool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { openAILoop, openAIReadTool } from "../../src/openai.js";
import { expectRejectCode, expectThrowCode, snapshot } from "../helpers.js";

/** A fetch that records each request body and answers with the next reply (a status instead fails the request). */
function fakeFetch(replies: unknown[]): { fetch: typeof fetch; bodies: Record<string, unknown>[] } {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const reply = replies.shift();
    if (typeof reply === "number")
      return new Response(JSON.stringify({ error: { message: "overloaded", type: "server_error" } }), {
        status: reply,
      });
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies };
}

const completion = (message: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o",
  choices: [
    {
      index: 0,
      finish_reason: "stop",
      logprobs: null,
      message: { role: "assistant", content: null, refusal: null, ...message },
    },
  ],
});
const callOf = (id: string, name: string, args: object) =>
  completion({ tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] });
const readFile: ChatCompletionFunctionTool = {
  type: "function",
  function: {
    name: "readFile",
    description: "Reads a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
};
const filler = (n: number) =>
  Array.from({ length: n < 3 ? 500 : 100 }, (_, i) => `file ${n} line ${i} text`).join("\n"); // the three oldest larger: clearing batches pay for the cache they break

async function agentChat() {
  const loom = await Loom.open();
  const chats = loom.user("u");
  const chat = await chats.create({ model: "gpt-4o", system: "You read files." });
  await chat.append({ role: "user", content: "Summarize the files." });
  return { loom, chats, chat };
}

describe("Chat Completions", () => {
  it("six files read, the older results sent cleared, one read back by the read tool, a bad read answered with an error", async () => {
    const { fetch, bodies } = fakeFetch([
      ...[0, 1, 2, 3, 4, 5].map((n) => callOf(`call_${n}`, "readFile", { path: String(n) })),
      callOf("call_r", "readToolResult", { id: 2 }),
      callOf("call_x", "readToolResult", { id: 1 }),
      completion({ content: "Six files, read." }),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const { loom, chat } = await agentChat();
    const loop = openAILoop(chat, { tools: [readFile] });
    const answered: number[] = [];
    for (let step = 0; step < 12; step++) {
      const answer = await client.chat.completions.create({ model: "gpt-4o", ...(await loop.context()) });
      const calls = await loop.step(answer, (call) =>
        filler(Number((JSON.parse(call.function.arguments) as { path: string }).path)),
      );
      answered.push(calls);
      if (calls === 0) break;
    }
    expect(answered).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(bodies[0]!.tools).toEqual([readFile, openAIReadTool(chat).definition]);
    // The request after the sixth result: the three oldest cleared, naming their messages.
    const sent = (bodies[6]!.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool")
      .map((m) => m.content);
    expect(sent.slice(0, 3)).toEqual(
      [2, 4, 6].map((id) => expect.stringMatching(new RegExp(`^\\[cleared: message ${id}\\]$`))),
    );
    expect(sent.slice(3)).toEqual([3, 4, 5].map(filler));
    const results = chat
      .path()
      .filter((m) => m.role === "tool")
      .map((m) => m.content);
    expect(results.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5].map(filler)); // kept whole in the chat
    expect(results[6]).toBe(`[tool result of message 2, page 1 of 1]\n${filler(0)}`);
    expect(results[7]).toBe(
      "Error: Message 1 is an assistant message, not a tool result; give the id a cleared or cut tool result's marker names.",
    );
    expect(chat.path().at(-1)!.content).toBe("Six files, read.");
    await loom.close();
  });

  it("a tool that throws: its call and the others left open are answered cancelled, the error thrown; the next turn is taken", async () => {
    const { fetch } = fakeFetch([
      completion({
        tool_calls: [1, 2].map((n) => ({
          id: `call_${n}`,
          type: "function",
          function: { name: "readFile", arguments: `{"path":"${n}"}` },
        })),
      }),
      500,
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const { loom, chat } = await agentChat();
    const loop = openAILoop(chat, { tools: [readFile] });
    const answer = await client.chat.completions.create({ model: "gpt-4o", ...(await loop.context()) });
    await expect(
      loop.step(answer, () => {
        throw new Error("permission denied");
      }),
    ).rejects.toThrow("permission denied");
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Summarize the files."],
      ["assistant", ""],
      ["tool", "cancelled"],
      ["tool", "cancelled"],
    ]);
    await chat.append({ role: "user", content: "Try again." });
    // A model error: nothing is left open either.
    await expect(client.chat.completions.create({ model: "gpt-4o", ...(await loop.context()) })).rejects.toThrow();
    await chat.append({ role: "assistant", content: "Sorry." });
    await loom.close();
  });
});

describe("Responses", () => {
  it("function_call items run, their outputs sent as function_call_output items, the tools in the Responses shape", async () => {
    const response = (output: unknown[]) => ({
      id: "resp_1",
      object: "response",
      created_at: 1,
      model: "gpt-4o",
      status: "completed",
      output,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
    });
    const { fetch, bodies } = fakeFetch([
      response([
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_9",
          name: "readFile",
          arguments: '{"path":"1"}',
          status: "completed",
        },
      ]),
      response([
        {
          type: "function_call",
          id: "fc_2",
          call_id: "call_10",
          name: "readToolResult",
          arguments: '{"id":2,"page":2}',
          status: "completed",
        },
      ]),
      response([
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Read.", annotations: [] }],
        },
      ]),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const { loom, chat } = await agentChat();
    const tool: FunctionTool = {
      type: "function",
      name: "readFile",
      description: "Reads a file",
      parameters: { type: "object", properties: {} },
      strict: false,
    };
    const loop = openAILoop(chat, { format: "responses", tools: [tool] });
    for (let step = 0; step < 5; step++) {
      const answer = await client.responses.create({ model: "gpt-4o", ...(await loop.context()) });
      if ((await loop.step(answer, (call) => (call.name === "readFile" ? filler(1) : "?"))) === 0) break;
    }
    expect(bodies[0]!.tools).toEqual([tool, openAIReadTool(chat, { format: "responses" }).definition]);
    expect((bodies[1]!.input as { type?: string }[]).map((i) => i.type ?? "message")).toEqual([
      "message",
      "message",
      "function_call",
      "function_call_output",
    ]);
    expect(chat.get(4).content).toBe("Error: Tool result 2 has 1 page; ask for a page from 1 to 1.");
    expect(chat.path().at(-1)!.content).toBe("Read.");
    await loom.close();
  });
});

describe("bad input", () => {
  it("is refused with a code before anything is appended", async () => {
    const { loom, chats, chat } = await agentChat();
    const before = await snapshot(chat, chats);
    const bads = [
      { tools: [{ type: "function", name: "responsesShape", parameters: {} }] },
      { format: "responses", tools: [readFile] },
      { tools: [{ ...readFile, function: { ...readFile.function, name: "readToolResult" } }] },
      { tools: readFile },
      { format: "anthropic" },
      { readTool: { maxTokens: 2 } },
      { maxMessages: 0 },
      { cacheControl: true },
      { input: "hi" },
    ];
    for (const bad of bads) expectThrowCode(() => openAILoop(chat, bad as never), "INVALID_ARGUMENT");
    expectThrowCode(() => openAILoop({} as never), "INVALID_ARGUMENT");
    for (const bad of [{ format: "anthropic" }, { maxTokens: 4 }, { pages: 2 }, "responses"])
      expectThrowCode(() => openAIReadTool(chat, bad as never), "INVALID_ARGUMENT");
    const loop = openAILoop(chat, { tools: [readFile] });
    await expectRejectCode(() => loop.step(callOf("call_1", "readFile", {}), undefined as never), "INVALID_ARGUMENT");
    await expectRejectCode(() => loop.step({ choices: [] } as never, () => "x"), "INVALID_ARGUMENT");
    await expectRejectCode(() => loop.step({ role: "user", content: "hi" }, () => "x"), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => loop.step([{ role: "assistant", content: "a" }] as never, () => "x"),
      "INVALID_ARGUMENT",
    );
    expect(await snapshot(chat, chats)).toEqual(before);
    // With readTool: false, a tool may take the name, and none is added.
    const own = { ...readFile, function: { ...readFile.function, name: "readToolResult" } };
    expect((await openAILoop(chat, { tools: [own], readTool: false }).context()).tools).toEqual([own]);
    expect((await openAILoop(chat, { readTool: false }).context()).tools).toBeUndefined();
    await loom.close();
  });
});
