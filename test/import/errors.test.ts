// Bad files and bad calls: every one a CtxloomError with a stable code and a message naming
// where the file broke; nothing is produced, and nothing reaches the Loom.
import { describe, expect, it } from "vitest";
import { CtxloomError } from "../../src/errors.js";
import { Loom } from "../../src/index.js";
import { importConversations, parseExport, parseExportStream } from "../../src/import/index.js";
import { chatgptSample } from "./samples.js";

function error(run: () => unknown): CtxloomError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(CtxloomError);
    return e as CtxloomError;
  }
  throw new Error("no error");
}
const failed = (data: string, options?: object) => {
  const e = error(() => parseExport(data, options));
  expect(e.code).toBe("IMPORT_FAILED");
  expect(e.message).toMatch(
    /Nothing was imported; fix the file or pick its format with --format \(chatgpt, openwebui, librechat, oasst, sharegpt, openai, ctxloom\)\.$/,
  );
  return e.message;
};
const mapping = (m: Record<string, unknown>) => JSON.stringify([{ ...chatgptSample(), mapping: m, current_node: "a" }]);
const user = (id: string, parent: string | null, children: string[] = []) => ({
  id,
  parent,
  children,
  message: { author: { role: "user" }, content: { content_type: "text", parts: [id] }, metadata: {} },
});

describe("broken files", () => {
  it("truncated JSON names the conversation it ends in", () => {
    const full = JSON.stringify([chatgptSample(), chatgptSample()]);
    expect(failed(full.slice(0, full.length - 40))).toMatch(
      /^conversation 2: the file ends inside it \(truncated JSON\?\)/,
    );
  });
  it("invalid JSON inside a conversation", () => {
    expect(failed('[{"mapping": {}}, {"mapping": {"a": tru}}]')).toMatch(/^conversation 2: it is not valid JSON \(/);
  });
  it("a shape in no known format names the formats and the keys", () => {
    expect(failed('[{"foo": 1, "bar": 2}]')).toMatch(
      /^conversation 1: its shape is none of the known formats \(chatgpt, openwebui, librechat, oasst, sharegpt, openai, ctxloom\); its keys are "foo", "bar"/,
    );
    expect(failed("[1, 2]")).toMatch(/^conversation 1: its shape is none.*its keys are none \(it is 1\)/);
    expect(failed('{"a": 1}\n{"b": 2}')).toMatch(/^line 1: its shape is none/);
    expect(failed("[]")).toMatch(/^the file: it holds no conversation/);
  });
  it("a forced format that does not fit", () => {
    const sharegpt = JSON.stringify({ conversations: [{ from: "human", value: "x" }] });
    expect(failed(sharegpt, { format: "chatgpt" })).toMatch(/^line 1: a ChatGPT conversation needs a `mapping` object/);
    expect(failed(sharegpt, { format: "oasst" })).toMatch(/^line 1: an OpenAssistant record is a tree/);
  });
  it("a later conversation of another shape", () => {
    expect(failed(JSON.stringify([chatgptSample(), { conversations: [] }]))).toMatch(
      /^conversation 2: a ChatGPT conversation needs a `mapping`/,
    );
  });
  it("missing parents", () => {
    expect(failed(mapping({ a: user("a", "ghost") }))).toMatch(
      /^conversation 1: message "a": its parent "ghost" is missing/,
    );
    expect(failed(mapping({ a: user("a", null, ["ghost"]) }))).toMatch(
      /^conversation 1, node "a": its child "ghost" is missing/,
    );
    const flat = JSON.stringify([
      { message_id: "p", parent_id: null, role: "prompter", text: "q" },
      { message_id: "r", parent_id: "x", role: "assistant", text: "a" },
    ]);
    expect(failed(flat)).toMatch(/^item 2: message "r": its parent "x" is missing/);
  });
  it("cycles", () => {
    expect(failed(mapping({ r: user("r", null), a: user("a", "b"), b: user("b", "a") }))).toMatch(
      /^conversation 1: messages "a" -> "b" -> "a" are each other's parents \(a cycle\)/,
    );
    const flat = JSON.stringify([
      { message_id: "p", parent_id: "q", role: "prompter", text: "q" },
      { message_id: "q", parent_id: "p", role: "assistant", text: "a" },
    ]);
    expect(failed(flat)).toMatch(/are each other's parents \(a cycle\)/);
  });
  it("duplicate ids", () => {
    const lib = {
      conversationId: "c",
      messages: [
        { messageId: "m", isCreatedByUser: true, text: "a" },
        { messageId: "m", parentMessageId: "m", isCreatedByUser: false, text: "b" },
      ],
    };
    expect(failed(JSON.stringify(lib))).toMatch(/^line 1: message "m" appears twice/);
    const flat = JSON.stringify([
      { message_id: "p", parent_id: null, role: "prompter", text: "q" },
      { message_id: "p", parent_id: null, role: "prompter", text: "q" },
    ]);
    expect(failed(flat)).toMatch(/^item 2: message "p" appears twice/);
  });
  it("a ctxloom export out of order or of a newer version", () => {
    const exp = {
      format: "ctxloom.chat",
      version: 1,
      chat: { title: "t", model: "gpt-4o", system: null, createdAt: 1, updatedAt: 1 },
      head: 1,
      messages: [
        { id: 0, parentId: null, role: "user", content: "a", priority: "normal", createdAt: 1, kind: "message" },
        { id: 1, parentId: 0, role: "assistant", content: "b", priority: "normal", createdAt: 1, kind: "message" },
      ],
    };
    expect(parseExport(JSON.stringify(exp), { model: "llama3.2" }).chats[0]).toEqual({
      ...exp,
      chat: { ...exp.chat, model: "llama3.2" },
    });
    expect(failed(JSON.stringify({ ...exp, version: 4 }))).toMatch(
      /^line 1: its version 4 is not one this release reads \(1 to 3\)/,
    );
    expect(failed(JSON.stringify({ ...exp, messages: [exp.messages[1], exp.messages[0]] }))).toMatch(
      /^line 1, message 0: its id must be 0/,
    );
    expect(
      failed(JSON.stringify({ ...exp, messages: [exp.messages[0], { ...exp.messages[1], parentId: 1 }] })),
    ).toMatch(/^line 1, message 1: its parentId 1 must be null or the id of an earlier message/);
    expect(failed(JSON.stringify({ ...exp, head: 5 }))).toMatch(/^line 1: its head 5 must be null or a message id/);
    expect(failed(JSON.stringify({ ...exp, messages: [{ ...exp.messages[0], priority: "urgent" }] }))).toMatch(
      /its priority "urgent" is none of low, normal, high, critical/,
    );
  });
  it("a current node that is not there", () => {
    expect(failed(JSON.stringify([{ ...chatgptSample(), current_node: "nope" }]))).toMatch(
      /^conversation 1: the current message "nope" is missing/,
    );
  });
  it("unknown roles and bad tool results", () => {
    expect(failed(JSON.stringify({ conversations: [{ from: "narrator", value: "x" }] }))).toMatch(
      /^line 1, turn 1: its "from" "narrator" is none of human, user, gpt/,
    );
    const bad = {
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c2", content: "r" },
      ],
    };
    expect(failed(JSON.stringify(bad))).toMatch(
      /^line 1: tool message "2" answers call "c2", which the assistant message before it did not make/,
    );
    const twice = {
      messages: [
        ...bad.messages.slice(0, 2),
        { role: "tool", tool_call_id: "c1", content: "r" },
        { role: "tool", tool_call_id: "c1", content: "r" },
      ],
    };
    expect(failed(JSON.stringify(twice))).toMatch(/tool message "3" answers call "c1".*answered already/);
    expect(failed(JSON.stringify({ messages: [{ role: "robot", content: "x" }] }))).toMatch(
      /^line 1, message 1: its role "robot" is none of/,
    );
  });
});

describe("texts a chat cannot hold: IMPORT_FAILED naming where, and no chat made", () => {
  const L = "\ud800"; // half of a UTF-16 pair: JSON can carry it ("\ud800"), no chat holds it
  const call = (name: string, args: string) => [{ id: "c1", type: "function", function: { name, arguments: args } }];
  const withTool = (name: string, args: string) => ({
    messages: [
      { role: "user", content: "x" },
      { role: "assistant", content: null, tool_calls: call(name, args) },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ],
  });
  it.each([
    [
      "a message's content",
      {
        messages: [
          { role: "user", content: `a${L}b` },
          { role: "assistant", content: "ok" },
        ],
      },
      /^line 1: message "0": its content holds a lone surrogate/,
    ],
    [
      "a message's name",
      { messages: [{ role: "user", name: `n${L}`, content: "a" }] },
      /^line 1: message "0": its name holds a lone surrogate/,
    ],
    [
      "a tool call's arguments",
      withTool("f", `{"q":"${L}"}`),
      /^line 1: message "1": its toolCalls\[0\]\.function\.arguments holds a lone surrogate/,
    ],
    [
      "a tool call's name",
      withTool(`f${L}`, "{}"),
      /^line 1: message "1": its toolCalls\[0\]\.function\.name holds a lone surrogate/,
    ],
    ["the title", [{ ...chatgptSample(), title: `t${L}` }], /^conversation 1: its title holds a lone surrogate/],
  ])("%s", async (_, file, where) => {
    const data = JSON.stringify(file);
    expect(failed(data)).toMatch(where);
    const loom = await Loom.open({ engine: "js" });
    const e = await importConversations(loom, "u", data).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CtxloomError);
    expect([(e as CtxloomError).code, (e as CtxloomError).message]).toEqual([
      "IMPORT_FAILED",
      expect.stringMatching(where),
    ]);
    expect(await loom.user("u").list()).toEqual([]);
    await loom.close();
  });

  // What an append refuses, an importer refuses (issue 30, item 7): the same check, before any chat is made.
  it.each([
    [
      "a message's name with a space",
      { messages: [{ role: "user", name: "Ann Smith", content: "a" }] },
      /^line 1: message "0": name "Ann Smith" is not a name OpenAI accepts/,
    ],
    [
      "a tool call's name",
      withTool("look up", "{}"),
      /^line 1: message "1": toolCalls\[0\]\.function\.name "look up" is not a tool name/,
    ],
    [
      "arguments that are not JSON",
      withTool("f", "{'q': 1}"),
      /^line 1: message "1": toolCalls\[0\]\.function\.arguments must be JSON text/,
    ],
    [
      "arguments nested 101 levels",
      withTool("f", "[".repeat(101) + "]".repeat(101)),
      /^line 1: message "1": .*more than 100 levels deep/,
    ],
  ])("%s", async (_, file, where) => {
    const data = JSON.stringify(file);
    expect(failed(data)).toMatch(where);
    const loom = await Loom.open({ engine: "js" });
    const e = (await importConversations(loom, "u", data).catch((x: unknown) => x)) as CtxloomError;
    expect([e.code, e.message]).toEqual(["IMPORT_FAILED", expect.stringMatching(where)]);
    expect(await loom.user("u").list()).toEqual([]);
    await loom.close();
  });

  it("a conversation the chat refuses after the parse: IMPORT_FAILED naming it, the chats before it taken back", async () => {
    const exp = (model: string) => ({
      format: "ctxloom.chat",
      version: 2,
      chat: { title: "t", model, system: null, createdAt: 1, updatedAt: 1 },
      head: 0,
      messages: [
        { id: 0, parentId: null, role: "user", content: "a", priority: "normal", createdAt: 1, kind: "message" },
      ],
    });
    const loom = await Loom.open({ engine: "js" });
    const data = [exp("gpt-4o"), exp("no-such-model")].map((x) => JSON.stringify(x)).join("\n");
    const e = (await importConversations(loom, "u", data).catch((x: unknown) => x)) as CtxloomError;
    expect([e.code, e.message]).toEqual([
      "IMPORT_FAILED",
      expect.stringMatching(/^line 2: .*no-such-model.*Nothing was imported; fix the file/),
    ]);
    expect(e.message.match(/Nothing was imported/g)).toHaveLength(1);
    expect(await loom.user("u").list()).toEqual([]);
    await loom.close();
  });
});

describe("bad calls", () => {
  it("options are checked", () => {
    const e = error(() => parseExport("[]", { fromat: "chatgpt" } as never));
    expect([e.code, e.message]).toEqual([
      "INVALID_ARGUMENT",
      'Import options has no option "fromat"; did you mean "format"?',
    ]);
    expect(error(() => parseExport("[]", { format: "csv" as never })).message).toBe(
      'format must be "auto" or one of chatgpt, openwebui, librechat, oasst, sharegpt, openai, ctxloom; got "csv".',
    );
    expect(error(() => parseExport("[]", { model: "no-such-model" })).code).toBe("UNKNOWN_MODEL");
    expect(error(() => parseExport("[]", { now: -1 })).code).toBe("INVALID_ARGUMENT");
  });
  it("data of the wrong kind", async () => {
    await expect(parseExportStream([42 as never])).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(parseExportStream("[]" as never)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("For text in memory use parseExport"),
    });
    await expect(parseExportStream(null as never)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(error(() => parseExport({} as never)).message).toBe(
      "parseExport takes the file's text or bytes; got an object. For a stream use parseExportStream.",
    );
    await expect(
      importConversations({ user: () => ({ import: async () => ({ id: "x" }) }) }, "u", 5 as never),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
  it("importConversations checks its arguments and imports nothing from a broken file", async () => {
    const made: unknown[] = [];
    const target = { user: () => ({ import: async (exp: unknown) => (made.push(exp), { id: String(made.length) }) }) };
    const good = JSON.stringify([chatgptSample()]);
    await expect(importConversations(null as never, "u", good)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(importConversations(target, "", good)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(importConversations(target, "u", good + "x")).rejects.toMatchObject({ code: "IMPORT_FAILED" });
    const twoThenBroken = JSON.stringify([
      chatgptSample(),
      chatgptSample(),
      { ...chatgptSample(), current_node: "nope" },
    ]);
    await expect(importConversations(target, "u", twoThenBroken)).rejects.toMatchObject({ code: "IMPORT_FAILED" });
    async function* chunks() {
      yield twoThenBroken.slice(0, 1000);
      yield twoThenBroken.slice(1000);
    }
    await expect(importConversations(target, "u", chunks())).rejects.toMatchObject({ code: "IMPORT_FAILED" });
    expect(made).toEqual([]);
    const result = await importConversations(target, "u", good);
    expect(result.format).toBe("chatgpt");
    expect(result.chats.map((c) => [c.id, c.report.messages])).toEqual([["1", 7]]);
  });
  it("importConversations takes back the chats made when the store fails on a later one", async () => {
    const kept = new Map<string, unknown>();
    let n = 0;
    const target = {
      user: () => ({
        import: async (exp: unknown) => {
          if (++n === 3) throw new CtxloomError("STORE_FAILED", "The store failed.");
          kept.set(String(n), exp);
          return { id: String(n) };
        },
        delete: async (id: string) => void kept.delete(id),
      }),
    };
    const three = JSON.stringify([chatgptSample(), chatgptSample(), chatgptSample()]);
    await expect(importConversations(target, "u", three)).rejects.toMatchObject({ code: "STORE_FAILED" });
    expect(kept.size).toBe(0);
  });
});
