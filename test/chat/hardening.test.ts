// Hardening of the tree, the message base and the store contract: each case was a repro.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CtxloomError,
  Loom,
  memoryStore,
  registerModel,
  type Chat,
  type Message,
  type Store,
  type ToolCall,
  type UserChats,
} from "../../src/index.js";
import { CANCELLED_RESULT } from "../../src/context/tool-units.js";
import { MAX_MESSAGES } from "../../src/message.js";
import { expectRejectCode, expectThrowCode, forEachEngine, ids, snapshot, withoutFastPaths } from "../helpers.js";

const call = (id: string, name = "search"): ToolCall => ({ id, type: "function", function: { name, arguments: "{}" } });

forEachEngine((engine) => {
  let loom: Loom;
  let chats: UserChats;
  let chat: Chat;
  beforeEach(async () => {
    loom = await Loom.open({ engine });
    chats = loom.user("u");
    chat = await chats.create();
  });
  afterEach(async () => {
    await loom.close();
  });

  describe("open tool calls", () => {
    it("a non-tool message under open calls is refused with OPEN_TOOL_CALLS naming them; nothing changes", async () => {
      await chat.append({ role: "user", content: "hi" });
      await chat.append({
        role: "assistant",
        content: "",
        priority: "critical",
        toolCalls: [call("c1"), call("c2", "fetch")],
      });
      await chat.append({ role: "tool", content: "r1", toolCallId: "c1" });
      const before = await snapshot(chat, chats);
      for (const role of ["user", "assistant", "system"] as const) {
        await expectRejectCode(() => chat.append({ role, content: "next" }), "OPEN_TOOL_CALLS");
      }
      const error = (await chat.append({ role: "user", content: "next" }).catch((e: unknown) => e)) as CtxloomError;
      expect(error.message).toContain("c2 (fetch)");
      expect(error.message).not.toContain("c1 (");
      expect(error.message).toContain("cancelToolCalls");
      expect(await snapshot(chat, chats)).toEqual(before);
    });

    it("cancelToolCalls answers every open call with a documented result, then the chat goes on", async () => {
      await chat.append({ role: "user", content: "hi" });
      await chat.append({ role: "assistant", content: "", priority: "critical", toolCalls: [call("c1"), call("c2")] });
      const results = await chat.cancelToolCalls();
      expect(results.map((m) => [m.role, m.toolCallId, m.content, m.priority])).toEqual([
        ["tool", "c1", CANCELLED_RESULT, "critical"],
        ["tool", "c2", CANCELLED_RESULT, "critical"],
      ]);
      await chat.append({ role: "user", content: "next" });
      expect(ids((await chat.buildContext()).conversation)).toEqual([0, 1, 2, 3, 4]);
      expect(await chat.cancelToolCalls()).toEqual([]); // none open
    });

    it("a call id used by an earlier, answered call on the branch is taken again (servers number calls per response); its result answers the new call", async () => {
      await chat.append({ role: "user", content: "hi" });
      await chat.append({ role: "assistant", content: "", toolCalls: [call("k")] });
      const first = await chat.append({ role: "tool", content: "r1", toolCallId: "k" });
      const again = await chat.append({ role: "assistant", content: "", toolCalls: [call("k")] });
      const second = await chat.append({ role: "tool", content: "r2", toolCallId: "k" });
      expect(second.parentId).toBe(again.id);
      const before = await snapshot(chat);
      await expectRejectCode(() => chat.append({ role: "tool", content: "r3", toolCallId: "k" }), "INVALID_TOOL_CALL"); // answered already, in its unit
      await expectRejectCode(
        () => chat.append({ role: "assistant", content: "", toolCalls: [call("j"), call("j")] }),
        "INVALID_TOOL_CALL",
      ); // two open calls of one id
      expect(await snapshot(chat)).toEqual(before);
      // The context sends each result after its own call.
      const ctx = await chat.buildContext();
      expect(ctx.conversation.map((m) => m.id)).toEqual([0, 1, first.id, again.id, second.id]);
    });

    it("a chat reopened from the store keeps the rules", async () => {
      const store = memoryStore();
      const l1 = await Loom.open({ engine, store });
      const c = await l1.user("u").create();
      await c.append({ role: "user", content: "hi" });
      await c.append({ role: "assistant", content: "", toolCalls: [call("k")] });
      const l2 = await Loom.open({ engine, store });
      const reopened = await l2.user("u").open(c.id);
      await expectRejectCode(() => reopened.append({ role: "user", content: "x" }), "OPEN_TOOL_CALLS");
      await reopened.append({ role: "tool", content: "r", toolCallId: "k" });
      await l2.close();
    });
  });

  describe("content and options", () => {
    it("lone surrogates are refused in content, edits and the system prompt", async () => {
      await expectRejectCode(() => chat.append({ role: "user", content: "bad \ud800 text" }), "INVALID_CONTENT");
      await expectRejectCode(() => chat.append({ role: "user", content: "\udc00" }), "INVALID_CONTENT");
      await expectRejectCode(() => chats.create({ system: "sys \ud83d" }), "INVALID_CONTENT");
      const u = await chat.append({ role: "user", content: "ok 😀" }); // a whole pair is fine
      await expectRejectCode(() => chat.edit(u.id, "x\ud800"), "INVALID_CONTENT");
      const win = loom.slidingWindow({ maxTokens: 100 });
      expectThrowCode(() => win.add({ role: "user", content: "\ud800" }), "INVALID_CONTENT");
    });

    it("every string a store keeps follows the texts' rules: ids, names, tool calls, parts, profiles, imports", async () => {
      // Heuristic counting: no exact counter refuses the text first, the checks themselves do.
      const l = await Loom.open({ engine, counter: "heuristic" });
      const cs = l.user("u");
      const c = await cs.create();
      await c.append({ role: "user", content: "hi" });
      const exported = c.export();
      const before = await snapshot(c, cs);
      const L = "\ud800";
      expectThrowCode(() => l.user(`u${L}`), "INVALID_ARGUMENT");
      expectThrowCode(() => l.user("\udc00"), "INVALID_ARGUMENT");
      const rejected: [string, () => Promise<unknown>][] = [
        ["INVALID_ARGUMENT", () => cs.open(`c${L}`)],
        ["INVALID_ARGUMENT", () => cs.delete(`c${L}`)],
        ["INVALID_ARGUMENT", () => cs.create({ model: { name: `m${L}`, contextWindow: 4096 } })],
        ["INVALID_CONTENT", () => cs.create({ title: `t${L}` })],
        ["INVALID_ARGUMENT", () => c.append({ role: "assistant", content: "x", name: `n${L}` })],
        ["INVALID_TOOL_CALL", () => c.append({ role: "assistant", content: "", toolCalls: [call(`k${L}`)] })],
        ["INVALID_TOOL_CALL", () => c.append({ role: "assistant", content: "", toolCalls: [call("k", `f${L}`)] })],
        [
          "INVALID_TOOL_CALL",
          () =>
            c.append({
              role: "assistant",
              content: "",
              toolCalls: [{ ...call("k"), function: { name: "f", arguments: `{"q":"${L}"}` } }],
            }),
        ],
        [
          "INVALID_CONTENT",
          () =>
            c.append({
              role: "assistant",
              content: [
                { type: "reasoning", text: "t", signature: `s${L}` },
                { type: "text", text: "x" },
              ],
            }),
        ],
        [
          "INVALID_CONTENT",
          () =>
            c.append({
              role: "assistant",
              content: [
                { type: "redacted-reasoning", data: `d${L}` },
                { type: "text", text: "x" },
              ],
            }),
        ],
        [
          "INVALID_CONTENT",
          () => c.append({ role: "user", content: [{ type: "image", image: `https://example.org/${L}.png` }] }),
        ],
        [
          "INVALID_CONTENT",
          () =>
            c.append({
              role: "user",
              content: [{ type: "file", data: `https://example.org/${L}.pdf`, mediaType: "application/pdf" }],
            }),
        ],
        ["INVALID_ARGUMENT", () => cs.import({ ...exported, chat: { ...exported.chat, id: `i${L}` } })],
        [
          "INVALID_ARGUMENT",
          () =>
            cs.import({
              ...exported,
              chat: { ...exported.chat, options: { source: { format: "jsonl", id: `s${L}` } } },
            }),
        ],
        ["INVALID_ARGUMENT", () => cs.import({ ...exported, messages: [{ ...exported.messages[0]!, name: `n${L}` }] })],
        [
          "INVALID_ARGUMENT",
          () => Loom.open({ engine, recall: { embedder: { name: `e${L}`, dimension: 3, embed: async () => [] } } }),
        ],
      ];
      for (const [code, bad] of rejected) {
        await expectRejectCode(bad, code).catch((error: Error) => {
          throw new Error(`${bad.toString()}: ${error.message}`);
        });
      }
      expect(await snapshot(c, cs)).toEqual(before);
      await l.close();
    });

    it("tool calls a provider would refuse are refused at append with INVALID_TOOL_CALL; nothing changes", async () => {
      await chat.append({ role: "user", content: "hi" });
      const before = await snapshot(chat, chats);
      const win = loom.slidingWindow({ maxTokens: 500 });
      const calls: [string, unknown][] = [
        ["a name with a dot", call("k", "get.weather")],
        ["a name with a space", call("k", "get weather")],
        ["a name of 65 characters", call("k", "x".repeat(65))],
        ["a name with an accent", call("k", "météo")],
        ["arguments that are not JSON", { ...call("k"), function: { name: "f", arguments: "city=Paris" } }],
        ["empty arguments", { ...call("k"), function: { name: "f", arguments: "" } }],
        ["arguments cut short", { ...call("k"), function: { name: "f", arguments: '{"city":' } }],
        ["an unknown key in the call", { ...call("k"), index: 0 }],
        ["an unknown key in the function", { ...call("k"), function: { name: "f", arguments: "{}", parsed: {} } }],
        ["a function that is not an object", { ...call("k"), function: "f" }],
      ];
      for (const [what, bad] of calls) {
        const input = { role: "assistant" as const, content: "", toolCalls: [bad as ToolCall] };
        await expectRejectCode(() => chat.append(input), "INVALID_TOOL_CALL").catch((error: Error) => {
          throw new Error(`${what}: ${error.message}`);
        });
        expectThrowCode(() => win.add(input), "INVALID_TOOL_CALL");
      }
      const error = (await chat
        .append({ role: "assistant", content: "", toolCalls: [{ ...call("k"), idd: "x" } as ToolCall] })
        .catch((e: unknown) => e)) as CtxloomError;
      expect(error.message).toContain('"id"'); // names the closest key
      expect(await snapshot(chat, chats)).toEqual(before);
      // Names of 64 characters, digits, "_" and "-", and any JSON text are accepted.
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [
          call("a", `${"x".repeat(60)}_1-2`),
          { ...call("b"), function: { name: "f", arguments: "[1, null]" } },
        ],
      });
    });

    it("tool calls a store kept before the rules are read as written; an import of them is refused, as an append is", async () => {
      const calls = [
        { id: "c1", type: "function" as const, function: { name: "dalle.text2im", arguments: "print(6 * 7)" } },
      ];
      const messages = [
        {
          id: 0,
          parentId: null,
          role: "user",
          content: "draw",
          priority: "normal",
          tokens: 5,
          createdAt: 1,
          kind: "message",
        },
        {
          id: 1,
          parentId: 0,
          role: "assistant",
          content: "",
          priority: "normal",
          tokens: 20,
          createdAt: 2,
          kind: "message",
          toolCalls: calls,
        },
        {
          id: 2,
          parentId: 1,
          role: "tool",
          content: "done",
          priority: "normal",
          tokens: 5,
          createdAt: 3,
          kind: "message",
          toolCallId: "c1",
        },
      ] as Message[];
      // Written by an earlier release: straight into the store, as it kept them.
      const store = memoryStore();
      const record = {
        id: "old",
        userId: "u",
        title: "",
        model: "gpt-4o",
        system: null,
        createdAt: 1,
        updatedAt: 3,
        messageCount: 3,
        head: 2,
        options: {},
      };
      await store.importChat(record, messages);
      const old = await Loom.open({ engine, store });
      const kept = await old.user("u").open("old");
      expect(kept.get(1).toolCalls).toEqual(calls);
      const ctx = await kept.buildContext({ format: "anthropic" }); // what is not JSON is sent as { arguments }
      expect(ctx.messages[1]!.content).toEqual([
        { type: "tool_use", id: "c1", name: "dalle.text2im", input: { arguments: "print(6 * 7)" } },
      ]);
      // Brought in again (its export), they pass an append's rules: refused, nothing made.
      let message = "";
      await old
        .user("v")
        .import(kept.export())
        .catch((e: CtxloomError) => (message = `${e.code}: ${e.message}`));
      expect(message).toMatch(
        /^INVALID_ARGUMENT: .*message 1 is malformed: toolCalls\[0\]\.function\.name "dalle\.text2im" is not a tool name/,
      );
      expect(await old.user("v").list()).toEqual([]);
      await old.close();
    });

    it("window({ maxMessages }) has buildContext's bound", async () => {
      await chat.append({ role: "user", content: "hi" });
      expect(MAX_MESSAGES).toBe(2 ** 31 - 1);
      expect(ids(chat.window({ maxMessages: 2 ** 31 - 1 }))).toEqual([0]);
      expectThrowCode(() => chat.window({ maxMessages: 2 ** 31 }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildContext({ maxMessages: 2 ** 31 }), "INVALID_ARGUMENT");
      expect((await chat.buildContext({ maxMessages: 2 ** 31 - 1 })).conversation).toHaveLength(1);
    });

    const unknown: [string, () => unknown, string][] = [
      ["Loom.open({ engin })", () => Loom.open({ engin: "js" } as never), "engine"],
      [
        "append({ tool_calls })",
        () => chat.append({ role: "assistant", content: "x", tool_calls: [call("k")] } as never),
        "toolCalls",
      ],
      ["append({ priorty })", () => chat.append({ role: "user", content: "x", priorty: "high" } as never), "priority"],
      ["create({ titel })", () => chats.create({ titel: "x" } as never), "title"],
      ["window({ maxMesages })", () => chat.window({ maxMesages: 3 } as never), "maxMessages"],
      ["loom.slidingWindow({ maxToken })", () => loom.slidingWindow({ maxToken: 3 } as never), "maxTokens"],
      [
        "win.add({ contnet })",
        () => loom.slidingWindow({ maxTokens: 50 }).add({ role: "user", contnet: "x" } as never),
        "content",
      ],
      ["buildPrompt({ format })", () => chat.buildPrompt({ format: "openai" } as never), "format"],
    ];
    for (const [label, call, hint] of unknown) {
      it(`unknown option keys are refused, naming the closest: ${label}`, async () => {
        let error: unknown;
        try {
          await call();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(CtxloomError);
        expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
        expect((error as CtxloomError).message).toContain(`"${hint}"`);
      });
    }
  });

  describe("the store contract", () => {
    it("Loom.open checks every Store method, naming those missing", async () => {
      const { close: _close, flush: _flush, ...partial } = memoryStore();
      const error = await Loom.open({ engine, store: partial as Store }).catch((e: CtxloomError) => e);
      expect(error).toBeInstanceOf(CtxloomError);
      expect((error as CtxloomError).code).toBe("INVALID_ARGUMENT");
      expect((error as CtxloomError).message).toContain("flush, close");
    });

    it("a store whose close() throws gives STORE_FAILED (and flush is called first)", async () => {
      const inner = memoryStore();
      const log: string[] = [];
      const store: Store = {
        ...inner,
        flush: () => void log.push("flush"),
        close: () => {
          log.push("close");
          throw new Error("disk gone");
        },
      };
      const l = await Loom.open({ engine, store });
      await l.flush();
      await expectRejectCode(() => l.close(), "STORE_FAILED");
      expect(log).toEqual(["flush", "flush", "close"]);
      await expectRejectCode(() => l.flush(), "LOOM_CLOSED");
    });

    it("the store gets a copy; messages handed out cannot change what was persisted", async () => {
      const inner = memoryStore();
      const got: Message[] = [];
      const store: Store = {
        ...inner,
        ...withoutFastPaths,
        appendMessage: ({ userId: u, chatId: c, message: m, head: h, updatedAt: t }) => (
          got.push(m), inner.appendMessage({ userId: u, chatId: c, message: m, head: h, updatedAt: t })
        ),
      };
      const l = await Loom.open({ engine, store });
      const c = await l.user("u").create();
      const input = { role: "assistant" as const, content: "", toolCalls: [call("k")] };
      const m = await c.append(input);
      expect(m).not.toBe(got[0]);
      m.content = "changed";
      m.toolCalls![0]!.function.name = "changed";
      input.toolCalls[0]!.id = "changed";
      expect(got[0]!.content).toBe("");
      expect(got[0]!.toolCalls![0]).toEqual(call("k"));
      expect(c.get(0).toolCalls![0]).toEqual(call("k"));
      const reopened = await (await Loom.open({ engine, store })).user("u").open(c.id);
      expect(reopened.get(0).toolCalls![0]).toEqual(call("k"));
      await l.close();
    });

    it("a chat whose profile had its own counter reopens only with the model registered, and counts with it", async () => {
      const store = memoryStore();
      const name = `own-counter-${engine}`;
      const counter = { name: "by-char", exact: true, count: (t: string) => t.length };
      const l1 = await Loom.open({ engine, store });
      const c = await l1
        .user("u")
        .create({ model: { name, contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25, counter } });
      const first = await c.append({ role: "user", content: "hello world" });
      const l2 = await Loom.open({ engine, store });
      const error = await l2
        .user("u")
        .open(c.id)
        .catch((e: CtxloomError) => e);
      expect((error as CtxloomError).code).toBe("UNKNOWN_MODEL");
      expect((error as CtxloomError).message).toContain("registerModel");
      registerModel({ name, contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25, counter });
      const reopened = await l2.user("u").open(c.id);
      const second = await reopened.append({ role: "assistant", content: "hello world" });
      expect(second.tokens - first.tokens).toBe("assistant".length - "user".length); // counted by characters again
      expect(reopened.stats().counter).toBe("by-char");
      await l1.close();
      await l2.close();
    });

    it("model and system throw CHAT_DELETED after a delete, like title and head", async () => {
      await chats.delete(chat.id);
      for (const read of [() => chat.model, () => chat.system, () => chat.title, () => chat.head])
        expectThrowCode(read, "CHAT_DELETED");
    });
  });
});
