// The conversation tree of seed 000 through the public Chat API, on both engines.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Chat, Loom, Message, ToolCall, UserChats } from "../../src/index.js";
import { converse, forEachEngine, ids, setup, texts } from "../helpers.js";

forEachEngine((engine) => {
  let loom: Loom;
  let chats: UserChats;
  let chat: Chat;

  beforeEach(async () => {
    ({ loom, chats, chat } = await setup(engine));
  });
  afterEach(async () => {
    await loom.close();
  });

  // ---- seed 000, 2.1 and 2.2: append user / LLM answer, O(1) ----

  it("an empty chat has no head, no path, no window, no leaves", () => {
    expect(chat.head).toBeNull();
    expect(chat.messageCount).toBe(0);
    expect(chat.path()).toEqual([]);
    expect(chat.window({ maxMessages: 40 })).toEqual([]);
    expect(chat.window()).toEqual([]);
    expect(chat.leaves()).toEqual([]);
    expect(chat.roots()).toEqual([]);
  });

  it("2.1 append a user message: a root, head moves to it", async () => {
    const u = await chat.append({ role: "user", content: "hi" });
    expect(u.id).toBe(0);
    expect(u.parentId).toBeNull();
    expect(u.role).toBe("user");
    expect(u.content).toBe("hi");
    expect(chat.head).toBe(0);
    expect(chat.roots()).toEqual([0]);
    expect(chat.messageCount).toBe(1);
  });

  it("2.2 append the assistant answer: child of the user turn, head moves", async () => {
    const u = await chat.append({ role: "user", content: "hi" });
    const a = await chat.append({ role: "assistant", content: "hello" });
    expect(a.id).toBe(1);
    expect(a.parentId).toBe(u.id);
    expect(a.role).toBe("assistant");
    expect(chat.head).toBe(a.id);
    expect(chat.children(u.id)).toEqual([a.id]);
    expect(ids(chat.path())).toEqual([0, 1]);
  });

  it("append always links to the head, wherever it is", async () => {
    await converse(chat, 3); // 0..5
    await chat.checkout(1);
    const m = await chat.append({ role: "user", content: "branch" });
    expect(m.parentId).toBe(1);
    expect(chat.children(1)).toEqual([2, m.id]);
    expect(ids(chat.path())).toEqual([0, 1, m.id]);
  });

  it("message ids are 0, 1, 2, ... in creation order, across branches", async () => {
    const seen: number[] = [];
    seen.push((await chat.append({ role: "user", content: "a" })).id);
    seen.push((await chat.append({ role: "assistant", content: "b" })).id);
    await chat.regenerate(1);
    seen.push((await chat.append({ role: "assistant", content: "b2" })).id);
    seen.push((await chat.edit(0, "a2")).id);
    seen.push((await chat.append({ role: "assistant", content: "c" })).id);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(chat.messageCount).toBe(5);
  });

  // ---- seed 000, 2.3: regenerate ----

  it("2.3 regenerate: head goes back to the user turn, the old answer stays, the next append is its sibling", async () => {
    const u = await chat.append({ role: "user", content: "q" });
    const a = await chat.append({ role: "assistant", content: "first answer" });
    const back = await chat.regenerate(a.id);
    expect(back).toEqual(u);
    expect(chat.head).toBe(u.id);
    expect(chat.get(a.id)).toEqual(a); // kept
    const b = await chat.append({ role: "assistant", content: "second answer" });
    expect(b.parentId).toBe(u.id);
    expect(chat.siblings(b.id)).toEqual([a.id]);
    expect(chat.siblings(a.id)).toEqual([b.id]);
    expect(chat.children(u.id)).toEqual([a.id, b.id]);
    expect(texts(chat.path())).toEqual(["q", "second answer"]);
    expect(texts(chat.path(a.id))).toEqual(["q", "first answer"]);
    expect(chat.leaves()).toEqual([a.id, b.id]);
  });

  it("regenerate of an older answer mid-conversation branches there", async () => {
    await converse(chat, 3); // u0 a1 u2 a3 u4 a5
    await chat.regenerate(3);
    expect(chat.head).toBe(2);
    const b = await chat.append({ role: "assistant", content: "a1 again" });
    expect(b.parentId).toBe(2);
    expect(ids(chat.path())).toEqual([0, 1, 2, b.id]);
    expect(ids(chat.path(5))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(chat.leaves()).toEqual([5, b.id]);
  });

  it("regenerate several times makes several siblings", async () => {
    await converse(chat, 1);
    for (let i = 0; i < 4; i++) {
      await chat.regenerate(chat.head!);
      await chat.append({ role: "assistant", content: `try ${i}` });
    }
    expect(chat.children(0)).toEqual([1, 2, 3, 4, 5]);
    expect(chat.siblings(3)).toEqual([1, 2, 4, 5]);
  });

  it("regenerate of a root assistant message empties the head; the next append is a new root", async () => {
    const a = await chat.append({ role: "assistant", content: "greeting" });
    expect(await chat.regenerate(a.id)).toBeNull();
    expect(chat.head).toBeNull();
    expect(chat.path()).toEqual([]);
    expect(chat.window()).toEqual([]);
    const b = await chat.append({ role: "assistant", content: "other greeting" });
    expect(b.parentId).toBeNull();
    expect(chat.roots()).toEqual([a.id, b.id]);
    expect(chat.siblings(a.id)).toEqual([b.id]);
  });

  // ---- seed 000, 2.4: edit ----

  it("2.4 edit a past user message: new sibling, original kept, head moves, same parent/priority/name", async () => {
    await converse(chat, 2); // u0 a1 u2 a3
    const original = await chat.checkout(2);
    const before = chat.get(2);
    const e = await chat.edit(2, "q1 edited");
    expect(e.id).toBe(4);
    expect(e.role).toBe("user");
    expect(e.content).toBe("q1 edited");
    expect(e.parentId).toBe(original.parentId);
    expect(e.priority).toBe(original.priority);
    expect(chat.head).toBe(e.id);
    expect(chat.get(2)).toEqual(before);
    expect(chat.children(1)).toEqual([2, 4]);
    expect(chat.siblings(4)).toEqual([2]);
    expect(texts(chat.path())).toEqual(["q0", "a0", "q1 edited"]);
    expect(texts(chat.path(3))).toEqual(["q0", "a0", "q1", "a1"]);
    const answer = await chat.append({ role: "assistant", content: "answer to edit" });
    expect(answer.parentId).toBe(e.id);
  });

  it("edit keeps a non-default priority and the name", async () => {
    await chat.append({ role: "system", content: "be brief" });
    const u = await chat.append({ role: "user", content: "hello", priority: "high", name: "bob" });
    await chat.append({ role: "assistant", content: "hi bob" });
    const e = await chat.edit(u.id, "hello there");
    expect(e.priority).toBe("high");
    expect(e.name).toBe("bob");
    expect(e.parentId).toBe(0);
  });

  it("edit does not need the head on the edited branch, and works on a root user message", async () => {
    await converse(chat, 2);
    const e = await chat.edit(0, "root rewritten");
    expect(e.parentId).toBeNull();
    expect(chat.roots()).toEqual([0, e.id]);
    expect(chat.head).toBe(e.id);
    expect(ids(chat.path())).toEqual([e.id]);
    expect(chat.siblings(0)).toEqual([e.id]);
  });

  // ---- seed 000, 2.5: switch branch ----

  it("2.5 checkout moves the head to any node; append continues from there", async () => {
    await converse(chat, 2); // 0..3
    await chat.regenerate(3);
    await chat.append({ role: "assistant", content: "alt" }); // 4
    const m = await chat.checkout(3);
    expect(m).toEqual(chat.get(3));
    expect(chat.head).toBe(3);
    expect(texts(chat.window({ maxMessages: 2 }))).toEqual(["q1", "a1"]);
    await chat.checkout(4);
    expect(texts(chat.window({ maxMessages: 2 }))).toEqual(["q1", "alt"]);
    await chat.checkout(0); // an inner node
    expect(ids(chat.path())).toEqual([0]);
    const n = await chat.append({ role: "assistant", content: "from the root" });
    expect(n.parentId).toBe(0);
    expect(chat.children(0)).toEqual([1, n.id]);
  });

  it("checkout of the head itself is a no-op", async () => {
    await converse(chat, 1);
    await chat.checkout(1);
    expect(chat.head).toBe(1);
    expect(chat.messageCount).toBe(2);
  });

  // ---- seed 000, 2.6 and 2.7: window of W messages, changing W ----

  it("2.6 window({maxMessages}) returns the last W messages of the active branch, oldest first", async () => {
    const all = await converse(chat, 10); // 20 messages
    expect(ids(chat.window({ maxMessages: 4 }))).toEqual([16, 17, 18, 19]);
    expect(chat.window({ maxMessages: 4 })).toEqual(all.slice(-4));
    expect(chat.window({ maxMessages: 1 })).toEqual([all[19]]);
    expect(chat.window({ maxMessages: 20 })).toEqual(all);
    expect(chat.window({ maxMessages: 1000 })).toEqual(all);
    expect(chat.window()).toEqual(all); // default 40
  });

  it("2.7 changing W is only the argument: windows of every size agree with the path", async () => {
    await converse(chat, 6);
    await chat.regenerate(7);
    await chat.append({ role: "assistant", content: "alt" });
    await converse(chat, 3, "b");
    const path = chat.path();
    for (let w = 1; w <= path.length + 2; w++) {
      expect(chat.window({ maxMessages: w })).toEqual(path.slice(Math.max(0, path.length - w)));
    }
  });

  it("the default window is 40 messages", async () => {
    await converse(chat, 25);
    const w = chat.window();
    expect(w).toHaveLength(40);
    expect(w[39]!.id).toBe(49);
    expect(chat.window({})).toEqual(w);
    expect(chat.window({ maxMessages: undefined })).toEqual(w);
  });

  // ---- seed 000, 2.8: restore ----

  it("2.8 path() restores the conversation root -> head; path(id) any branch", async () => {
    await converse(chat, 3);
    await chat.edit(2, "q1'");
    await chat.append({ role: "assistant", content: "a1'" });
    expect(texts(chat.path())).toEqual(["q0", "a0", "q1'", "a1'"]);
    expect(texts(chat.path(5))).toEqual(["q0", "a0", "q1", "a1", "q2", "a2"]);
    expect(texts(chat.path(0))).toEqual(["q0"]);
    expect(chat.path(chat.head!)).toEqual(chat.path());
    for (const m of chat.path(5)) expect(m).toEqual(chat.get(m.id));
    // each message's parent is the previous one
    const p = chat.path(5);
    p.forEach((m, i) => expect(m.parentId).toBe(i === 0 ? null : p[i - 1]!.id));
  });

  // ---- queries ----

  it("children in creation order, siblings exclude self, roots and leaves", async () => {
    const u = await chat.append({ role: "user", content: "u" }); // 0
    await chat.append({ role: "assistant", content: "a" }); // 1
    await chat.regenerate(1);
    await chat.append({ role: "assistant", content: "b" }); // 2
    await chat.regenerate(1);
    await chat.append({ role: "assistant", content: "c" }); // 3
    await chat.checkout(1);
    await chat.append({ role: "user", content: "x" }); // 4
    await chat.edit(0, "u2"); // 5, a second root
    expect(chat.children(u.id)).toEqual([1, 2, 3]);
    expect(chat.children(1)).toEqual([4]);
    expect(chat.children(4)).toEqual([]);
    expect(chat.siblings(2)).toEqual([1, 3]);
    expect(chat.siblings(4)).toEqual([]);
    expect(chat.siblings(0)).toEqual([5]);
    expect(chat.roots()).toEqual([0, 5]);
    expect(chat.leaves()).toEqual([2, 3, 4, 5]);
  });

  it("get returns the message; results are copies the caller may mutate", async () => {
    const u = await chat.append({ role: "user", content: "hi", name: "ann" });
    const got = chat.get(u.id);
    expect(got).toEqual(u);
    got.content = "changed";
    (got as { parentId: number | null }).parentId = 99;
    expect(chat.get(u.id)).toEqual(u);
    const p = chat.path();
    p.pop();
    expect(chat.path()).toHaveLength(1);
    const c = chat.children(u.id);
    c.push(42);
    expect(chat.children(u.id)).toEqual([]);
    const l = chat.leaves();
    l.push(7);
    expect(chat.leaves()).toEqual([0]);
  });

  // ---- Message fields ----

  it("Message fields: parentId, defaults of priority, kind, tokens, createdAt", async () => {
    const t0 = Date.now();
    const s = await chat.append({ role: "system", content: "You are terse." });
    const u = await chat.append({ role: "user", content: "hello" });
    const a = await chat.append({ role: "assistant", content: "hi", priority: "low" });
    const h = await chat.append({ role: "user", content: "x", priority: "high" });
    const c = await chat.append({ role: "system", content: "note", priority: "normal" });
    expect(s.priority).toBe("critical");
    expect(u.priority).toBe("normal");
    expect(a.priority).toBe("low");
    expect(h.priority).toBe("high");
    expect(c.priority).toBe("normal");
    expect(s.parentId).toBeNull();
    expect(u.parentId).toBe(s.id);
    for (const m of [s, u, a, h, c]) {
      expect(m.kind).toBe("message");
      expect(Number.isInteger(m.tokens)).toBe(true);
      expect(m.tokens).toBeGreaterThan(0);
      expect(typeof m.createdAt).toBe("number");
      expect(m.createdAt).toBeGreaterThanOrEqual(t0);
      expect(m.createdAt).toBeLessThanOrEqual(Date.now());
      expect("name" in m).toBe(false);
      expect("toolCalls" in m).toBe(false);
      expect("toolCallId" in m).toBe(false);
    }
    // a longer text costs more tokens (counts are per node, cached)
    const long = await chat.append({ role: "user", content: "word ".repeat(200) });
    expect(long.tokens).toBeGreaterThan(u.tokens);
    expect(chat.get(long.id).tokens).toBe(long.tokens);
  });

  it("Message fields: name, toolCalls and toolCallId are preserved", async () => {
    const u = await chat.append({ role: "user", content: "weather?", name: "carol" });
    expect(u.name).toBe("carol");
    const calls: ToolCall[] = [
      { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
    ];
    const a = await chat.append({ role: "assistant", content: "", toolCalls: calls });
    expect(a.content).toBe("");
    expect(a.toolCalls).toEqual(calls);
    calls[0]!.function.name = "mutated after append";
    expect(chat.get(a.id).toolCalls![0]!.function.name).toBe("weather");
    const t = await chat.append({ role: "tool", content: '{"temp":3}', toolCallId: "call_1" });
    expect(t.toolCallId).toBe("call_1");
    expect(chat.get(t.id)).toEqual(t);
    expect(chat.get(u.id).name).toBe("carol");
  });

  // ---- tool call flow ----

  it("tool call flow: assistant with toolCalls and empty content, tool results, final answer", async () => {
    await chat.append({ role: "user", content: "Weather in Oslo and Rome?" });
    const call = await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
        { id: "c2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
      ],
    });
    const r2 = await chat.append({ role: "tool", content: "14C", toolCallId: "c2" }); // any order
    const r1 = await chat.append({ role: "tool", content: "3C", toolCallId: "c1" });
    expect(r2.parentId).toBe(call.id);
    expect(r1.parentId).toBe(r2.id);
    const fin = await chat.append({ role: "assistant", content: "Oslo 3C, Rome 14C." });
    expect(chat.path().map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(chat.path().map((m) => m.toolCallId)).toEqual([undefined, undefined, "c2", "c1", undefined]);
    // a second branch may answer the same call again (another branch, another result)
    await chat.checkout(call.id);
    const again = await chat.append({ role: "tool", content: "4C", toolCallId: "c1" });
    expect(again.parentId).toBe(call.id);
    expect(chat.children(call.id)).toEqual([r2.id, again.id]);
    // regenerate the final answer
    await chat.regenerate(fin.id);
    expect(chat.head).toBe(r1.id);
  });

  // ---- concurrency ----

  it("concurrent un-awaited appends land in call order", async () => {
    const pending = Array.from({ length: 20 }, (_, i) =>
      chat.append({ role: i % 2 ? "assistant" : "user", content: `m${i}` }),
    );
    const done = await Promise.all(pending);
    expect(ids(done)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    done.forEach((m, i) => expect(m.parentId).toBe(i === 0 ? null : i - 1));
    expect(texts(chat.path())).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
  });

  it("interleaved un-awaited changes apply in call order; a rejected one does not disturb the others", async () => {
    const p1 = chat.append({ role: "user", content: "q" });
    const p2 = chat.append({ role: "assistant", content: "a" });
    const p3 = chat.regenerate(1);
    const bad = chat.append({ role: "robot" as never, content: "nope" });
    const p4 = chat.append({ role: "assistant", content: "b" });
    const p5 = chat.edit(0, "q'");
    const p6 = chat.checkout(2);
    await expect(bad).rejects.toMatchObject({ code: "INVALID_ROLE" });
    const [u, a, back, b, e, co] = await Promise.all([p1, p2, p3, p4, p5, p6]);
    expect([u.id, a.id, back!.id, b.id, e.id, co.id]).toEqual([0, 1, 0, 2, 3, 2]);
    expect(b.parentId).toBe(0);
    expect(e.parentId).toBeNull();
    expect(chat.head).toBe(2);
    expect(chat.messageCount).toBe(4);
  });

  it("sync reads see the changes already awaited only", async () => {
    const p = chat.append({ role: "user", content: "q" });
    expect(chat.head).toBeNull();
    expect(chat.messageCount).toBe(0);
    await p;
    expect(chat.head).toBe(0);
  });

  // ---- a longer scenario: the three threads of seed 000's figure 1.4.3 ----

  it("seed 000 figure: main thread, an edit and a regeneration, each restorable", async () => {
    await chat.append({ role: "system", content: "sys" }); // 0
    await chat.append({ role: "user", content: "u1" }); // 1
    await chat.append({ role: "assistant", content: "a1" }); // 2
    await chat.append({ role: "user", content: "u2" }); // 3
    await chat.append({ role: "assistant", content: "a2" }); // 4
    const mainTip = chat.head!;
    await chat.regenerate(4);
    const regen = await chat.append({ role: "assistant", content: "a2 regen" }); // 5
    const edit = await chat.edit(3, "u2 edited"); // 6
    const editAns = await chat.append({ role: "assistant", content: "a2 for edit" }); // 7
    expect(texts(chat.path(mainTip))).toEqual(["sys", "u1", "a1", "u2", "a2"]);
    expect(texts(chat.path(regen.id))).toEqual(["sys", "u1", "a1", "u2", "a2 regen"]);
    expect(texts(chat.path(editAns.id))).toEqual(["sys", "u1", "a1", "u2 edited", "a2 for edit"]);
    expect(chat.leaves()).toEqual([mainTip, regen.id, editAns.id]);
    expect(chat.children(2)).toEqual([3, edit.id]);
    expect(chat.children(3)).toEqual([4, 5]);
    // no duplication: 8 messages for three threads of 5
    expect(chat.messageCount).toBe(8);
    for (const leaf of chat.leaves()) {
      await chat.checkout(leaf);
      expect(chat.window({ maxMessages: 3 })).toEqual(chat.path(leaf).slice(-3));
    }
  });

  it("chat metadata: title, model, system, createdAt/updatedAt", async () => {
    const c = await chats.create({ title: "Trip", model: "llama3.2", system: "You plan trips." });
    expect(c.title).toBe("Trip");
    expect(c.model).toBe("llama3.2");
    expect(c.system).toBe("You plan trips.");
    expect(c.userId).toBe("alice");
    expect(typeof c.id).toBe("string");
    expect(c.updatedAt).toBeGreaterThanOrEqual(c.createdAt);
    const d = await chats.create();
    expect(d.model).toBe("gpt-4o");
    expect(d.system).toBeNull();
    expect(d.id).not.toBe(c.id);
    const before = c.updatedAt;
    await new Promise((r) => setTimeout(r, 2));
    await c.append({ role: "user", content: "go" });
    expect(c.updatedAt).toBeGreaterThan(before);
  });

  it("messages of different chats do not mix; ids restart at 0 per chat", async () => {
    const other = await chats.create();
    await converse(chat, 3);
    const m = await other.append({ role: "user", content: "elsewhere" });
    expect(m.id).toBe(0);
    expect(m.parentId).toBeNull();
    expect(other.messageCount).toBe(1);
    expect(chat.messageCount).toBe(6);
    expect(texts(other.path())).toEqual(["elsewhere"]);
    expect(texts(chat.window({ maxMessages: 2 }))).toEqual(["q2", "a2"]);
  });

  it("many chats grow side by side (interleaved block growth in one engine)", async () => {
    const list: Chat[] = [chat];
    for (let i = 0; i < 20; i++) list.push(await chats.create({ title: `c${i}` }));
    for (let round = 0; round < 40; round++) {
      for (const [k, c] of list.entries())
        await c.append({ role: round % 2 ? "assistant" : "user", content: `${k}:${round}` });
    }
    for (const [k, c] of list.entries()) {
      expect(c.messageCount).toBe(40);
      expect(texts(c.path())).toEqual(Array.from({ length: 40 }, (_, r) => `${k}:${r}`));
      expect(texts(c.window({ maxMessages: 3 }))).toEqual([`${k}:37`, `${k}:38`, `${k}:39`]);
    }
  });

  it("a message with every field round-trips through get, path and window", async () => {
    const m: Omit<Message, "id" | "parentId" | "tokens" | "createdAt" | "kind"> = {
      role: "user",
      content: "ünïcödé ✓ 🎉\nnew line",
      priority: "critical",
      name: "zoë",
    };
    const got = await chat.append(m);
    expect(got).toMatchObject(m);
    expect(chat.path()[0]).toEqual(got);
    expect(chat.window({ maxMessages: 1 })[0]).toEqual(got);
  });
});
