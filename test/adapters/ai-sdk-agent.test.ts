// chatLoop as an agent (issue 31 items 2, 4 and 7, issue 32 item 6), with the AI SDK's own mock
// model: older tool results cleared by default, the read tool offered and counted, a 150k-token
// result on a 128k model read through the cut and the read tool with no option set, and a failed
// step that never leaves the chat refusing the next turn.
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { chatLoop } from "../../src/ai-sdk.js";
import { expectRejectCode, expectThrowCode } from "../helpers.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const done = (text: string) =>
  ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }) as never;
const calls = (...list: [string, string, unknown][]) =>
  ({
    content: list.map(([toolCallId, toolName, input]) => ({
      type: "tool-call",
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  }) as never;
const schema = jsonSchema<{ path: string }>({
  type: "object",
  properties: { path: { type: "string" } },
  required: ["path"],
});
/** The text of every tool result in a prompt, in order. */
const results = (prompt: readonly ModelMessage[]) =>
  prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) => (p.type === "tool-result" ? [(p.output as { value: string }).value] : []))
      : [],
  );

async function agentChat(options: { store?: Store; toolResults?: object } = {}) {
  const loom = await Loom.open(options.store ? { store: options.store } : {});
  const chat = await loom.user("u").create({
    model: "gpt-4o",
    system: "You read files.",
    ...(options.toolResults ? { toolResults: options.toolResults } : {}),
  });
  await chat.append({ role: "user", content: "Summarize the files." });
  return { loom, chat };
}

describe("a 150k-token tool result on a 128k model, no option set (item 4)", () => {
  it("the next step sees the result cut around a marker naming its message, and the read tool gives the part left out", async () => {
    const rows = Array.from(
      { length: 16_000 },
      (_, i) => `row ${i}: id=${(i * 7919) % 100_003} status=${i % 3 ? "ok" : "retry"} took ${i % 97}ms`,
    );
    const page = rows.join("\n");
    expect(page.length).toBeGreaterThan(600_000);
    const fetchPage = tool({ description: "Fetches a page", inputSchema: schema, execute: async () => page });
    const { loom, chat } = await agentChat();
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(["c1", "fetchPage", { path: "/log" }]),
        calls(["c2", "readToolResult", { id: 2, page: 2 }]),
        done("The log shows retries every third row."),
      ],
    });
    const loop = chatLoop(chat, { tools: { fetchPage } });
    const result = await generateText({
      model,
      tools: loop.tools,
      stopWhen: stepCountIs(5),
      ...(await loop.context()),
      prepareStep: loop.prepareStep,
    });
    await loop.finish(result);
    expect(chat.get(2).content).toBe(page); // the chat keeps it whole
    expect(chat.get(2).tokens).toBeGreaterThan(150_000);
    // Step 2: the result cut to its head and tail, the marker naming message 2, within the window.
    const [cut] = results(model.doGenerateCalls[1]!.prompt);
    expect(cut!.startsWith("row 0: ")).toBe(true);
    expect(cut!.endsWith(rows.at(-1)!)).toBe(true);
    expect(cut).toMatch(/\[\.\.\. [\d,]+ of [\d,]+ tokens of this tool result \(message 2\) omitted \.\.\.\]/);
    const { counter, limit } = chat.agentSettings();
    expect(counter.count(cut!)).toBeLessThanOrEqual(limit / 4); // the default cut: a quarter of what a request may hold
    expect(counter.count(cut!)).toBeGreaterThan(limit / 5);
    // Step 3: the read tool's page 2, which starts where page 1 ends, from the chat.
    const read = results(model.doGenerateCalls[2]!.prompt).at(-1)!;
    expect(read).toMatch(/^\[tool result of message 2, page 2 of \d+\]\n+row \d+: /);
    expect(page.includes(read.slice(read.indexOf("\n") + 1))).toBe(true);
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    await loom.close();
  }, 60_000);
});

describe("an agent's defaults (item 7)", () => {
  const filler = (n: number) =>
    Array.from({ length: n < 3 ? 500 : 100 }, (_, i) => `file ${n} line ${i} text`).join("\n"); // the three oldest larger: clearing batches pay for the cache they break
  const readFile = tool({
    description: "Reads a file",
    inputSchema: schema,
    execute: async ({ path }) => filler(Number(path)),
  });
  const script = () => [
    ...Array.from({ length: 6 }, (_, i) => calls([`c${i}`, "readFile", { path: String(i) }])),
    done("Six files read."),
  ];

  it("older tool results are sent cleared, unless the loop or the chat's settings say otherwise", async () => {
    const run = async (chatResults?: object, loopResults?: object) => {
      const { loom, chat } = await agentChat(chatResults ? { toolResults: chatResults } : {});
      const model = new MockLanguageModelV4({ doGenerate: script() });
      const loop = chatLoop(chat, { tools: { readFile }, ...(loopResults ? { toolResults: loopResults } : {}) });
      const result = await generateText({
        model,
        tools: loop.tools,
        stopWhen: stepCountIs(10),
        ...(await loop.context()),
        prepareStep: loop.prepareStep,
      });
      await loop.finish(result);
      expect(
        chat
          .path()
          .filter((m) => m.role === "tool")
          .map((m) => m.content),
      ).toEqual([0, 1, 2, 3, 4, 5].map(filler)); // all kept whole
      await loom.close();
      return results(model.doGenerateCalls.at(-1)!.prompt).map((r) =>
        r.startsWith("[cleared: message ") ? "cleared" : "whole",
      );
    };
    expect(await run()).toEqual(["cleared", "cleared", "cleared", "whole", "whole", "whole"]);
    expect(await run(undefined, { clear: false })).toEqual(Array(6).fill("whole"));
    expect(await run({ clear: { keepNewest: 1, atLeast: 0 } })).toEqual([...Array(5).fill("cleared"), "whole"]);
    expect(await run({ clear: false }, { clear: { keepNewest: 4, atLeast: 0 } })).toEqual([
      "cleared",
      "cleared",
      ...Array(4).fill("whole"),
    ]);
  });

  it("the read tool is offered and counted; a call the chat refuses goes back to the model as an error, and the loop goes on", async () => {
    const { loom, chat } = await agentChat();
    const model = new MockLanguageModelV4({
      doGenerate: [calls(["c1", "readToolResult", { id: 0 }]), done("Nothing to read.")],
    });
    const loop = chatLoop(chat, { tools: { readFile } });
    expect(Object.keys(loop.tools)).toEqual(["readFile", "readToolResult"]);
    const result = await generateText({
      model,
      tools: loop.tools,
      stopWhen: stepCountIs(5),
      ...(await loop.context()),
      prepareStep: loop.prepareStep,
    });
    await loop.finish(result);
    expect(model.doGenerateCalls[0]!.tools!.map((t) => t.name)).toEqual(["readFile", "readToolResult"]);
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Summarize the files."],
      ["assistant", ""],
      [
        "tool",
        "Error: Message 0 is a user message, not a tool result; give the id a cleared or cut tool result's marker names.",
      ],
      ["assistant", "Nothing to read."],
    ]);
    expect(Object.keys(chatLoop(chat, { readTool: false }).tools)).toEqual([]);
    // Counted: on a small window the read tool's definition leaves room for fewer messages.
    const small = await (await Loom.open())
      .user("u")
      .create({ model: { name: "tiny-agent", contextWindow: 900, sizeClass: "tiny", tokensPerChar: 0.25 } });
    for (let i = 0; i < 30; i++) {
      await small.append({ role: "user", content: `question ${i} ${"words ".repeat(8)}` });
      await small.append({ role: "assistant", content: `answer ${i} ${"words ".repeat(8)}` });
    }
    const without = await chatLoop(small, { readTool: false }).context();
    const offered = await chatLoop(small).context();
    expect(offered.messages.length).toBeLessThan(without.messages.length);
    // Refused at chatLoop(), nothing appended: a tool of the read tool's name, bad readTool values, tools that are no ToolSet.
    expectThrowCode(() => chatLoop(chat, { tools: { readToolResult: readFile } }), "INVALID_ARGUMENT");
    for (const bad of [
      { readTool: "yes" },
      { readTool: { maxTokens: 1 } },
      { readTool: { pages: 2 } },
      { tools: [readFile] },
      { tools: null },
    ]) {
      expectThrowCode(() => chatLoop(chat, bad as never), "INVALID_ARGUMENT");
    }
    expect(chatLoop(chat, { tools: { readToolResult: readFile }, readTool: false }).tools).toHaveProperty(
      "readToolResult",
    );
    await loom.close();
  });
});

describe("a failed step leaves a chat that takes the next turn (issue 32 item 6)", () => {
  const read = tool({ description: "Reads a file", inputSchema: schema, execute: async () => "contents" });

  it("a tool that throws is answered with its error, and the loop goes on", async () => {
    const { loom, chat } = await agentChat();
    const broken = tool({
      description: "Reads a file",
      inputSchema: schema,
      execute: async (): Promise<string> => {
        throw new Error("permission denied");
      },
    });
    const model = new MockLanguageModelV4({
      doGenerate: [calls(["c1", "read", { path: "a" }]), done("I cannot read it.")],
    });
    const loop = chatLoop(chat, { tools: { read: broken } });
    await loop.finish(
      await generateText({
        model,
        tools: loop.tools,
        stopWhen: stepCountIs(5),
        ...(await loop.context()),
        prepareStep: loop.prepareStep,
      }),
    );
    expect(chat.get(2).content).toMatch(/^Error: (?!Error: ).*permission denied$/); // marked once (the SDK's text of a thrown Error reads "Error: ...")
    await chat.append({ role: "user", content: "Try again." });
    await loom.close();
  });

  it("a model error mid-loop: the steps before it are kept whole", async () => {
    const { loom, chat } = await agentChat();
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        if (step++ === 0) return calls(["c1", "read", { path: "a" }]);
        throw new Error("overloaded");
      },
    });
    const loop = chatLoop(chat, { tools: { read } });
    await expect(
      generateText({
        model,
        tools: loop.tools,
        maxRetries: 0,
        ...(await loop.context()),
        stopWhen: stepCountIs(5),
        prepareStep: loop.prepareStep,
      }),
    ).rejects.toThrow("overloaded");
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    await chat.append({ role: "user", content: "Try again." });
    await loom.close();
  });

  it("a call left without a result (a tool with no execute) is answered cancelled at finish", async () => {
    const { loom, chat } = await agentChat();
    const ask = tool({ description: "Asks the user", inputSchema: schema }); // answered by the client, never here
    const model = new MockLanguageModelV4({ doGenerate: [calls(["c1", "ask", { path: "which file?" }])] });
    const loop = chatLoop(chat, { tools: { ask } });
    expect(
      await loop.finish(
        await generateText({
          model,
          tools: loop.tools,
          stopWhen: stepCountIs(5),
          ...(await loop.context()),
          prepareStep: loop.prepareStep,
        }),
      ),
    ).toBe(2);
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Summarize the files."],
      ["assistant", ""],
      ["tool", "cancelled"],
    ]);
    await chat.append({ role: "user", content: "The README." });
    await loom.close();
  });

  it("an append that fails part way (the store refuses the tool result) answers the open call, then throws", async () => {
    const inner = memoryStore();
    let failTool = true;
    const store: Store = {
      ...inner,
      name: "flaky-tool",
      appendMessage({ userId: user, chatId: id, message, head, updatedAt: at, key }) {
        if (message.role === "tool" && failTool) {
          failTool = false;
          throw new Error("disk full");
        }
        return inner.appendMessage({ userId: user, chatId: id, message, head, updatedAt: at, key });
      },
    };
    const { loom, chat } = await agentChat({ store });
    const model = new MockLanguageModelV4({ doGenerate: [calls(["c1", "read", { path: "a" }]), done("Read.")] });
    const loop = chatLoop(chat, { tools: { read } });
    await expect(
      generateText({
        model,
        tools: loop.tools,
        ...(await loop.context()),
        stopWhen: stepCountIs(5),
        prepareStep: loop.prepareStep,
      }),
    ).rejects.toMatchObject({ code: "STORE_FAILED" });
    expect(chat.path().map((m) => [m.role, m.content])).toEqual([
      ["user", "Summarize the files."],
      ["assistant", ""],
      ["tool", "cancelled"],
    ]);
    await chat.append({ role: "user", content: "Try again." });
    await loom.close();
  });
});

it("chatLoop refuses what is no chat", async () => {
  expectThrowCode(() => chatLoop({ append() {}, buildContext() {} } as never), "INVALID_ARGUMENT");
  await expectRejectCode(async () => chatLoop(null as never), "INVALID_ARGUMENT");
});
