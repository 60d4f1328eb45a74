// OpenAI streams into a chat (issue 32, item 7): Chat Completions chunks and Responses events,
// read by the `openai` SDK itself from a fetch that answers like the API (server-sent events),
// converted into what `append` takes exactly as the SDK's own final objects convert
// (finalChatCompletion, finalResponse). A stream cut part-way, with persist, keeps what it said,
// marked: a reload (another Loom on the SQLite file) shows it, and the next context tells the
// model it was cut.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import {
  CUT_MARK,
  fromChatCompletionChunks,
  fromOpenAIMessages,
  fromResponseItems,
  fromResponseStreamEvents,
  openAIStream,
} from "../../src/openai.js";
import { completionChunks, responseEvents, sseClient } from "./openai-stream-fixtures.js";

const model = "gpt-4o";
const messages = [{ role: "user" as const, content: "Weather in Lisbon and Porto?" }];

describe("openAIStream: Chat Completions", () => {
  it("text, then tool calls in pieces: the same inputs as the SDK's final completion, appended under the head", async () => {
    for (const chunks of [completionChunks.text, completionChunks.calls]) {
      const client = sseClient([chunks]);
      const chat = await (await Loom.open()).user("u").create({ model });
      const asked = await chat.append(messages[0]!);
      const answer = openAIStream(chat);
      const stream = client.chat.completions.stream({ model, messages });
      for await (const chunk of stream) await answer.push(chunk);
      const final = await stream.finalChatCompletion();
      expect(answer.finished).toBe(true);
      expect(answer.messages()).toEqual(fromOpenAIMessages(final));
      expect(fromChatCompletionChunks(chunks)).toEqual(fromOpenAIMessages(final));
      const stored = await answer.done();
      expect(stored.map((m) => m.parentId)).toEqual([asked.id]);
      expect(await answer.done()).toBe(stored); // once
      expect(chat.messageCount).toBe(2);
    }
  });

  it("`stream: true` from create(): a cut stream with persist keeps what it said, marked; a reload shows it, the next request knows", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxloom-openai-stream-"));
    const file = join(dir, "chats.db");
    try {
      const loom = await Loom.open({ store: sqliteStore(file) });
      const chat = await loom.user("u").create({ id: "c", model });
      await chat.append(messages[0]!);
      const client = sseClient([completionChunks.text], { cutAfter: 3 }); // the connection drops after three chunks
      const answer = openAIStream(chat, { persist: true });
      await expect(async () => {
        try {
          for await (const chunk of await client.chat.completions.create({ model, messages, stream: true }))
            await answer.push(chunk);
        } finally {
          await answer.done();
        }
      }).rejects.toThrow();
      expect(answer.finished).toBe(false);
      await loom.close();
      const reload = await Loom.open({ store: sqliteStore(file) });
      const again = await reload.user("u").open("c");
      expect(again.path().map((m) => m.content)).toEqual([messages[0]!.content, `Sunny in \n\n${CUT_MARK}`]);
      const next = await again.buildContext();
      expect(next.messages.at(-1)).toEqual({ role: "assistant", content: `Sunny in \n\n${CUT_MARK}` });
      await again.append({ role: "user", content: "Go on." }); // the conversation goes on from it
      await reload.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("without persist, a cut stream keeps nothing", async () => {
    const chat = await (await Loom.open()).user("u").create({ model });
    await chat.append(messages[0]!);
    const answer = openAIStream(chat);
    for (const chunk of completionChunks.text.slice(0, 3)) await answer.push(chunk);
    expect(answer.messages()).toEqual([{ role: "assistant", content: `Sunny in \n\n${CUT_MARK}` }]);
    expect(await answer.done()).toEqual([]);
    expect(chat.messageCount).toBe(1);
  });
});

describe("openAIStream: Responses", () => {
  it("a message and a function call: the same inputs as the SDK's final response", async () => {
    const client = sseClient([responseEvents.whole]);
    const chat = await (await Loom.open()).user("u").create({ model });
    await chat.append(messages[0]!);
    const answer = openAIStream(chat);
    const stream = client.responses.stream({ model, input: "Weather in Lisbon?" });
    for await (const event of stream) await answer.push(event);
    const final = await stream.finalResponse();
    expect(answer.messages()).toEqual(fromResponseItems(final.output));
    expect(fromResponseStreamEvents(responseEvents.whole)).toEqual(fromResponseItems(final.output));
    expect((await answer.done()).map((m) => [m.role, m.content, m.toolCalls?.[0]?.function.arguments])).toEqual([
      ["assistant", "Let me look.", '{"city":"Lisbon"}'],
    ]);
  });

  it("cut part-way: the items done kept, the message still streaming marked, a whole call answered 'cancelled'", async () => {
    const chat = await (await Loom.open()).user("u").create({ model });
    await chat.append(messages[0]!);
    const answer = openAIStream(chat, { persist: true });
    for (const event of responseEvents.cut) await answer.push(event);
    const stored = await answer.done();
    expect(stored.map((m) => [m.role, m.content, m.toolCallId ?? null])).toEqual([
      ["assistant", "", null],
      ["tool", "cancelled", "call_1"],
      ["assistant", `Lisbon is sun\n\n${CUT_MARK}`, null],
    ]);
  });
});

describe("bad input", () => {
  it("refuses what is no chat, unknown options, an unknown parent, junk, mixed APIs and a push after done(); nothing changes", async () => {
    const chat = await (await Loom.open()).user("u").create({ model });
    await chat.append(messages[0]!);
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return "none";
    };
    expect(code(() => openAIStream(null as never))).toBe("INVALID_ARGUMENT");
    expect(code(() => openAIStream(chat, { persits: true } as never))).toBe("INVALID_ARGUMENT");
    expect(code(() => openAIStream(chat, { persist: "yes" } as never))).toBe("INVALID_ARGUMENT");
    expect(code(() => openAIStream(chat, { reasoning: "hide" } as never))).toBe("INVALID_ARGUMENT");
    expect(code(() => openAIStream(chat, { parent: 9 }))).toBe("UNKNOWN_MESSAGE");
    expect(code(() => fromChatCompletionChunks("x" as never))).toBe("INVALID_ARGUMENT");
    expect(code(() => fromResponseStreamEvents(completionChunks.text as never))).toBe("INVALID_ARGUMENT");
    const answer = openAIStream(chat);
    await expect(answer.push({ hello: 1 } as never)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await answer.push(completionChunks.text[0]!);
    await expect(answer.push(responseEvents.whole[0]!)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(
      answer.push({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { tool_calls: [{ index: -1 }] } }] }),
    ).rejects.toMatchObject({ code: "INVALID_TOOL_CALL" });
    await expect(
      openAIStream(chat).push({ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "x" }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await answer.done()).toEqual([]);
    await expect(answer.push(completionChunks.text[1]!)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(chat.messageCount).toBe(1);
  });
});
