// Resuming a useChat answer after a reload (issue 32, item 8): a turn made with
// `resumable: true` keeps its events; a client loaded mid-stream (its messages from
// toUIMessages, then resumeStream(), as useChat({ resume: true }) does) gets the whole answer,
// while the page that asked has gone away; once the answer is stored there is nothing to resume.
// The AI SDK's chat client, DefaultChatTransport (its GET of <api>/<id>/stream) and streamText.
import { describe, expect, it } from "vitest";
import { MockLanguageModelV4 } from "ai/test";
import { Loom } from "../../src/index.js";
import { chatTurn, resumeTurn, toUIMessages } from "../../src/ai-sdk.js";
import { expectRejectCode } from "../helpers.js";
import { textOf, turnApp, usage } from "./chat-turn-app.js";

/** A gate: a promise the test resolves. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** A model that says "Half the answer, " then waits for `rest` before "and the rest." */
function slowModel(rest: Promise<void>, said: () => void) {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        async start(controller) {
          const delta = (text: string) => controller.enqueue({ type: "text-delta", id: "t", delta: text });
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "t" });
          delta("Half the answer, ");
          said();
          await rest;
          delta("and the rest.");
          controller.enqueue({ type: "text-end", id: "t" });
          controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: undefined }, usage });
          controller.close();
        },
      }),
    }),
  });
}

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(ready()).toBe(true);
}

describe("chatTurn: resuming an answer after a reload", () => {
  it("a page loaded mid-stream resumes the answer from its start; the page that asked went away; the answer is stored whole", async () => {
    const rest = gate();
    const said = gate();
    const { client, stored, turns } = turnApp(slowModel(rest.wait, said.open), {
      create: { model: "gpt-4o" },
      resumable: true,
    });
    const first = client("resume-1");
    const asking = first.sendMessage({ text: "Tell me everything." });
    await said.wait;
    await until(() => first.messages.length === 2 && textOf(first.messages[1]!).length > 0);
    await first.stop(); // the page reloads: its request is gone
    await asking;
    const chat = await stored("resume-1");
    const reloaded = client("resume-1", toUIMessages(chat));
    expect(reloaded.messages.map((m) => m.role)).toEqual(["user"]);
    const resuming = reloaded.resumeStream();
    await until(() => reloaded.messages.length === 2 && textOf(reloaded.messages[1]!) === "Half the answer, ");
    rest.open();
    await resuming;
    expect(reloaded.messages[1]!.id).toBe("1");
    expect(textOf(reloaded.messages[1]!)).toBe("Half the answer, and the rest.");
    const { question, ...place } = reloaded.messages[1]!.metadata!;
    expect([question, place]).toEqual(toUIMessages(chat).map((m) => m.metadata)); // "2 / 2" and all, as after the next reload
    expect((await turns[0]!.saved()).map((m) => m.content)).toEqual(["Half the answer, and the rest."]);
    expect(toUIMessages(chat).map(textOf)).toEqual(["Tell me everything.", "Half the answer, and the rest."]);
    // Stored: nothing to resume, the page shows the chat.
    const later = client("resume-1", toUIMessages(chat));
    await later.resumeStream();
    expect(later.messages).toHaveLength(2);
    expect(later.status).toBe("ready");
  });

  it("without resumable, nothing is kept to resume: the reloaded page shows the chat as stored", async () => {
    const rest = gate();
    const said = gate();
    const { client, stored, turns } = turnApp(slowModel(rest.wait, said.open));
    const first = client("resume-2");
    const asking = first.sendMessage({ text: "Tell me everything." });
    await said.wait;
    await until(() => first.messages.length === 2 && textOf(first.messages[1]!).length > 0);
    const chat = await stored("resume-2");
    const reloaded = client("resume-2", toUIMessages(chat));
    await reloaded.resumeStream();
    expect(reloaded.messages).toHaveLength(1);
    expect(reloaded.status).toBe("ready");
    rest.open();
    await asking;
    await turns[0]!.saved();
  });

  it("refuses bad arguments; 204 for a chat the user does not have", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    expect((await resumeTurn(chats, "nope")).status).toBe(204);
    await expectRejectCode(() => resumeTurn(null as never, "x"), "INVALID_ARGUMENT");
    await expectRejectCode(() => resumeTurn(chats, 42 as never), "INVALID_ARGUMENT");
    const body = {
      id: "c",
      trigger: "submit-message",
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
    };
    await expectRejectCode(() => chatTurn(chats, body, { resumable: "yes" as never }), "INVALID_ARGUMENT");
    await loom.close();
  });
});
