// The useChat route helper with the AI SDK's real parts: its chat client (AbstractChat, what
// useChat wraps) posting through DefaultChatTransport to a route of chatTurn + streamText +
// toUIMessageStreamResponse, in this process (the transport's fetch calls the route).
import {
  DefaultChatTransport,
  jsonSchema,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { VanillaChat } from "../../examples/chat-app/client/chat.js";
import { cannedModel } from "../../examples/chat-app/model.js";
import { Loom, type Chat } from "../../src/index.js";
import {
  chatTurn,
  switchBranch,
  toUIMessages,
  type ChatTurn,
  type ChatTurnOptions,
  type ChatUIMessage,
} from "../../src/ai-sdk.js";
import { expectRejectCode, snapshot } from "../helpers.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A gate: a promise the test resolves. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** A route as the README writes it, keeping each turn for the test to look at. */
function app(
  model: LanguageModel,
  options: ChatTurnOptions = { create: { model: "gpt-4o" } },
  tools?: Parameters<typeof streamText>[0]["tools"],
) {
  const loom = Loom.open();
  const turns: ChatTurn[] = [];
  const route = async (request: Request): Promise<Response> => {
    const turn = await chatTurn((await loom).user("alice"), await request.json(), options);
    turns.push(turn);
    const result = streamText({ model, ...turn.context, ...(tools ? { tools, stopWhen: stepCountIs(5) } : {}) });
    return result.toUIMessageStreamResponse(turn.stream);
  };
  const client = (id: string, messages: ChatUIMessage[] = []) =>
    new VanillaChat<ChatUIMessage>({
      id,
      messages,
      transport: new DefaultChatTransport({
        api: "http://app/api/chat",
        fetch: (url, init) => route(new Request(url, init)),
      }),
    });
  const stored = async (id: string): Promise<Chat> => (await loom).user("alice").open(id);
  return { loom, turns, route, client, stored };
}

const textOf = (m: ChatUIMessage) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

describe("chatTurn: a useChat backend in one call", () => {
  it("a message, its streamed answer under ctxloom's id, a regeneration as a sibling, branches switched from the UI", async () => {
    const { turns, client, stored } = app(cannedModel(0));
    const ui = client("chat-1");
    await ui.sendMessage({ text: "Where to eat in Lisbon?" });
    const chat = await stored("chat-1");
    expect(chat.path().map((m) => [m.id, m.role])).toEqual([
      [0, "user"],
      [1, "assistant"],
    ]);
    const answer = ui.messages[1]!;
    expect(answer.id).toBe("1"); // the id it has in the chat
    // Its place, and its question's: what a reload draws on the user's message, which has the client's id until then.
    expect(answer.metadata).toEqual({
      messageId: 1,
      parentId: 0,
      branch: { index: 0, count: 1, ids: [1] },
      question: { messageId: 0, parentId: null, branch: { index: 0, count: 1, ids: [0] } },
    });
    expect(textOf(answer)).toBe(chat.get(1).content);
    expect(textOf(answer)).toMatch(/^Answer 1 to “Where to eat in Lisbon\?”/);
    expect(await turns[0]!.saved()).toEqual([chat.get(1)]);

    await ui.regenerate();
    expect(chat.messageCount).toBe(3); // the user's message was not appended again
    expect(chat.children(0)).toEqual([1, 2]);
    expect(ui.messages.map((m) => m.id)).toEqual([ui.messages[0]!.id, "2"]);
    expect(ui.messages[1]!.metadata!.branch).toEqual({ index: 1, count: 2, ids: [1, 2] });
    expect(textOf(ui.messages[1]!)).toMatch(/^Answer 2 /);

    // "‹ 1 / 2": the UI asks for the other answer and shows what the server sends.
    ui.messages = await switchBranch(chat, 1);
    expect(ui.messages.map((m) => m.id)).toEqual(["0", "1"]);
    expect(ui.messages[1]!.metadata!.branch).toEqual({ index: 0, count: 2, ids: [1, 2] });
    await ui.sendMessage({ text: "And for dessert?" });
    expect(chat.path().map((m) => m.id)).toEqual([0, 1, 3, 4]); // on from the answer the UI showed
    // What a reload draws is what the UI shows (the user's message then has the chat's id).
    const drawn = toUIMessages(chat);
    expect(drawn.map(textOf)).toEqual(ui.messages.map(textOf));
    expect(drawn.map((m) => m.id)).toEqual(["0", "1", "3", "4"]);
    const { question, ...place } = ui.messages[3]!.metadata!;
    expect(drawn.map((m) => m.metadata)).toEqual([drawn[0]!.metadata, drawn[1]!.metadata, question, place]);
  });

  it("after a reload (the client restored from toUIMessages), the conversation goes on where the UI is", async () => {
    const { client, stored } = app(cannedModel(0));
    const first = client("chat-2");
    await first.sendMessage({ text: "one" });
    await first.sendMessage({ text: "two" });
    const chat = await stored("chat-2");
    const restored = client("chat-2", toUIMessages(chat));
    expect(restored.messages.map((m) => m.id)).toEqual(["0", "1", "2", "3"]);
    await restored.sendMessage({ text: "three" });
    expect(chat.path().map((m) => m.content.slice(0, 5))).toEqual(["one", "Answe", "two", "Answe", "three", "Answe"]);
    expect(chat.messageCount).toBe(6);
  });

  it("a multi-step answer (two tool steps, then the text) is one UIMessage, stored step by step, drawn again as one", async () => {
    const step = (chunks: unknown[]) => ({
      stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, ...chunks] as never[] }),
    });
    const call = (id: string, city: string) =>
      step([
        { type: "tool-call", toolCallId: id, toolName: "weather", input: JSON.stringify({ city }) },
        { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
      ]);
    const text = (t: string) =>
      step([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: t },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
      ]);
    const script = [call("c1", "Lisbon"), call("c2", "Porto"), text("Sunny in both.")];
    const model = new MockLanguageModelV4({ doStream: async () => script.shift() ?? text("You are welcome.") });
    const weather = tool({
      description: "The weather in a city",
      inputSchema: jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }) => ({ city, sky: "sunny" }),
    });
    const { client, stored } = app(
      model,
      { create: { model: "gpt-4o" }, context: { tools: { weather } } },
      { weather },
    );
    const ui = client("chat-3");
    await ui.sendMessage({ text: "Weather in Lisbon and Porto?" });
    expect(ui.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const chat = await stored("chat-3");
    expect(chat.path().map((m) => [m.id, m.role, m.toolCalls?.[0]?.function.name ?? m.content])).toEqual([
      [0, "user", "Weather in Lisbon and Porto?"],
      [1, "assistant", "weather"],
      [2, "tool", '{"city":"Lisbon","sky":"sunny"}'],
      [3, "assistant", "weather"],
      [4, "tool", '{"city":"Porto","sky":"sunny"}'],
      [5, "assistant", "Sunny in both."],
    ]);
    const drawn = toUIMessages(chat);
    expect(drawn.map((m) => [m.id, m.role])).toEqual([
      ["0", "user"],
      ["1", "assistant"],
    ]);
    const kinds = (m: ChatUIMessage) =>
      m.parts.map((p) =>
        p.type === "dynamic-tool" || p.type.startsWith("tool-") ? `tool:${(p as { state: string }).state}` : p.type,
      );
    // What the stream drew, step markers and all, is what toUIMessages draws again (the stream opens with a marker too).
    expect(kinds(drawn[1]!)).toEqual(kinds(ui.messages[1]!).slice(1));
    expect(ui.messages[1]!.id).toBe("1");
    // A next message goes under the answer's last step.
    await ui.sendMessage({ text: "Thanks" });
    expect(chat.get(6)).toMatchObject({ role: "user", content: "Thanks", parentId: 5 });
  });

  it("an edit from the UI (sendMessage with the message's id) goes beside the message it edits", async () => {
    const { client, stored } = app(cannedModel(0));
    const ui = client("chat-4");
    await ui.sendMessage({ text: "first try" });
    const userId = ui.messages[0]!.id; // the client's own id until a reload
    await ui.sendMessage({ text: "second try", messageId: userId });
    const chat = await stored("chat-4");
    expect(chat.roots()).toEqual([0, 2]);
    expect(chat.path().map((m) => m.content.slice(0, 10))).toEqual(["second try", "Answer 2 t"]);
    const drawn = toUIMessages(chat);
    expect(drawn[0]!.metadata!.branch).toEqual({ index: 1, count: 2, ids: [0, 2] });
  });

  it("a request sent twice (a retry after a lost response) appends the user's message once", async () => {
    const { route, stored } = app(cannedModel(0));
    const body = {
      id: "chat-5",
      trigger: "submit-message",
      messages: [{ id: "client-msg-1", role: "user", parts: [{ type: "text", text: "hello" }] }],
    };
    const post = () =>
      route(new Request("http://app/api/chat", { method: "POST", body: JSON.stringify(body) })).then((r) => r.text());
    await post();
    await post();
    const chat = await stored("chat-5");
    expect(chat.roots()).toEqual([0]);
    expect(chat.children(0)).toEqual([1, 2]); // two answers to one message
  });

  it("an answer stored under a later id than it streamed with (another writer appended first) is still found", async () => {
    const held = gate();
    const started = gate();
    const canned = cannedModel(0);
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        started.open();
        await held.wait;
        return canned.doStream(options);
      },
    });
    const { client, stored } = app(model);
    const ui = client("chat-6");
    const sending = ui.sendMessage({ text: "hi" });
    await started.wait;
    const chat = await stored("chat-6");
    await chat.append({ role: "user", content: "from another tab" }, { parent: null }); // takes id 1
    held.open();
    await sending;
    expect(ui.messages[1]!.id).toBe("1"); // streamed with the id it expected
    expect(chat.get(2)).toMatchObject({ role: "assistant", parentId: 0 }); // stored at 2
    await ui.sendMessage({ text: "again" });
    expect(chat.get(3)).toMatchObject({ role: "user", content: "again", parentId: 2 });
  });

  it("an answer stopped by the user keeps what was said; a tool call left without a result is answered 'cancelled'", async () => {
    const stop = gate();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          async start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "Half an ans" });
            await stop.wait;
            controller.close();
          },
        }),
      }),
    });
    const { client, stored, turns } = app(model);
    const ui = client("chat-7");
    const sending = ui.sendMessage({ text: "tell me" });
    while (ui.messages.length < 2 || textOf(ui.messages[1]!) === "") await new Promise((r) => setTimeout(r, 5));
    await ui.stop();
    stop.open();
    await sending;
    const saved = await turns[0]!.saved();
    expect(saved.map((m) => m.content)).toEqual(["Half an ans"]);
    const chat = await stored("chat-7");
    // A turn whose stream ends inside a tool step: the call is stored with a cancelled result.
    const turn = await chatTurn((await await app(model).loom).user("alice"), {
      id: "x",
      trigger: "submit-message",
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "go" }] }],
    });
    await turn.stream.onEnd({
      isContinuation: false,
      isAborted: true,
      outcome: { status: "aborted" },
      messages: [],
      responseMessage: {
        id: "1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "dynamic-tool", toolName: "f", toolCallId: "k", state: "input-available", input: {} },
          { type: "dynamic-tool", toolName: "g", toolCallId: "j", state: "input-streaming", input: undefined },
        ],
      },
    });
    expect((await turn.saved()).map((m) => [m.role, m.content, m.toolCallId])).toEqual([
      ["assistant", "", undefined],
      ["tool", "cancelled", "k"],
    ]);
    expect(chat.messageCount).toBe(2);
  });

  it("refuses what useChat does not send, and bad options, changing nothing", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    const chat = await chats.create({ id: "kept" });
    await chat.append({ role: "user", content: "q" });
    await chat.append({ role: "assistant", content: "a" });
    const before = await snapshot(chat, chats);
    const msg = (id: string, role: string, text = "x") => ({ id, role, parts: [{ type: "text", text }] });
    const bodies: unknown[] = [
      null,
      "x",
      { messages: [], trigger: "submit-message" },
      { id: "kept", messages: "x", trigger: "submit-message" },
      { id: "kept", messages: [msg("u", "user")], trigger: "resume-stream" },
      { id: "kept", messages: [msg("u", "user")], trigger: "submit-message", messageId: 3 },
      { id: "kept", messages: [], trigger: "submit-message" },
      { id: "kept", messages: [{ id: 1, role: "user", parts: [] }], trigger: "submit-message" },
      { id: "kept", messages: [msg("0", "user", "q"), msg("zz", "assistant")], trigger: "submit-message" }, // an answer the chat does not hold
      { id: "kept", messages: [msg("0", "user", "q"), msg("1", "assistant", "a")], trigger: "submit-message" }, // nothing to answer
    ];
    for (const body of bodies) await expectRejectCode(() => chatTurn(chats, body), "INVALID_ARGUMENT");
    const ok = { id: "kept", messages: [msg("u", "user")], trigger: "submit-message" };
    await expectRejectCode(() => chatTurn(chats, ok, { creat: {} } as never), "INVALID_ARGUMENT");
    await expectRejectCode(() => chatTurn(chats, ok, { reasoning: "maybe" as never }), "INVALID_ARGUMENT");
    await expectRejectCode(() => chatTurn(null as never, ok), "INVALID_ARGUMENT");
    await expectRejectCode(() => chatTurn(chats, { ...ok, id: "bad id!" }), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    await expectRejectCode(() => switchBranch(chat, 99), "UNKNOWN_MESSAGE");
    await expectRejectCode(() => switchBranch({} as never, 0), "INVALID_ARGUMENT");
    await loom.close();
  });
});
