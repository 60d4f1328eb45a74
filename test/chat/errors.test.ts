// Bad input: every rejected call throws a CtxloomError with its stable code and changes no state.
// Each case runs on both engines.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Loom, memoryStore, type Chat, type MessageInput, type Store, type UserChats } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, flakyStore, forEachEngine, setup, snapshot } from "../helpers.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The tree every case starts from (head 5; tool call c2 still pending):
 *   0 system - 1 user - 2 assistant - 3 user - 4 assistant(toolCalls c1,c2, "") - 5 tool(c1)
 *                                   \ 6 user "q1b"
 */
async function build(chat: Chat): Promise<void> {
  await chat.append({ role: "system", content: "sys" });
  await chat.append({ role: "user", content: "q0", name: "ann" });
  await chat.append({ role: "assistant", content: "a0" });
  await chat.append({ role: "user", content: "q1" });
  await chat.append({
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
      { id: "c2", type: "function", function: { name: "g", arguments: "{}" } },
    ],
  });
  await chat.append({ role: "tool", content: "r1", toolCallId: "c1" });
  await chat.checkout(2);
  await chat.append({ role: "user", content: "q1b" });
  await chat.checkout(5);
}

const SYNC_ID_OPS: Record<string, (chat: Chat, id: unknown) => unknown> = {
  get: (c, id) => c.get(id as number),
  children: (c, id) => c.children(id as number),
  siblings: (c, id) => c.siblings(id as number),
  path: (c, id) => c.path(id as number),
};
const ASYNC_ID_OPS: Record<string, (chat: Chat, id: unknown) => Promise<unknown>> = {
  checkout: (c, id) => c.checkout(id as number),
  regenerate: (c, id) => c.regenerate(id as number),
  edit: (c, id) => c.edit(id as number, "new text"),
};
/** Ids that name no message: one past the last, far out, negative, not integers, not numbers. */
const BAD_IDS: [string, unknown][] = [
  ["7 (= messageCount)", 7],
  ["1000", 1000],
  ["-1", -1],
  ["1.5", 1.5],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ['"1" (a string)', "1"],
  ["null", null],
  ["an object", { id: 1 }],
];

forEachEngine((engine) => {
  let loom: Loom;
  let chats: UserChats;
  let chat: Chat;
  let before: unknown;

  beforeEach(async () => {
    ({ loom, chats, chat } = await setup(engine));
    await build(chat);
    before = await snapshot(chat, chats);
  });
  afterEach(async () => {
    await loom.close();
  });

  const unchanged = async () => expect(await snapshot(chat, chats)).toEqual(before);

  const rejectsAppend = (name: string, input: unknown, code: string) =>
    it(`append ${name} -> ${code}`, async () => {
      await expectRejectCode(() => chat.append(input as MessageInput), code);
      await unchanged();
    });

  describe("UNKNOWN_MESSAGE", () => {
    for (const [op, call] of Object.entries(SYNC_ID_OPS)) {
      for (const [label, id] of BAD_IDS) {
        it(`${op}(${label})`, async () => {
          expectThrowCode(() => call(chat, id), "UNKNOWN_MESSAGE");
          await unchanged();
        });
      }
    }
    for (const [op, call] of Object.entries(ASYNC_ID_OPS)) {
      for (const [label, id] of BAD_IDS) {
        it(`${op}(${label})`, async () => {
          await expectRejectCode(() => call(chat, id), "UNKNOWN_MESSAGE");
          await unchanged();
        });
      }
    }
    it("get(0) on an empty chat", async () => {
      const empty = await chats.create();
      expectThrowCode(() => empty.get(0), "UNKNOWN_MESSAGE");
      expectThrowCode(() => empty.path(0), "UNKNOWN_MESSAGE");
      await expectRejectCode(() => empty.checkout(0), "UNKNOWN_MESSAGE");
      expect(empty.head).toBeNull();
      expect(empty.messageCount).toBe(0);
    });
    it("an id of another chat is not an id of this one", async () => {
      const other = await chats.create();
      before = await snapshot(chat, chats);
      expectThrowCode(() => other.get(3), "UNKNOWN_MESSAGE");
      await expectRejectCode(() => other.checkout(6), "UNKNOWN_MESSAGE");
      expect(other.messageCount).toBe(0);
      await unchanged();
    });
  });

  describe("UNKNOWN_CHAT / chat ids", () => {
    it("open of an unknown chat", async () => {
      await expectRejectCode(() => chats.open("no-such-chat"), "UNKNOWN_CHAT");
      await unchanged();
    });
    it("delete of an unknown chat", async () => {
      await expectRejectCode(() => chats.delete("no-such-chat"), "UNKNOWN_CHAT");
      await unchanged();
    });
    it("open of another user's chat", async () => {
      const bob = loom.user("bob");
      const bc = await bob.create({ title: "bob's" });
      await bc.append({ role: "user", content: "secret" });
      const bobBefore = await snapshot(bc, bob);
      await expectRejectCode(() => chats.open(bc.id), "UNKNOWN_CHAT");
      await expectRejectCode(() => loom.user("carol").open(bc.id), "UNKNOWN_CHAT");
      expect(await snapshot(bc, bob)).toEqual(bobBefore);
      await unchanged();
    });
    it("open of another user's chat from a fresh Loom on the same store", async () => {
      const store = memoryStore();
      const a = await Loom.open({ engine, store });
      const bc = await a.user("bob").create();
      const b = await Loom.open({ engine, store });
      await expectRejectCode(() => b.user("alice").open(bc.id), "UNKNOWN_CHAT");
      expect((await b.user("bob").open(bc.id)).id).toBe(bc.id);
      await a.close();
      await b.close();
    });
    it("another user's failed open does not fail the owner's concurrent open", async () => {
      const store = memoryStore();
      const a = await Loom.open({ engine, store });
      const bc = await a.user("bob").create();
      const b = await Loom.open({ engine, store });
      const [alice, bob] = await Promise.allSettled([b.user("alice").open(bc.id), b.user("bob").open(bc.id)]);
      await a.close();
      await b.close();
      expect(alice.status).toBe("rejected");
      expect(bob.status).toBe("fulfilled");
    });
    it("delete of another user's chat leaves it alive", async () => {
      const bob = loom.user("bob");
      const bc = await bob.create({ title: "bob's" });
      await bc.append({ role: "user", content: "mine" });
      const bobBefore = await snapshot(bc, bob);
      await expectRejectCode(() => chats.delete(bc.id), "UNKNOWN_CHAT");
      expect(await snapshot(bc, bob)).toEqual(bobBefore);
      await bc.append({ role: "assistant", content: "still works" });
      await unchanged();
    });
    it("open / delete of a deleted chat, delete twice", async () => {
      const c = await chats.create();
      await chats.delete(c.id);
      await expectRejectCode(() => chats.open(c.id), "UNKNOWN_CHAT");
      await expectRejectCode(() => chats.delete(c.id), "UNKNOWN_CHAT");
      await unchanged();
    });
    for (const [label, id] of [
      ["42", 42],
      ["an empty string", ""],
      ["null", null],
      ["undefined", undefined],
    ] as const) {
      it(`open / delete with a chat id that is ${label} -> INVALID_ARGUMENT`, async () => {
        await expectRejectCode(() => chats.open(id as never), "INVALID_ARGUMENT");
        await expectRejectCode(() => chats.delete(id as never), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
  });

  describe("INVALID_ROLE / INVALID_CONTENT / INVALID_PRIORITY / INVALID_ARGUMENT on append", () => {
    for (const role of ["robot", "User", "function", "", 3, null, undefined]) {
      rejectsAppend(`role ${JSON.stringify(role) ?? "undefined"}`, { role, content: "x" }, "INVALID_ROLE");
    }
    for (const [label, content] of [
      ["42", 42],
      ["null", null],
      ["undefined", undefined],
      ["an object", { text: "x" }],
      ["an array", ["x"]],
    ] as const) {
      rejectsAppend(`content ${label}`, { role: "user", content }, "INVALID_CONTENT");
    }
    for (const role of ["user", "assistant", "system"] as const) {
      rejectsAppend(`empty content (${role})`, { role, content: "" }, "INVALID_CONTENT");
    }
    for (const priority of ["urgent", "HIGH", "", 1, null]) {
      rejectsAppend(
        `priority ${JSON.stringify(priority)}`,
        { role: "user", content: "x", priority },
        "INVALID_PRIORITY",
      );
    }
    for (const [label, input] of [
      ["null", null],
      ["a string", "hello"],
      ["an array", [{ role: "user", content: "x" }]],
      ["undefined", undefined],
    ] as const) {
      rejectsAppend(`${label} instead of a message`, input, "INVALID_ARGUMENT");
    }
    rejectsAppend("an empty name", { role: "user", content: "x", name: "" }, "INVALID_ARGUMENT");
    rejectsAppend("a numeric name", { role: "user", content: "x", name: 7 }, "INVALID_ARGUMENT");
  });

  describe("INVALID_ARGUMENT on window", () => {
    for (const [label, w] of [
      ["0", 0],
      ["-1", -1],
      ["1.5", 1.5],
      ["NaN", NaN],
      ['"10"', "10"],
      ["Infinity", Infinity],
      ["null", null],
    ] as const) {
      it(`window({ maxMessages: ${label} })`, async () => {
        expectThrowCode(() => chat.window({ maxMessages: w as number }), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
    for (const [label, options] of [
      ["null", null],
      ["a number", 40],
      ["a string", "40"],
      ["an array", [40]],
    ] as const) {
      it(`window(${label})`, async () => {
        expectThrowCode(() => chat.window(options as never), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
    it("on an empty chat too", async () => {
      const empty = await chats.create();
      expectThrowCode(() => empty.window({ maxMessages: 0 }), "INVALID_ARGUMENT");
    });
  });

  describe("INVALID_TOOL_CALL", () => {
    rejectsAppend("tool without toolCallId", { role: "tool", content: "r" }, "INVALID_TOOL_CALL");
    rejectsAppend("tool with an empty toolCallId", { role: "tool", content: "r", toolCallId: "" }, "INVALID_TOOL_CALL");
    rejectsAppend("tool with a numeric toolCallId", { role: "tool", content: "r", toolCallId: 2 }, "INVALID_TOOL_CALL");
    rejectsAppend(
      "toolCallId answering no pending call",
      { role: "tool", content: "r", toolCallId: "zzz" },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend("answering c1 twice", { role: "tool", content: "r", toolCallId: "c1" }, "INVALID_TOOL_CALL");
    rejectsAppend(
      "toolCallId on a user message",
      { role: "user", content: "r", toolCallId: "c2" },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend(
      "toolCallId on an assistant message",
      { role: "assistant", content: "r", toolCallId: "c2" },
      "INVALID_TOOL_CALL",
    );
    const call = { id: "x1", type: "function", function: { name: "f", arguments: "{}" } };
    for (const role of ["user", "system", "tool"]) {
      rejectsAppend(
        `toolCalls on a ${role} message`,
        { role, content: "r", toolCalls: [call], toolCallId: "c2" },
        "INVALID_TOOL_CALL",
      );
    }
    rejectsAppend("toolCalls: []", { role: "assistant", content: "", toolCalls: [] }, "INVALID_TOOL_CALL");
    rejectsAppend("toolCalls: not an array", { role: "assistant", content: "", toolCalls: call }, "INVALID_TOOL_CALL");
    rejectsAppend(
      "toolCalls with a wrong type",
      { role: "assistant", content: "", toolCalls: [{ ...call, type: "fn" }] },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend(
      "toolCalls with repeated ids",
      { role: "assistant", content: "", toolCalls: [call, call] },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend(
      "toolCalls without an id",
      { role: "assistant", content: "", toolCalls: [{ ...call, id: "" }] },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend(
      "toolCalls without a function name",
      { role: "assistant", content: "", toolCalls: [{ ...call, function: { arguments: "{}" } }] },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend(
      "toolCalls with non-string arguments",
      { role: "assistant", content: "", toolCalls: [{ ...call, function: { name: "f", arguments: { a: 1 } } }] },
      "INVALID_TOOL_CALL",
    );
    rejectsAppend("toolCalls: [null]", { role: "assistant", content: "", toolCalls: [null] }, "INVALID_TOOL_CALL");

    it("a tool message after a user message", async () => {
      await chat.checkout(6);
      before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.append({ role: "tool", content: "r", toolCallId: "c2" }), "INVALID_TOOL_CALL");
      await unchanged();
    });
    it("a tool message as the first message", async () => {
      const empty = await chats.create();
      await expectRejectCode(() => empty.append({ role: "tool", content: "r", toolCallId: "c1" }), "INVALID_TOOL_CALL");
      expect(empty.messageCount).toBe(0);
      expect(empty.head).toBeNull();
    });
    it("a tool message after the final answer (no call pending there)", async () => {
      await chat.append({ role: "tool", content: "r2", toolCallId: "c2" });
      await chat.append({ role: "assistant", content: "done" });
      before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.append({ role: "tool", content: "r", toolCallId: "c2" }), "INVALID_TOOL_CALL");
      await unchanged();
    });
    it("answering c2 on the branch where both were answered", async () => {
      await chat.append({ role: "tool", content: "r2", toolCallId: "c2" });
      before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.append({ role: "tool", content: "r", toolCallId: "c2" }), "INVALID_TOOL_CALL");
      await unchanged();
    });
  });

  describe("WRONG_ROLE", () => {
    for (const [id, role] of [
      [0, "system"],
      [2, "assistant"],
      [4, "assistant with tool calls"],
      [5, "tool"],
    ] as const) {
      it(`edit of a ${role} message`, async () => {
        await expectRejectCode(() => chat.edit(id, "new"), "WRONG_ROLE");
        await unchanged();
      });
    }
    for (const [id, role] of [
      [0, "system"],
      [1, "user"],
      [6, "user"],
      [5, "tool"],
    ] as const) {
      it(`regenerate of a ${role} message`, async () => {
        await expectRejectCode(() => chat.regenerate(id), "WRONG_ROLE");
        await unchanged();
      });
    }
  });

  describe("INVALID_CONTENT on edit", () => {
    for (const [label, content] of [
      ["an empty string", ""],
      ["42", 42],
      ["null", null],
      ["undefined", undefined],
    ] as const) {
      it(`edit(1, ${label})`, async () => {
        await expectRejectCode(() => chat.edit(1, content as never), "INVALID_CONTENT");
        await unchanged();
      });
    }
  });

  describe("CHAT_DELETED", () => {
    let doomed: Chat;
    beforeEach(async () => {
      doomed = await chats.create({ title: "doomed" });
      await doomed.append({ role: "user", content: "q" });
      await doomed.append({ role: "assistant", content: "a" });
      await chats.delete(doomed.id);
      before = await snapshot(chat, chats);
    });
    const syncCalls: Record<string, (c: Chat) => unknown> = {
      head: (c) => c.head,
      get: (c) => c.get(0),
      path: (c) => c.path(),
      "path(id)": (c) => c.path(1),
      window: (c) => c.window({ maxMessages: 2 }),
      children: (c) => c.children(0),
      siblings: (c) => c.siblings(1),
      leaves: (c) => c.leaves(),
      roots: (c) => c.roots(),
    };
    for (const [name, call] of Object.entries(syncCalls)) {
      it(`${name} on a deleted chat throws`, async () => {
        expectThrowCode(() => call(doomed), "CHAT_DELETED");
        await unchanged();
      });
    }
    const asyncCalls: Record<string, (c: Chat) => Promise<unknown>> = {
      append: (c) => c.append({ role: "user", content: "again" }),
      "append (invalid input)": (c) => c.append({ role: "robot" as never, content: "x" }),
      regenerate: (c) => c.regenerate(1),
      edit: (c) => c.edit(0, "q'"),
      checkout: (c) => c.checkout(0),
    };
    for (const [name, call] of Object.entries(asyncCalls)) {
      it(`${name} on a deleted chat rejects`, async () => {
        await expectRejectCode(() => call(doomed), "CHAT_DELETED");
        await unchanged();
        expect((await chats.list()).some((c) => c.id === doomed.id)).toBe(false);
      });
    }
    it("changes called after delete() but before it finished are rejected too", async () => {
      const c = await chats.create();
      await c.append({ role: "user", content: "q" });
      const d = chats.delete(c.id);
      const late = c.append({ role: "assistant", content: "too late" });
      await d;
      await expect(late).rejects.toMatchObject({ code: "CHAT_DELETED" });
      await unchanged();
    });
  });

  describe("LOOM_CLOSED", () => {
    beforeEach(async () => {
      await loom.close();
    });
    it("loom.user", () => expectThrowCode(() => loom.user("alice"), "LOOM_CLOSED"));
    it("chats.create / list / open / delete", async () => {
      await expectRejectCode(() => chats.create(), "LOOM_CLOSED");
      await expectRejectCode(() => chats.list(), "LOOM_CLOSED");
      await expectRejectCode(() => chats.open(chat.id), "LOOM_CLOSED");
      await expectRejectCode(() => chats.delete(chat.id), "LOOM_CLOSED");
    });
    it("chat changes", async () => {
      await expectRejectCode(() => chat.append({ role: "user", content: "x" }), "LOOM_CLOSED");
      await expectRejectCode(() => chat.regenerate(2), "LOOM_CLOSED");
      await expectRejectCode(() => chat.edit(1, "x"), "LOOM_CLOSED");
      await expectRejectCode(() => chat.checkout(1), "LOOM_CLOSED");
    });
    it("chat reads", () => {
      expectThrowCode(() => chat.head, "LOOM_CLOSED");
      expectThrowCode(() => chat.get(0), "LOOM_CLOSED");
      expectThrowCode(() => chat.path(), "LOOM_CLOSED");
      expectThrowCode(() => chat.window({ maxMessages: 3 }), "LOOM_CLOSED");
      expectThrowCode(() => chat.children(0), "LOOM_CLOSED");
      expectThrowCode(() => chat.siblings(0), "LOOM_CLOSED");
      expectThrowCode(() => chat.leaves(), "LOOM_CLOSED");
      expectThrowCode(() => chat.roots(), "LOOM_CLOSED");
    });
  });

  describe("INVALID_ARGUMENT: Loom.open options, user ids, create options", () => {
    const badOptions: [string, unknown][] = [
      ["null", null],
      ["a string", "wasm"],
      ["an array", []],
      ['engine "gpu"', { engine: "gpu" }],
      ['engine "WASM"', { engine: "WASM" }],
      ["engine 1", { engine: 1 }],
      ["maxMemoryMB 0", { maxMemoryMB: 0 }],
      ["maxMemoryMB -5", { maxMemoryMB: -5 }],
      ["maxMemoryMB 5000", { maxMemoryMB: 5000 }],
      ["maxMemoryMB NaN", { maxMemoryMB: NaN }],
      ['maxMemoryMB "64"', { maxMemoryMB: "64" }],
      ["wasm 42", { wasm: 42 }],
      ['wasm "bytes"', { wasm: "bytes" }],
      ["store {}", { store: {} }],
      ["store 42", { store: 42 }],
      ["store null", { store: null }],
      ['counter "exactly"', { counter: "exactly" }],
    ];
    for (const [label, options] of badOptions) {
      it(`Loom.open(${label})`, async () => {
        const merged =
          options !== null && typeof options === "object" && !Array.isArray(options) ? { engine, ...options } : options;
        await expectRejectCode(() => Loom.open(merged as never), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
    for (const [label, userId] of [
      ["an empty string", ""],
      ["42", 42],
      ["null", null],
      ["undefined", undefined],
      ["an object", {}],
    ] as const) {
      it(`loom.user(${label})`, async () => {
        expectThrowCode(() => loom.user(userId as never), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
    for (const [label, options] of [
      ["a string", "Trip"],
      ["null", null],
      ["a numeric title", { title: 42 }],
      ["an empty model", { model: "" }],
      ["a numeric model", { model: 4 }],
      ["a non-string system", { system: { text: "x" } }],
    ] as const) {
      it(`chats.create(${label})`, async () => {
        await expectRejectCode(() => chats.create(options as never), "INVALID_ARGUMENT");
        await unchanged();
      });
    }
  });

  if (engine === "wasm") {
    it("WASM_UNAVAILABLE for bytes that are not a WebAssembly module", async () => {
      await expectRejectCode(() => Loom.open({ engine, wasm: new Uint8Array([0, 1, 2, 3]) }), "WASM_UNAVAILABLE");
    });
    it("a core passed in wasm that cannot load is refused, engine given or not: never replaced by the JS engine", async () => {
      const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]); // a valid module, but not ctxloom's core
      for (const wasm of [new Uint8Array([0, 1, 2, 3]), empty, await WebAssembly.compile(empty)]) {
        await expectRejectCode(() => Loom.open({ wasm }), "WASM_UNAVAILABLE");
        await expectRejectCode(() => Loom.open({ engine: "wasm", wasm }), "WASM_UNAVAILABLE");
      }
    });
    it("Loom.open({ wasm }) accepts the compiled module and the bytes", async () => {
      const bytes = readFileSync(join(repoRoot, "build/ctxloom.wasm"));
      for (const wasm of [
        await WebAssembly.compile(bytes),
        new Uint8Array(bytes),
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      ]) {
        const l = await Loom.open({ engine, wasm });
        expect(l.engine).toBe("wasm");
        const c = await l.user("u").create();
        await c.append({ role: "user", content: "works" });
        expect(c.window({ maxMessages: 1 })[0]!.content).toBe("works");
        await l.close();
      }
    });
  }
});

// ---- a slow store that then fails: the rejected append must not be visible meanwhile ----

forEachEngine((engine) => {
  it("while a store write is pending, readers see the chat as it was (no dirty reads)", async () => {
    const inner = memoryStore();
    let fail = false;
    // Gates, not sleeps: the failing write announces it is under way, then waits to be let go.
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const store: Store = {
      ...inner,
      name: "slow",
      createChat: (c) => inner.createChat(c),
      listChats: (u) => inner.listChats(u),
      loadChat: (u, c) => inner.loadChat(u, c),
      setHead: (...a) => inner.setHead(...a),
      deleteChat: (u, c) => inner.deleteChat(u, c),
      close: () => inner.close(),
      appendMessage: async (...a) => {
        if (fail) {
          entered();
          await released;
          throw new Error("disk full");
        }
        return inner.appendMessage(...a);
      },
    };
    const { loom, chats, chat } = await setup(engine, { store });
    try {
      await build(chat);
      const before = await snapshot(chat, chats);
      fail = true;
      const pending = chat.append({ role: "tool", content: "r2", toolCallId: "c2" });
      await inFlight; // the write is under way, and stays so until released
      const during = await snapshot(chat, chats).catch((e: unknown) => e);
      release();
      await expect(pending).rejects.toMatchObject({ code: "STORE_FAILED" });
      expect(await snapshot(chat, chats)).toEqual(before); // after: unchanged (passes today)
      expect(during).toEqual(before);
    } finally {
      await loom.close();
    }
  });
});

// ---- a store that fails: STORE_FAILED, the chat unchanged ----

forEachEngine((engine) => {
  for (const mode of ["throws", "rejects"] as const) {
    describe(`a store that ${mode}`, () => {
      let loom: Loom;
      let chats: UserChats;
      let chat: Chat;
      let state: { failing: Set<string> };
      let store: Store;
      let before: unknown;

      beforeEach(async () => {
        const flaky = flakyStore({ async: mode === "rejects" });
        state = flaky.state;
        store = flaky.store;
        ({ loom, chats, chat } = await setup(engine, { store: flaky.store }));
        await build(chat);
        before = await snapshot(chat, chats);
      });
      afterEach(async () => {
        state.failing.clear();
        await loom.close();
      });
      const unchanged = async () => expect(await snapshot(chat, chats)).toEqual(before);

      it("append -> STORE_FAILED; nothing changed; the next append takes the same id", async () => {
        state.failing.add("appendMessage");
        await expectRejectCode(() => chat.append({ role: "tool", content: "r2", toolCallId: "c2" }), "STORE_FAILED");
        await unchanged();
        state.failing.clear();
        const m = await chat.append({ role: "tool", content: "r2", toolCallId: "c2" });
        expect(m.id).toBe(7);
        expect(m.parentId).toBe(5);
        expect(chat.children(5)).toEqual([7]);
        expect(chat.leaves()).toEqual([6, 7]);
      });
      it("edit -> STORE_FAILED; nothing changed", async () => {
        state.failing.add("appendMessage");
        await expectRejectCode(() => chat.edit(3, "q1 edited"), "STORE_FAILED");
        await unchanged();
        expect(chat.children(2)).toEqual([3, 6]);
      });
      it("a failed append of a new root (after regenerate of a root) leaves the roots as they were", async () => {
        const c = await chats.create();
        await c.append({ role: "assistant", content: "r" });
        await c.regenerate(0);
        state.failing.add("appendMessage");
        await expectRejectCode(() => c.append({ role: "assistant", content: "r2" }), "STORE_FAILED");
        expect(c.roots()).toEqual([0]);
        expect(c.head).toBeNull();
        expect(c.messageCount).toBe(1);
      });
      it("checkout -> STORE_FAILED; head unchanged", async () => {
        state.failing.add("setHead");
        await expectRejectCode(() => chat.checkout(6), "STORE_FAILED");
        await unchanged();
      });
      it("regenerate -> STORE_FAILED; head unchanged", async () => {
        state.failing.add("setHead");
        await expectRejectCode(() => chat.regenerate(2), "STORE_FAILED");
        await unchanged();
      });
      it("create -> STORE_FAILED; the list unchanged", async () => {
        state.failing.add("createChat");
        await expectRejectCode(() => chats.create({ title: "x" }), "STORE_FAILED");
        await unchanged();
      });
      it("failures at block growth (ids 16, 32, 64) are undone cleanly", async () => {
        const c = await chats.create();
        before = await snapshot(chat);
        for (let i = 0; i < 100; i++) {
          if (i === 16 || i === 32 || i === 64) {
            state.failing.add("appendMessage");
            await expectRejectCode(() => c.append({ role: "user", content: "lost" }), "STORE_FAILED");
            state.failing.clear();
            expect(c.messageCount).toBe(i);
          }
          const m = await c.append({ role: i % 2 ? "assistant" : "user", content: `m${i}` });
          expect(m.id).toBe(i);
        }
        expect(c.path().map((m) => m.content)).toEqual(Array.from({ length: 100 }, (_, i) => `m${i}`));
        expect(c.leaves()).toEqual([99]);
        expect(await snapshot(chat)).toEqual(before); // the other chat of the same engine is intact
      });
      it("a failure between un-awaited appends: the others land, in order, without a gap", async () => {
        const c = await chats.create();
        const p0 = c.append({ role: "user", content: "0" });
        const p1 = p0.then(() => state.failing.add("appendMessage"));
        const bad = c.append({ role: "assistant", content: "lost" });
        const p2 = bad.catch(() => state.failing.clear());
        const p3 = c.append({ role: "assistant", content: "1" });
        await Promise.all([p0, p1, p2]);
        await expect(bad).rejects.toMatchObject({ code: "STORE_FAILED" });
        expect((await p3).id).toBe(1);
        expect(c.path().map((m) => m.content)).toEqual(["0", "1"]);
      });
      it("a failed delete leaves the chat usable and listed", async () => {
        state.failing.add("deleteChat");
        await expect(chats.delete(chat.id)).rejects.toThrow();
        state.failing.clear();
        await unchanged();
        await chat.append({ role: "tool", content: "r2", toolCallId: "c2" });
      });
      it("delete -> STORE_FAILED", async () => {
        state.failing.add("deleteChat");
        await expectRejectCode(() => chats.delete(chat.id), "STORE_FAILED");
      });
      // Same cause on the read side (list, open): DESIGN says every error thrown is a CtxloomError.
      it("list with a failing store -> a CtxloomError", async () => {
        state.failing.add("listChats");
        await expectRejectCode(() => chats.list(), "STORE_FAILED");
      });
      it("open with a failing store -> a CtxloomError", async () => {
        const other = await Loom.open({ engine, store: store });
        state.failing.add("loadChat");
        try {
          await expectRejectCode(() => other.user("alice").open(chat.id), "STORE_FAILED");
        } finally {
          await other.close();
        }
      });
    });
  }
});
