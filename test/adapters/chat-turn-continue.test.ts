// What chatTurn left out (issue 32, item 8): client-side tools (a tool without execute, its
// output given with addToolOutput and sent back with the answer it completes) and a later step of
// an answer regenerated (the client sends the answer cut back to the steps before it). Run with
// the AI SDK's chat client (sendAutomaticallyWhen, addToolOutput, sendMessage()) and streamText.
import { jsonSchema, lastAssistantMessageIsCompleteWithToolCalls, tool } from "ai";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { chatTurn, toUIMessages, type ChatUIMessage } from "../../src/ai-sdk.js";
import { expectRejectCode, snapshot } from "../helpers.js";
import { calls, recordingModel, says, textOf, turnApp } from "./chat-turn-app.js";

const schema = jsonSchema<{ city?: string }>({ type: "object", properties: { city: { type: "string" } } });
/** A client-side tool: no execute, the browser answers it. */
const askLocation = tool({ description: "Where the user is (asked in the browser)", inputSchema: schema });
const weather = tool({
  description: "The weather in a city",
  inputSchema: schema,
  execute: async ({ city }) => ({ city, sky: "sunny" }),
});

/** Resolves once `ready()` holds, checking after each turn of the event loop's timers. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(ready()).toBe(true);
}

const rows = (chat: {
  path(): { role: string; content: string; toolCalls?: { id: string }[]; toolCallId?: string }[];
}) =>
  chat
    .path()
    .map((m) => [
      m.role,
      m.toolCalls?.map((c) => c.id).join() ?? (m.toolCallId ? `${m.toolCallId}: ${m.content}` : m.content),
    ]);

describe("chatTurn: client-side tools and a later step regenerated", () => {
  it("a client-side tool's output, sent back with addToolOutput, is stored under its call, and the answer goes on from it", async () => {
    const { model, prompts } = recordingModel([calls("c1", "askLocation", {}), says("Sunny in Lisbon.")]);
    const { client, stored, turns } = turnApp(model, undefined, { askLocation });
    let ui!: ReturnType<typeof client>;
    ui = client(
      "tools-1",
      [],
      {},
      {
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
        onToolCall: ({ toolCall }: { toolCall: { toolCallId: string } }) =>
          void ui.addToolOutput({ tool: "askLocation", toolCallId: toolCall.toolCallId, output: "Lisbon" }),
      },
    );
    await ui.sendMessage({ text: "Weather here?" });
    await until(() => turns.length === 2 && ui.status === "ready");
    await turns[1]!.saved();
    const chat = await stored("tools-1");
    expect(rows(chat)).toEqual([
      ["user", "Weather here?"],
      ["assistant", "c1"],
      ["tool", "c1: Lisbon"],
      ["assistant", "Sunny in Lisbon."],
    ]);
    expect(prompts[1]!.slice(-2)).toEqual(["assistant: tool-call", "tool: tool-result"]); // the model saw the output
    // One answer on the page, live as after a reload.
    expect(ui.messages.map((m) => m.id)).toEqual([ui.messages[0]!.id, "1"]);
    expect(textOf(ui.messages[1]!)).toBe("Sunny in Lisbon.");
    expect(
      toUIMessages(chat)[1]!
        .parts.filter((p) => p.type !== "step-start")
        .map((p) => p.type),
    ).toEqual(["dynamic-tool", "text"]);
  });

  it("a new message instead of the tool's output: the open call is answered 'cancelled' first", async () => {
    const { model } = recordingModel([calls("c1", "askLocation", {})]);
    const { client, stored } = turnApp(model, undefined, { askLocation });
    const ui = client("tools-2");
    await ui.sendMessage({ text: "Weather here?" });
    const chat = await stored("tools-2");
    expect(rows(chat)).toEqual([
      ["user", "Weather here?"],
      ["assistant", "c1"],
    ]); // left open for the client
    await ui.sendMessage({ text: "Never mind: Porto." });
    expect(rows(chat)).toEqual([
      ["user", "Weather here?"],
      ["assistant", "c1"],
      ["tool", "c1: cancelled"],
      ["user", "Never mind: Porto."],
      ["assistant", "Answer 2 to Never mind: Porto."],
    ]);
  });

  it("a later step regenerated: the answer cut back to its tool step, the new last step beside the old one, '2 / 2' on it", async () => {
    const { model, prompts } = recordingModel([
      calls("c1", "weather", { city: "Lisbon" }),
      says("Sunny."),
      says("Sunny, 24C."),
    ]);
    const { client, stored } = turnApp(model, undefined, { weather });
    const ui = client("steps-1");
    await ui.sendMessage({ text: "Weather in Lisbon?" });
    const chat = await stored("steps-1");
    expect(rows(chat)).toEqual([
      ["user", "Weather in Lisbon?"],
      ["assistant", "c1"],
      ["tool", 'c1: {"city":"Lisbon","sky":"sunny"}'],
      ["assistant", "Sunny."],
    ]);
    // The UI cuts the answer before its last step and asks for the rest again.
    const answer = ui.messages[1]!;
    const cut = answer.parts.findIndex((p, i) => i > 0 && p.type === "step-start");
    ui.messages = [ui.messages[0]!, { ...answer, parts: answer.parts.slice(0, cut) }];
    await ui.sendMessage();
    expect(prompts).toHaveLength(3);
    expect(chat.children(2)).toEqual([3, 4]);
    expect(rows(chat).at(-1)).toEqual(["assistant", "Sunny, 24C."]);
    const drawn = toUIMessages(chat)[1]!;
    expect(drawn.metadata!.steps).toEqual([{ messageId: 4, parentId: 2, branch: { index: 1, count: 2, ids: [3, 4] } }]);
    expect(ui.messages[1]!.metadata!.steps).toEqual(drawn.metadata!.steps);
    expect(ui.messages[1]!.id).toBe("1");
    expect(textOf(ui.messages[1]!)).toBe("Sunny, 24C.");
  });

  it("refuses an answer holding a step the chat lacks, or leaving a call without its output; nothing changes", async () => {
    const loom = await Loom.open();
    const chats = loom.user("alice");
    const chat = await chats.create({ id: "kept" });
    await chat.append({ role: "user", content: "q" });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
    });
    const before = await snapshot(chat, chats);
    const user = { id: "0", role: "user", parts: [{ type: "text", text: "q" }] };
    const part = (state: string, extra: object = {}) => ({
      type: "dynamic-tool",
      toolName: "f",
      toolCallId: "c1",
      input: {},
      state,
      ...extra,
    });
    const answer = (...parts: object[]): ChatUIMessage => ({
      id: "1",
      role: "assistant",
      parts: parts as ChatUIMessage["parts"],
    });
    const bodies = [
      answer(part("input-available")), // no output yet
      answer(
        part("output-available", { output: "x" }),
        { type: "step-start" },
        { type: "text", text: "a step the chat lacks" },
      ),
      answer({ type: "text", text: "another first step" }),
    ];
    for (const last of bodies)
      await expectRejectCode(
        () => chatTurn(chats, { id: "kept", trigger: "submit-message", messages: [user, last] }),
        "INVALID_ARGUMENT",
      );
    expect(await snapshot(chat, chats)).toEqual(before);
    await loom.close();
  });
});
