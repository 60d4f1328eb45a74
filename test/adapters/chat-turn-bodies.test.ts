// useChat bodies with the last message alone (issue 32, item 1): the AI SDK recommends
// `prepareSendMessagesRequest` sending only the last message when the server keeps the chat.
// chatTurn takes `{ id, message, trigger, messageId, parentId }` as it takes the whole list: the
// message goes under the chat's head (or the message the client names), once; the model sees the
// whole conversation. Run with the AI SDK's chat client and streamText with a mock model.
import type { PrepareSendMessagesRequest } from "ai";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { chatTurn, toUIMessages, type ChatUIMessage } from "../../src/ai-sdk.js";
import { expectRejectCode, snapshot } from "../helpers.js";
import { recordingModel, textOf, turnApp } from "./chat-turn-app.js";

/** The AI SDK's recipe, with the trigger, the edited message's id and the message before it passed on. */
const lastOnly: PrepareSendMessagesRequest<ChatUIMessage> = ({ id, messages, trigger, messageId }) => ({
  body: {
    id,
    message: messages[messages.length - 1],
    trigger,
    messageId,
    parentId: messages[messages.length - 2]?.id ?? null,
  },
});
/** The AI SDK's recipe as its docs write it: `{ id, message }` and nothing else. */
const bare: PrepareSendMessagesRequest<ChatUIMessage> = ({ id, messages }) => ({
  body: { id, message: messages[messages.length - 1] },
});

const contents = (chat: { path(): { role: string; content: string }[] }) =>
  chat.path().map((m) => `${m.role}: ${m.content}`);

describe("chatTurn with the last message alone", () => {
  it("a conversation, a regeneration and an edit: the chat grows as with the whole list, the model sees it whole", async () => {
    const { model, prompts } = recordingModel();
    const { client, stored } = turnApp(model);
    const ui = client("last-1", [], { prepareSendMessagesRequest: lastOnly });
    await ui.sendMessage({ text: "one" });
    await ui.sendMessage({ text: "two" });
    const chat = await stored("last-1");
    expect(contents(chat)).toEqual([
      "user: one",
      "assistant: Answer 1 to one",
      "user: two",
      "assistant: Answer 2 to two",
    ]);
    expect(prompts[1]).toEqual(["user: one", "assistant: Answer 1 to one", "user: two"]); // not a new root of one message
    await ui.regenerate();
    expect(chat.messageCount).toBe(5);
    expect(chat.children(2)).toEqual([3, 4]);
    expect(ui.messages[3]!.metadata!.branch).toMatchObject({ index: 1, count: 2 });
    // An edit of "two" (the client's id until a reload): beside it, "2 / 2" live as after a reload.
    await ui.sendMessage({ text: "deux", messageId: ui.messages[2]!.id });
    expect(contents(chat).slice(2)).toEqual(["user: deux", "assistant: Answer 4 to deux"]);
    expect(chat.children(1)).toEqual([2, 5]);
    const drawn = toUIMessages(chat);
    expect(ui.messages[3]!.metadata!.question).toEqual(drawn[2]!.metadata);
    expect(drawn[2]!.metadata!.branch).toEqual({ index: 1, count: 2, ids: [2, 5] });
    // After a reload (the chat's ids), the same body goes on.
    const again = client("last-1", drawn, { prepareSendMessagesRequest: lastOnly });
    await again.sendMessage({ text: "three" });
    expect(contents(chat).slice(-2)).toEqual(["user: three", "assistant: Answer 5 to three"]);
    expect(prompts.at(-1)).toHaveLength(5);
  });

  it("{ id, message } alone: under the chat's head; a regeneration answers the message again, never appended twice", async () => {
    const { model, prompts } = recordingModel();
    const { client, stored } = turnApp(model);
    const ui = client("last-2", [], { prepareSendMessagesRequest: bare });
    await ui.sendMessage({ text: "one" });
    await ui.sendMessage({ text: "two" });
    await ui.regenerate(); // the client's own id for "two": known by its append key
    const chat = await stored("last-2");
    expect(chat.roots()).toEqual([0]);
    expect(chat.path().map((m) => m.id)).toEqual([0, 1, 2, 4]);
    expect(chat.children(2)).toEqual([3, 4]);
    expect(prompts[2]).toEqual(["user: one", "assistant: Answer 1 to one", "user: two"]);
    expect(textOf(ui.messages[3]!)).toBe("Answer 3 to two");
  });

  it("an unknown id is appended once (a retried request), a known id is not appended again, parentId names where it goes", async () => {
    const { model } = recordingModel();
    const { post, stored } = turnApp(model);
    const msg = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });
    const send = async (body: unknown) => (await post(body)).text();
    await send({ id: "last-3", message: msg("c-1", "first") });
    await send({ id: "last-3", message: msg("c-1", "first") }); // the same request again
    const chat = await stored("last-3");
    expect(chat.roots()).toEqual([0]);
    expect(chat.children(0)).toEqual([1, 2]); // two answers to one message
    await send({ id: "last-3", message: msg("0", "first"), trigger: "regenerate-message" }); // known by the chat's id
    expect(chat.children(0)).toEqual([1, 2, 3]);
    await send({ id: "last-3", message: msg("c-2", "under the first answer"), parentId: "1" });
    expect(chat.get(4)).toMatchObject({ role: "user", parentId: 1 });
    expect(chat.messageCount).toBe(6);
  });

  it("refuses a body with both shapes, a parent the chat does not hold, an edit it cannot place; nothing changes", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    const chat = await chats.create({ id: "kept" });
    await chat.append({ role: "user", content: "q" });
    await chat.append({ role: "assistant", content: "a" });
    const before = await snapshot(chat, chats);
    const msg = (id: string, text = "x") => ({ id, role: "user", parts: [{ type: "text", text }] });
    const bodies: unknown[] = [
      { id: "kept", message: msg("n"), messages: [msg("n")] },
      { id: "kept", messages: [msg("n")], trigger: "submit-message", parentId: "1" },
      { id: "kept", message: msg("n"), parentId: "7" },
      { id: "kept", message: msg("n"), parentId: "nope" },
      { id: "kept", message: msg("n"), parentId: 1 },
      { id: "kept", message: msg("n"), trigger: "resume-stream" },
      { id: "kept", message: "hello" },
      { id: "kept", message: msg("n", "edited"), messageId: "n" }, // an edit of a message known by the client's id only, no parentId
      { id: "not-yet", message: msg("n"), parentId: "0" }, // a parent in a chat the user does not have
    ];
    for (const body of bodies) await expectRejectCode(() => chatTurn(chats, body), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    expect((await chats.list()).map((c) => c.id)).toEqual(["kept"]);
    await loom.close();
  });
});
