// No useChat turn holds its chat forever: a route that fails after chatTurn (before or after it
// made the response), a response dropped unread, a turn given up with cancel(). The later
// requests on the chat, the same body sent again first, settle and do what they should; a turn
// whose answer is still streaming is still waited for. Real AI SDK parts: streamText with
// MockLanguageModelV4, toUIMessageStreamResponse, the chat client through DefaultChatTransport.
import { DefaultChatTransport, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { VanillaChat } from "../../examples/chat-app/client/chat.js";
import { cannedModel } from "../../examples/chat-app/model.js";
import { Loom } from "../../src/index.js";
import { chatTurn, toUIMessages, type ChatTurn, type ChatTurnOptions, type ChatUIMessage } from "../../src/ai-sdk.js";
import { expectRejectCode } from "../helpers.js";

/** A gate: a promise the test resolves. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** `promise`, or a failure naming `what` if it has not settled after 20 s (a turn waiting forever). */
async function settles<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} never settled`)), 20_000)),
  );
  try {
    return await Promise.race([promise, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** How the route fails this time: not at all, after chatTurn, or after making the response (which it drops). */
type Failure = "none" | "after-turn" | "after-response" | "after-response-cancelled";

/** The README's route, with a failure of the app's own where the test says, keeping each turn and each dropped response. */
function app(options: ChatTurnOptions = { create: { model: "gpt-4o" } }, model = cannedModel(0)) {
  const loom = Loom.open();
  const turns: ChatTurn[] = [];
  const dropped: Response[] = [];
  let failure: Failure = "none";
  const route = async (request: Request): Promise<Response> => {
    const turn = await chatTurn((await loom).user("alice"), await request.json(), options);
    turns.push(turn);
    if (failure === "after-turn") throw new Error("the model's constructor threw");
    const response = streamText({ model, ...turn.context }).toUIMessageStreamResponse(turn.stream);
    if (failure === "after-response" || failure === "after-response-cancelled") {
      dropped.push(response);
      if (failure === "after-response-cancelled") turn.cancel();
      throw new Error("a check of the app's own failed");
    }
    return response;
  };
  const post = (body: unknown) =>
    route(new Request("http://app/api/chat", { method: "POST", body: JSON.stringify(body) }));
  const client = (id: string, messages: ChatUIMessage[] = []) =>
    new VanillaChat<ChatUIMessage>({
      id,
      messages,
      transport: new DefaultChatTransport({
        api: "http://app/api/chat",
        fetch: (url, init) => route(new Request(url, init)),
      }),
    });
  const chats = async () => (await loom).user("alice");
  return { loom, turns, dropped, post, client, chats, fail: (f: Failure) => (failure = f) };
}

const userMessage = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });
const first = (chatId: string) => ({
  id: chatId,
  trigger: "submit-message",
  messages: [userMessage("client-1", "hello")],
});

describe("chatTurn: no turn holds its chat forever", () => {
  it("a route that fails between chatTurn and toUIMessageStreamResponse holds no one: the same body again, a new message, answered", async () => {
    const { post, client, chats, fail, turns } = app();
    fail("after-turn");
    await expect(post(first("c1"))).rejects.toThrow("constructor");
    fail("none");
    // The retry: the user's message is appended once, and answered.
    const text = await settles(
      post(first("c1")).then((r) => r.text()),
      "the retry",
    );
    expect(text).toContain("Answer");
    const chat = await (await chats()).open("c1");
    await turns[1]!.saved();
    expect(chat.roots()).toEqual([0]);
    expect(chat.children(0)).toEqual([1]);
    expect(chat.get(1)).toMatchObject({ role: "assistant", parentId: 0 });
    // A new message from the client as a reload draws it.
    const ui = client("c1", toUIMessages(chat));
    await settles(ui.sendMessage({ text: "and then?" }), "the next message");
    expect(chat.path().map((m) => [m.id, m.role])).toEqual([
      [0, "user"],
      [1, "assistant"],
      [2, "user"],
      [3, "assistant"],
    ]);
    expect(chat.get(2).content).toBe("and then?");
  });

  it("a response made and dropped unread holds the chat's later turns only until its stream has been silent for waitMs", async () => {
    const { post, chats, fail, turns } = app({ create: { model: "gpt-4o" }, waitMs: 200 });
    fail("after-response");
    await expect(post(first("c2"))).rejects.toThrow("own");
    fail("none");
    const t0 = Date.now();
    await settles(
      post(first("c2")).then((r) => r.text()),
      "the retry after a dropped response",
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150); // it waited for the dropped turn, while that one could still be alive
    const chat = await (await chats()).open("c2");
    expect(chat.roots()).toEqual([0]); // the user's message once
    expect((await turns[1]!.saved()).map((m) => m.role)).toEqual(["assistant"]);
    expect(chat.children(0)).toEqual([1]);
  });

  it("turn.cancel() releases the turn at once (whatever waitMs), and its stream, read after all, stores nothing", async () => {
    const { post, chats, fail, turns, dropped } = app({ create: { model: "gpt-4o" }, waitMs: 3_600_000 });
    fail("after-response-cancelled");
    await expect(post(first("c3"))).rejects.toThrow("own");
    fail("none");
    await settles(
      post(first("c3")).then((r) => r.text()),
      "the retry after a cancelled turn",
    );
    expect(await dropped[0]!.text()).toContain("Answer"); // the cancelled turn's stream runs to its end
    expect(await turns[0]!.saved()).toEqual([]);
    const chat = await (await chats()).open("c3");
    expect(chat.messageCount).toBe(2); // the user's message, the retry's answer
    expect(chat.children(0)).toEqual([1]);
    turns[0]!.cancel(); // again: nothing more
    const alice = await chats();
    for (const waitMs of [-1, 1.5, "10", 3_600_001, null]) {
      await expectRejectCode(() => chatTurn(alice, first("c3"), { waitMs } as never), "INVALID_ARGUMENT");
    }
    expect(chat.messageCount).toBe(2);
  });

  it("a turn whose answer is still streaming is waited for: the next request, which shows that answer, goes on once it is stored", async () => {
    const held = gate();
    const canned = cannedModel(0);
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        const { stream } = await canned.doStream(options);
        const reader = stream.getReader();
        let n = 0;
        return {
          stream: new ReadableStream({
            async pull(controller) {
              if (n++ === 3) await held.wait; // a few parts out, then the model pauses
              const { done, value } = await reader.read();
              if (done) controller.close();
              else controller.enqueue(value);
            },
          }),
        };
      },
    });
    const { post, chats, turns } = app({ create: { model: "gpt-4o" } }, model);
    const streaming = post(first("c4")).then((r) => r.text()); // read as a client would
    while (turns.length === 0) await new Promise((r) => setTimeout(r, 1));
    // The client stopped the answer and sends the next message, showing the answer under its id.
    const answer = {
      ...userMessage(String(turns[0]!.messageId), "Ans"),
      role: "assistant",
      metadata: { messageId: 1, parentId: 0 },
    };
    const next = {
      id: "c4",
      trigger: "submit-message",
      messages: [...first("c4").messages, answer, userMessage("client-2", "next")],
    };
    let settled = false;
    const second = post(next).then((r) => ((settled = true), r.text()));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false); // waiting for the answer before it
    held.open();
    await settles(streaming, "the first answer");
    await settles(second, "the second request");
    const chat = await (await chats()).open("c4");
    expect(chat.get(2)).toMatchObject({ role: "user", content: "next", parentId: 1 });
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });
});
