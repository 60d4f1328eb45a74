// A chatTurn that is refused changes nothing: no chat created, no message appended, whether the
// body is bad (a part no chat message carries, no messages, a lone surrogate, a second new
// message that is bad, a message larger than the model's window) or the options are (the
// context's, for a new chat and an open one; `create: { id }`). What only the build can tell
// comes after the user's message is appended, which stays, and a retry appends it once.
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { cannedModel } from "../../examples/chat-app/model.js";
import { Loom, type UserChats } from "../../src/index.js";
import { chatTurn, type ChatTurnOptions } from "../../src/ai-sdk.js";
import { expectRejectCode, snapshot } from "../helpers.js";

const text = (id: string, t: string) => ({ id, role: "user", parts: [{ type: "text", text: t }] });
const submit = (chatId: string, ...messages: unknown[]) => ({ id: chatId, trigger: "submit-message", messages });

/** Bad bodies for a chat the request would create, with the code each gets. */
const BAD_BODIES: [string, unknown, string][] = [
  [
    "a part of an unknown type",
    submit("n1", { id: "u", role: "user", parts: [{ type: "data-weather", data: {} }] }),
    "UNSUPPORTED_CONTENT",
  ],
  ["no messages", submit("n2"), "INVALID_ARGUMENT"],
  ["a lone surrogate", submit("n3", text("u", "half \ud800 a pair")), "INVALID_CONTENT"],
  [
    "a good message, then a bad one",
    submit("n4", text("u1", "fine"), { ...text("u2", ""), parts: [{ type: "text", text: 5 }] }),
    "INVALID_ARGUMENT",
  ],
  [
    "an answer the chat cannot hold, first",
    submit("n5", { ...text("a", "hi"), role: "assistant" }, text("u", "q")),
    "INVALID_ARGUMENT",
  ],
  ["a message larger than the model's window", submit("n6", text("u", "word ".repeat(400))), "MESSAGE_TOO_LARGE"],
];

/** Context options chatTurn refuses, with their code, whatever chat they are for. */
const BAD_CONTEXTS: [unknown, string][] = [
  [{ format: "anthropic" }, "INVALID_ARGUMENT"],
  [{ input: "x" }, "INVALID_ARGUMENT"],
  [{ cacheControl: true }, "INVALID_ARGUMENT"],
  [{ maxMesages: 4 }, "INVALID_ARGUMENT"],
  [{ maxMessages: 0 }, "INVALID_ARGUMENT"],
  [{ memory: 5 }, "INVALID_ARGUMENT"],
  [{ budget: { system: 2 } }, "INVALID_ARGUMENT"],
  [{ historyLimits: "yes" }, "INVALID_ARGUMENT"],
  [{ tools: "weather" }, "INVALID_ARGUMENT"],
  [{ summaries: "often" }, "INVALID_ARGUMENT"],
  [{ stablePrefix: "x" }, "INVALID_ARGUMENT"],
  [{ recall: { k: -1 } }, "INVALID_ARGUMENT"],
  [{ model: 5 }, "INVALID_ARGUMENT"],
  [{ maxOutputTokens: 10_000_000 }, "INVALID_ARGUMENT"],
  [{ toolResults: { clear: "yes" } }, "INVALID_ARGUMENT"],
  ["x", "INVALID_ARGUMENT"],
];

const small = { name: "small-model", contextWindow: 300 };

/** Alice's chat "kept" (a question and its answer) on a small model, and a snapshot of her chats. */
async function aliceWithChat(
  loomOptions?: Parameters<typeof Loom.open>[0],
): Promise<{ loom: Loom; chats: UserChats; before: () => Promise<unknown> }> {
  const loom = await Loom.open(loomOptions);
  const chats = loom.user("alice");
  const chat = await chats.create({ id: "kept", model: small });
  await chat.append({ role: "user", content: "q" });
  await chat.append({ role: "assistant", content: "a" });
  return { loom, chats, before: () => snapshot(chat, chats) };
}

describe("chatTurn: a refused request changes nothing", () => {
  it("a bad body for a new chat creates no chat", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    for (const [what, body, code] of BAD_BODIES) {
      await expectRejectCode(() => chatTurn(chats, body, { create: { model: small } }), code);
      expect(await chats.list(), what).toEqual([]);
    }
    await loom.close();
  });

  it("two new user messages of which the second is bad (or too large) append neither to an open chat", async () => {
    const { loom, chats, before } = await aliceWithChat();
    const was = await before();
    const held = [
      text("0", "q"),
      { id: "1", role: "assistant", parts: [{ type: "text", text: "a" }], metadata: { parentId: 0 } },
    ];
    const bodies: [unknown, string][] = [
      [
        submit("kept", ...held, text("u1", "fine"), {
          id: "u2",
          role: "user",
          parts: [{ type: "source-url", url: "x" }],
        }),
        "UNSUPPORTED_CONTENT",
      ],
      [submit("kept", ...held, text("u1", "fine"), text("u2", "bad \udc00")), "INVALID_CONTENT"],
      [submit("kept", ...held, text("u1", "fine"), text("u2", "word ".repeat(400))), "MESSAGE_TOO_LARGE"],
      [submit("kept", ...held, text("u1", "word ".repeat(400))), "MESSAGE_TOO_LARGE"],
      [submit("kept", ...held, text("u1", "fine"), { id: "a9", role: "assistant", parts: [] }), "INVALID_ARGUMENT"],
    ];
    for (const [body, code] of bodies) await expectRejectCode(() => chatTurn(chats, body), code);
    expect(await before()).toEqual(was);
    await loom.close();
  });

  it("bad context options write nothing: no chat created, an open chat unchanged", async () => {
    const { loom, chats, before } = await aliceWithChat();
    const was = await before();
    for (const [context, code] of BAD_CONTEXTS) {
      const options = { create: { model: "gpt-4o" }, context } as ChatTurnOptions;
      await expectRejectCode(() => chatTurn(chats, submit("new-chat", text("u", "hi")), options), code);
      await expectRejectCode(() => chatTurn(chats, submit("kept", text("0", "q"), text("u", "hi")), options), code);
    }
    expect(await before()).toEqual(was);
    // What depends on the Loom: recall where it is off, a model name a strict Loom does not know.
    const strict = await aliceWithChat({ recall: false, strictModels: true });
    const strictWas = await strict.before();
    for (const [context, code] of [
      [{ recall: true }, "INVALID_ARGUMENT"],
      [{ model: "no-such-model-7" }, "UNKNOWN_MODEL"],
    ] as const) {
      const options = { context } as ChatTurnOptions;
      await expectRejectCode(() => chatTurn(strict.chats, submit("new-chat", text("u", "hi")), options), code);
      await expectRejectCode(
        () => chatTurn(strict.chats, submit("kept", text("0", "q"), text("u", "hi")), options),
        code,
      );
    }
    expect(await strict.before()).toEqual(strictWas);
    expect((await chats.list()).map((c) => c.id)).toEqual(["kept"]);
    await loom.close();
    await strict.loom.close();
  });

  it("create: { id } is refused (the chat's id is the request's), as is any key create() does not take; bad values too", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    const body = submit("from-body", text("u", "hi"));
    await expect(chatTurn(chats, body, { create: { id: "other" } } as never)).rejects.toThrow(/body\.id/);
    for (const create of [{ id: "other" }, { titel: "x" }, { title: 5 }, { model: "" }, { metadata: "x" }, "x"]) {
      await expectRejectCode(() => chatTurn(chats, body, { create } as never), "INVALID_ARGUMENT");
    }
    await expectRejectCode(() => chatTurn(chats, submit("bad id!", text("u", "hi"))), "INVALID_ARGUMENT");
    expect(await chats.list()).toEqual([]);
    await loom.close();
  });

  it("a context the newest turn cannot fit fails after the user's message is appended: it stays, a retry appends it once", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    const body = submit("late", text("u", "a question"));
    // Nearly the whole window kept for the answer: the question cannot be sent.
    await expectRejectCode(
      () => chatTurn(chats, body, { create: { model: small }, context: { maxOutputTokens: 265 } }),
      "MESSAGE_TOO_LARGE",
    );
    const chat = await chats.open("late");
    expect(chat.path().map((m) => m.content)).toEqual(["a question"]);
    const turn = await chatTurn(chats, body, { create: { model: small } });
    await streamText({ model: cannedModel(0), ...turn.context })
      .toUIMessageStreamResponse(turn.stream)
      .text();
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(chat.roots()).toEqual([0]);
    await loom.close();
  });
});
