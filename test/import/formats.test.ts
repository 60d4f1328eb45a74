// Each format on small files written for the case: branches, heads, roles, tool calls and
// results, multimodal parts and their placeholders, skipped nodes.
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { parseExport, parseExportStream } from "../../src/import/index.js";
import { chatgptSample } from "./samples.js";
import { actualView } from "./tree-check.js";

describe("ChatGPT", () => {
  it("keeps branches, maps tool calls and results, turns images into counted placeholders", () => {
    const parsed = parseExport(JSON.stringify([chatgptSample()]), { now: 0 });
    const exp = parsed.chats[0]!;
    const report = parsed.reports[0]!;
    expect(report.skipped).toEqual({ "no message": ["root"], hidden: ["sys"], reasoning: ["t1"] });
    expect(report.placeholders).toEqual({ image: 1 });
    expect(report.toolResultsAsUser).toBe(1);
    expect(report.ids).toEqual({ u1: 0, call: 1, out: 2, a1: 3, web: 4, u1b: 5, a2: 6 });
    expect(exp.messages.map((m) => [m.id, m.parentId, m.role])).toEqual([
      [0, null, "user"],
      [1, 0, "assistant"],
      [2, 1, "tool"],
      [3, 2, "assistant"],
      [4, 3, "user"],
      [5, null, "user"],
      [6, 5, "assistant"],
    ]);
    expect(exp.messages[0]!.content).toBe("[image]\nWhat is in this chart?");
    expect(exp.messages[1]).toMatchObject({
      content: "",
      toolCalls: [
        { id: "call_call", type: "function", function: { name: "python", arguments: JSON.stringify("print(6 * 7)") } },
      ],
    });
    expect(exp.messages[2]).toMatchObject({ content: "42", toolCallId: "call_call", name: "python" });
    expect(exp.messages[4]).toMatchObject({ content: "Page\nquoted", name: "browser", role: "user" });
    expect(exp.head).toBe(6);
    expect(exp.chat).toMatchObject({
      title: "Plot it",
      model: "gpt-4o",
      createdAt: 1700000000000,
      updatedAt: 1700000100000,
    });
    expect(exp.messages[0]!.createdAt).toBe(1700000001000);
    expect(actualView(exp).leaves).toBe(2);
  });

  it("its tools' names and texts become what providers take (dalle.text2im: dalle_text2im; code: a JSON string), and a chat imports them", async () => {
    const conv = chatgptSample();
    const m = conv.mapping as Record<string, { message: Record<string, any> }>;
    m.call!.message.recipient = "dalle.text2im";
    m.out!.message.author.name = "dalle.text2im";
    m.call!.message.content = { content_type: "text", parts: ['{"prompt":"a chart","size":"1024x1024"}'] };
    m.web!.message.author.name = "web.run";
    const exp = parseExport(JSON.stringify([conv, chatgptSample()]), { now: 0 }).chats;
    expect(exp[0]!.messages[1]!.toolCalls![0]!.function).toEqual({
      name: "dalle_text2im",
      arguments: '{"prompt":"a chart","size":"1024x1024"}',
    });
    expect(exp[0]!.messages[2]).toMatchObject({ name: "dalle_text2im", toolCallId: "call_call" });
    expect(exp[0]!.messages[4]).toMatchObject({ name: "web_run", role: "user" });
    expect(JSON.parse(exp[1]!.messages[1]!.toolCalls![0]!.function.arguments)).toBe("print(6 * 7)");
    const loom = await Loom.open({ engine: "js" });
    for (const chat of exp) expect((await loom.user("u").import(chat)).messageCount).toBe(chat.messages.length);
    await loom.close();
  });

  it("a head on a left-out node moves up to its nearest kept ancestor", () => {
    const conv = chatgptSample();
    conv.current_node = "t1";
    expect(parseExport(JSON.stringify([conv])).chats[0]!.head).toBe(0);
  });
});

describe("Open WebUI", () => {
  const chat = {
    id: "w1",
    title: "Colors",
    created_at: 1710000000,
    updated_at: 1710000500,
    chat: {
      models: ["llama3:8b"],
      params: { system: "Be brief." },
      history: {
        currentId: "b2",
        messages: {
          q: {
            id: "q",
            parentId: null,
            childrenIds: ["a", "b"],
            role: "user",
            content: "Sky color?",
            timestamp: 1710000001,
            files: [{ type: "image", url: "data:..." }],
          },
          a: { id: "a", parentId: "q", childrenIds: [], role: "assistant", content: "Blue.", timestamp: 1710000002 },
          b: {
            id: "b",
            parentId: "q",
            childrenIds: ["q2"],
            role: "assistant",
            content: "Usually blue.",
            timestamp: 1710000003,
          },
          q2: {
            id: "q2",
            parentId: "b",
            childrenIds: ["b2"],
            role: "user",
            content: [{ type: "text", text: "And at night?" }],
            timestamp: 1710000004,
          },
          b2: {
            id: "b2",
            parentId: "q2",
            childrenIds: [],
            role: "assistant",
            content: "Black.",
            timestamp: 1710000005,
          },
        },
      },
    },
  };
  it("reads history.messages, the current id, the system prompt and files", () => {
    const parsed = parseExport(JSON.stringify([chat]), { now: 0 });
    expect(parsed.format).toBe("openwebui");
    const exp = parsed.chats[0]!;
    expect(exp.chat).toMatchObject({
      title: "Colors",
      system: "Be brief.",
      model: "gpt-4o",
      createdAt: 1710000000000,
      updatedAt: 1710000500000,
    });
    expect(parsed.reports[0]!.sourceModel).toBe("llama3:8b");
    expect(actualView(exp)).toMatchObject({
      messages: 5,
      leaves: 2,
      head: ["user: Sky color?\n[image]", "assistant: Usually blue.", "user: And at night?", "assistant: Black."],
    });
    expect(parsed.reports[0]!.placeholders).toEqual({ image: 1 });
  });
  it("reads a bare chat object too", () => {
    expect(parseExport(JSON.stringify(chat.chat)).format).toBe("openwebui");
  });
});

describe("OpenAI JSONL", () => {
  const line = {
    messages: [
      { role: "system", content: "Use tools." },
      {
        role: "user",
        content: [
          { type: "text", text: "Weather in Paris?" },
          { type: "image_url", image_url: { url: "https://x" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "18C" },
      { role: "assistant", content: "18 degrees.", name: "bot" },
    ],
  };
  it("one chat per line, tool calls and results kept", async () => {
    const data = [line, { messages: [{ role: "user", content: "hi" }] }].map((l) => JSON.stringify(l)).join("\n");
    const parsed = parseExport(data, { now: 5 });
    expect(parsed.format).toBe("openai");
    expect(parsed.chats.length).toBe(2);
    const exp = parsed.chats[0]!;
    expect(exp.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(exp.messages[0]!.priority).toBe("critical");
    expect(exp.messages[1]!.content).toBe("Weather in Paris?\n[image]");
    expect(exp.messages[2]!.toolCalls).toEqual(line.messages[2]!.tool_calls);
    expect(exp.messages[3]).toMatchObject({ toolCallId: "c1", content: "18C" });
    expect(exp.messages[4]!.name).toBe("bot");
    expect(exp.head).toBe(4);
    expect(exp.chat.title).toBe("Weather in Paris?");
    expect(exp.messages.every((m) => m.createdAt === 5)).toBe(true);
    // The same, streamed as bytes cut inside a multi-byte character.
    const bytes = new TextEncoder().encode(data.replace("hi", "héllo 😀"));
    const chunks = [
      bytes.slice(0, 301),
      bytes.slice(301, bytes.length - 9),
      bytes.slice(bytes.length - 9, bytes.length - 8),
      bytes.slice(bytes.length - 8),
    ];
    const streamed = await parseExportStream(chunks, { now: 5 });
    expect(streamed.chats[1]!.messages[0]!.content).toBe("héllo 😀");
  });
  it("one message a line makes one chat", () => {
    const data = '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n';
    const exp = parseExport(data).chats[0]!;
    expect(actualView(exp).head).toEqual(["user: a", "assistant: b"]);
  });
});

describe("ShareGPT", () => {
  it("function_call and observation turns become a call and its result", () => {
    const conv = {
      system: "You can call tools.",
      conversations: [
        { from: "human", value: "Time?" },
        { from: "function_call", value: '{"name":"clock","arguments":{}}' },
        { from: "observation", value: "12:00" },
        { from: "gpt", value: "Noon." },
      ],
    };
    const exp = parseExport(JSON.stringify([conv, conv])).chats[1]!;
    expect(exp.chat.system).toBe("You can call tools.");
    expect(exp.messages[1]!.toolCalls).toEqual([
      { id: "call_1", type: "function", function: { name: "clock", arguments: "{}" } },
    ]);
    expect(exp.messages[2]).toMatchObject({ role: "tool", toolCallId: "call_1" });
    expect(exp.head).toBe(3);
  });
});

describe("LibreChat flat export", () => {
  it("links by parentMessageId, tells users by isCreatedByUser, head on the last message", () => {
    const conv = {
      conversationId: "l1",
      title: "T",
      messages: [
        {
          messageId: "m1",
          parentMessageId: "00000000-0000-0000-0000-000000000000",
          isCreatedByUser: true,
          sender: "User",
          text: "hi",
          createdAt: "2024-05-01T10:00:00Z",
        },
        {
          messageId: "m2",
          parentMessageId: "m1",
          isCreatedByUser: false,
          sender: "GPT",
          text: "hello",
          createdAt: "2024-05-01T10:00:01Z",
        },
        {
          messageId: "m3",
          parentMessageId: "m1",
          isCreatedByUser: false,
          sender: "GPT",
          text: "",
          content: [{ type: "text", text: { value: "hey" } }],
          createdAt: "2024-05-01T10:00:02Z",
        },
      ],
    };
    const exp = parseExport(JSON.stringify(conv)).chats[0]!;
    expect(actualView(exp)).toMatchObject({ messages: 3, leaves: 2, head: ["user: hi", "assistant: hey"] });
    expect(exp.messages[0]!.createdAt).toBe(Date.parse("2024-05-01T10:00:00Z"));
  });
});
