// readToolResult (issue 31 item 2): a tool result the context sends cleared or cut, read back from
// the chat by its message id, a page at a time within a token cap; ids that are no tool result of
// the conversation, and bad pages, refused with a code and no change; the model-facing answer
// gives the same refusals as a tool error.
import { describe, expect, it } from "vitest";
import { Loom, type Chat } from "../../src/index.js";
import { readToolResult } from "../../src/ai-sdk.js";
import { answerReadTool } from "../../src/adapters/read-tool.js";
import { expectRejectCode, forEachEngine, snapshot } from "../helpers.js";

const call = (id: string) => ({ id, type: "function" as const, function: { name: "fetch", arguments: "{}" } });
const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i}: the quick brown fox jumps over the lazy dog.`).join("\n");

async function agentChat(engine: "wasm" | "js", model = "gpt-4o") {
  const loom = await Loom.open({ engine });
  const chats = loom.user("u");
  const chat = await chats.create({ model });
  await chat.append({ role: "user", content: "Read the log." });
  await chat.append({ role: "assistant", content: "", toolCalls: [call("c1")] });
  const result = await chat.append({ role: "tool", toolCallId: "c1", content: lines(2000, "log") });
  return { loom, chats, chat, result };
}

const counter = (chat: Chat) => chat.agentSettings().counter;

forEachEngine((engine) => {
  it("pages of at most maxTokens by the chat's counter, joined they are the whole result; page k of n", async () => {
    const { loom, chat, result } = await agentChat(engine);
    const first = await readToolResult(chat, { id: result.id }, { maxTokens: 1000 });
    expect(first.page).toBe(1);
    expect(first.pages).toBeGreaterThan(15);
    const pages = [first.text];
    for (let page = 2; page <= first.pages; page++) {
      const p = await readToolResult(chat, { id: result.id, page }, { maxTokens: 1000 });
      expect(p).toMatchObject({ id: result.id, page, pages: first.pages });
      pages.push(p.text);
    }
    for (const text of pages) {
      expect(counter(chat).count(text)).toBeLessThanOrEqual(1000);
      if (text === pages.at(-1)) continue;
      expect(counter(chat).count(text)).toBeGreaterThan(900); // full pages, but for the last
      expect(text.endsWith(".")).toBe(true); // cut between sentences
    }
    expect(pages.join("")).toBe(result.content);
    // The default: 4,000 tokens a page on a large model, an eighth of a request on a small one.
    const whole = await readToolResult(chat, { id: result.id });
    expect(counter(chat).count(whole.text)).toBeLessThanOrEqual(4000);
    expect(counter(chat).count(whole.text)).toBeGreaterThan(3800);
    await loom.close();
  });

  it("a small model's pages are an eighth of its requests; an empty result is one empty page", async () => {
    const { loom, chat, result } = await agentChat(engine, "llama3.2");
    const p = await readToolResult(chat, { id: result.id });
    const limit = chat.agentSettings().limit;
    expect(counter(chat).count(p.text)).toBeLessThanOrEqual(Math.floor(limit / 8));
    await chat.append({ role: "assistant", content: "", toolCalls: [call("c2")] });
    const empty = await chat.append({ role: "tool", toolCallId: "c2", content: "" });
    expect(await readToolResult(chat, { id: empty.id, page: 1 })).toEqual({
      id: empty.id,
      page: 1,
      pages: 1,
      text: "",
    });
    await loom.close();
  });

  it("refuses ids that are no tool result of the head's branch, bad pages and options, with a code and no change", async () => {
    const { loom, chats, chat, result } = await agentChat(engine);
    await chat.append({ role: "assistant", content: "Done." });
    // A sibling branch with a tool result of its own: not on the branch the loop's contexts are built from.
    await chat.regenerate(1); // a new first answer: the branch 0, 4, 5, 6
    await chat.append({ role: "assistant", content: "", toolCalls: [call("c9")] });
    const other = await chat.append({ role: "tool", toolCallId: "c9", content: "other branch" });
    await chat.append({ role: "assistant", content: "Other." });
    await chat.checkout(3);
    const before = await snapshot(chat, chats);
    const cases: [unknown, unknown, string][] = [
      [{ id: 999 }, undefined, "UNKNOWN_MESSAGE"],
      [{ id: other.id }, undefined, "UNKNOWN_MESSAGE"],
      [{ id: 0 }, undefined, "WRONG_ROLE"],
      [{ id: 1 }, undefined, "WRONG_ROLE"],
      [{ id: -1 }, undefined, "INVALID_ARGUMENT"],
      [{ id: 1.5 }, undefined, "INVALID_ARGUMENT"],
      [{ id: "2" }, undefined, "INVALID_ARGUMENT"],
      [{ id: result.id, page: 0 }, undefined, "INVALID_ARGUMENT"],
      [{ id: result.id, page: 99 }, undefined, "INVALID_ARGUMENT"],
      [{ id: result.id, pages: 1 }, undefined, "INVALID_ARGUMENT"],
      [{ id: result.id }, { maxTokens: 8 }, "INVALID_ARGUMENT"],
      [{ id: result.id }, { maxToken: 100 }, "INVALID_ARGUMENT"],
      [null, undefined, "INVALID_ARGUMENT"],
    ];
    for (const [request, options, code] of cases) {
      await expect(
        readToolResult(chat, request as never, options as never),
        JSON.stringify(request),
      ).rejects.toMatchObject({ code });
    }
    await expectRejectCode(() => readToolResult({} as never, { id: 2 }), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    // Checked out on the other branch, its result reads and this one does not.
    await chat.checkout(other.id);
    expect((await readToolResult(chat, { id: other.id })).text).toBe("other branch");
    await expectRejectCode(() => readToolResult(chat, { id: result.id }), "UNKNOWN_MESSAGE");
    await loom.close();
  });
});

describe("the model's side", () => {
  it("answers a call's arguments (JSON text or object) with the page, and a refusal with an error the model can act on", async () => {
    const { loom, chat, result } = await agentChat("wasm");
    const page = await answerReadTool(chat, `{"id":${result.id},"page":2}`, { maxTokens: 500 });
    expect("text" in page && page.text.startsWith(`[tool result of message ${result.id}, page 2 of `)).toBe(true);
    expect(await answerReadTool(chat, { id: result.id, page: null }, {})).toMatchObject({
      text: expect.stringContaining("page 1 of"),
    });
    const refusals = [
      ["{not json", /must be JSON/],
      [[1], /must be an object/],
      [{ id: result.id, pge: 2 }, /id and page only/],
      [{ id: 0 }, /user message, not a tool result/],
      [{ id: 99 }, /no message 99/],
      [{ id: result.id, page: 500 }, /has \d+ pages?; ask for a page from 1 to \d+/],
    ] as const;
    for (const [input, message] of refusals) {
      const answer = await answerReadTool(chat, input, { maxTokens: 500 });
      expect("error" in answer ? answer.error.message : answer.text, JSON.stringify(input)).toMatch(message);
    }
    // The app's own failures are thrown, not handed to the model.
    await loom.close();
    await expect(answerReadTool(chat, { id: result.id }, {})).rejects.toMatchObject({ code: "LOOM_CLOSED" });
  });
});
