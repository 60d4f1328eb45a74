// What a chat product needs of ctxloom's chats: ids the client chooses, the application's
// metadata, a list paged by last activity, appends under a given message, and redaction.
import { expect, it } from "vitest";
import {
  Loom,
  countTokens,
  memoryStore,
  type Chat,
  type ChatListPage,
  type ChatListPageOptions,
  type ChatSummary,
  type Summarizer,
} from "../../src/index.js";
import { REDACTED } from "../../src/chat/redact.js";
import { converse, expectRejectCode, forEachEngine, setup, snapshot } from "../helpers.js";
import { SMALL, talk } from "./summaries-helpers.js";

/** Every chat of `chats`, page by page. */
async function allPages(page: (o: ChatListPageOptions) => Promise<ChatListPage>, limit: number) {
  const out: ChatSummary[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const one = await page(cursor === undefined ? { limit } : { limit, after: cursor });
    expect(one.chats.length).toBeLessThanOrEqual(limit);
    out.push(...one.chats);
    if (one.cursor === null) return out;
    cursor = one.cursor;
  }
  throw new Error("more than 100 pages");
}

forEachEngine((engine) => {
  it("create({ id, metadata }): the client's id, unique per user, and the application's metadata kept", async () => {
    const { loom, chats } = await setup(engine);
    const chat = await chats.create({
      id: "useChat-Xy_1",
      metadata: { folder: "work", tags: ["a", 1, true, null], nested: { n: 2.5 } },
    });
    expect(chat.id).toBe("useChat-Xy_1");
    expect(chat.metadata).toEqual({ folder: "work", tags: ["a", 1, true, null], nested: { n: 2.5 } });
    chat.metadata.folder = "changed"; // a copy
    expect(chat.metadata.folder).toBe("work");
    expect(await chats.open("useChat-Xy_1")).toBe(chat);
    const listed = (await chats.list()).find((c) => c.id === chat.id)!;
    expect(listed.metadata).toEqual({ folder: "work", tags: ["a", 1, true, null], nested: { n: 2.5 } });
    expect("metadata" in (await chats.list()).find((c) => c.id !== chat.id)!).toBe(false); // none given: none listed
    // Another user may hold the same id: chats are the user's.
    expect((await loom.user("bob").create({ id: "useChat-Xy_1" })).id).toBe("useChat-Xy_1");
    const before = await chats.list();
    await expectRejectCode(() => chats.create({ id: "useChat-Xy_1" }), "CHAT_EXISTS");
    expect(await chats.list()).toEqual(before);
    await loom.close();
  });

  it("two creates of one id at once: one chat, the other gets CHAT_EXISTS", async () => {
    const { loom, chats } = await setup(engine);
    const results = await Promise.allSettled([chats.create({ id: "same" }), chats.create({ id: "same" })]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason.code).toBe("CHAT_EXISTS");
    expect((await chats.list()).filter((c) => c.id === "same")).toHaveLength(1);
    await loom.close();
  });

  it("create refuses a bad id or metadata and changes nothing", async () => {
    const { loom, chats } = await setup(engine);
    const before = await chats.list();
    const long = "x".repeat(129);
    for (const id of ["", long, "a b", "a/b", "é", 7, null])
      await expectRejectCode(() => chats.create({ id: id as string }), "INVALID_ARGUMENT");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = [
      null,
      [],
      "x",
      new Date(0),
      { n: NaN },
      { n: Infinity },
      { f: () => 1 },
      { u: undefined },
      { d: new Map() },
      { big: "y".repeat(70_000) },
      { s: "\ud800" },
      cyclic,
    ];
    for (const metadata of bad)
      await expectRejectCode(() => chats.create({ metadata: metadata as never }), "INVALID_ARGUMENT");
    expect(await chats.list()).toEqual(before);
    expect((await chats.create({ id: "a".repeat(128) })).id).toHaveLength(128); // the longest
    await loom.close();
  });

  it("page({ limit, after }) pages by last activity, each chat once, the same order as list()", async () => {
    let now = 1_000;
    const clock = () => now;
    const loom = await Loom.open({ engine });
    const chats = loom.user("pager");
    const made: Chat[] = [];
    const realNow = Date.now;
    Date.now = clock; // equal times: ties broken by createdAt, then id
    try {
      for (let i = 0; i < 23; i++) {
        if (i % 3 === 0) now++;
        made.push(await chats.create({ id: `c${String(i).padStart(2, "0")}`, title: `t${i}` }));
      }
      now += 10;
      await made[5]!.append({ role: "user", content: "activity" }); // c05 moves to the top
    } finally {
      Date.now = realNow;
    }
    const all = await chats.list();
    expect(all[0]!.id).toBe("c05");
    for (const limit of [1, 2, 5, 7, 23, 50]) {
      const paged = await allPages((o) => chats.page(o), limit);
      expect(paged).toEqual(all);
    }
    expect(all).toHaveLength(23); // list() returns every chat, past any page's limit
    const first = await chats.page({ limit: 4 });
    expect(first.chats.map((c) => c.id)).toEqual(["c05", "c22", "c21", "c20"]);
    expect((await chats.page({ limit: 4, after: first.cursor! })).chats.map((c) => c.id)).toEqual([
      "c19",
      "c18",
      "c17",
      "c16",
    ]);
    expect(await loom.user("nobody").page({ limit: 3 })).toEqual({ chats: [], cursor: null });
    expect(await loom.user("nobody").list()).toEqual([]);
    const before = await snapshot(made[0]!, chats);
    const bad: [unknown, RegExp][] = [
      [undefined, /page\(options\) needs its options: \{ limit, after\? \}/],
      [{}, /page\(options\)\.limit must be an integer from 1 to 1000; got undefined/],
      [{ limit: 0 }, /limit must be an integer from 1 to 1000/],
      [{ limit: 1001 }, /limit must be an integer from 1 to 1000/],
      [{ limit: 1.5 }, /limit must be an integer from 1 to 1000/],
      [{ limit: 3, after: "" }, /after must be the cursor of a page/],
      [{ limit: 3, after: "not a cursor!" }, /after must be the cursor of a page/],
      [{ limit: 3, after: "e30" }, /after must be the cursor of a page/],
      [{ limit: 3, after: 5 }, /after must be the cursor of a page/],
      [{ limit: 3, cursor: first.cursor }, /no option "cursor"/], // the page's field, not the option's name
      [{ limt: 3 }, /no option "limt"; did you mean "limit"/],
      ["50", /must be an object of options/],
    ];
    for (const [o, says] of bad) {
      await expectRejectCode(() => chats.page(o as never), "INVALID_ARGUMENT");
      await expect(chats.page(o as never)).rejects.toThrow(says);
    }
    // list() takes no argument: the paged form is page().
    const listWith = (o: unknown) => (chats.list as (o: unknown) => Promise<unknown>).call(chats, o);
    for (const o of [{ limit: 3 }, {}, 3]) {
      await expectRejectCode(() => listWith(o), "INVALID_ARGUMENT");
      await expect(listWith(o)).rejects.toThrow(/list\(\) takes no argument.*call page\(\{ limit, after \}\)/);
    }
    expect(await snapshot(made[0]!, chats)).toEqual(before);
    await loom.close();
  });

  it("append(m, { parent }) goes under that message, whatever the head is", async () => {
    const { loom, chat } = await setup(engine);
    await converse(chat, 2); // 0 1 2 3
    const m = await chat.append({ role: "assistant", content: "other answer" }, { parent: 0 });
    expect(m.parentId).toBe(0);
    expect(chat.head).toBe(m.id);
    const root = await chat.append({ role: "user", content: "a new root" }, { parent: null });
    expect(root.parentId).toBe(null);
    expect(chat.roots()).toEqual([0, root.id]);
    const before = await snapshot(chat);
    await expectRejectCode(() => chat.append({ role: "user", content: "x" }, { parent: 99 }), "UNKNOWN_MESSAGE");
    await expectRejectCode(
      () => chat.append({ role: "user", content: "x" }, { parent: "1" as never }),
      "UNKNOWN_MESSAGE",
    );
    await expectRejectCode(
      () => chat.append({ role: "user", content: "x" }, { parnt: 1 } as never),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () => chat.append({ role: "tool", content: "x", toolCallId: "c" }, { parent: 1 }),
      "INVALID_TOOL_CALL",
    );
    expect(await snapshot(chat)).toEqual(before);
    await loom.close();
  });

  it("redact erases a message's content, parts and tool arguments; the tree keeps its shape", async () => {
    const { loom, chats, chat } = await setup(engine, { recall: true });
    await chat.append({ role: "user", content: "My card number is 4111 1111 1111 1111, please remember it." });
    await chat.append({
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "c1", type: "function", function: { name: "save", arguments: '{"card":"4111 1111 1111 1111"}' } },
      ],
    });
    await chat.append({ role: "tool", toolCallId: "c1", content: "saved 4111 1111 1111 1111" });
    await chat.append({ role: "assistant", content: "Saved your card." });
    await chat.append({
      role: "user",
      content: [
        { type: "text", text: "And this photo" },
        { type: "image", image: "data:image/png;base64,iVBORw0KGgo=" },
      ],
    });
    const shape = {
      leaves: chat.leaves(),
      head: chat.head,
      count: chat.messageCount,
      parents: chat.path().map((m) => m.parentId),
      tokens: chat.path().map((m) => m.tokens) as number[] | undefined,
    };
    expect(JSON.stringify(await chat.recall("card number"))).toContain("4111"); // found before

    const r0 = await chat.redact(0);
    expect(r0.content).toBe(REDACTED);
    const r1 = await chat.redact(1);
    expect(r1.content).toBe("");
    expect(r1.toolCalls).toEqual([{ id: "c1", type: "function", function: { name: "save", arguments: "{}" } }]);
    expect((await chat.redact(2)).content).toBe(REDACTED);
    const r4 = await chat.redact(4);
    expect(r4.content).toBe(REDACTED);
    expect(r4.parts).toBeUndefined();
    expect({
      leaves: chat.leaves(),
      head: chat.head,
      count: chat.messageCount,
      parents: chat.path().map((m) => m.parentId),
    }).toEqual({ ...shape, tokens: undefined });
    // Each redacted message counts what it sends now, never more than before (the store keeps the count).
    chat.path().forEach((m, i) => expect(m.tokens).toBeLessThanOrEqual(shape.tokens![i]!));
    expect(chat.path()[0]!.tokens).toBeLessThan(shape.tokens![0]!);
    expect(JSON.stringify(chat.export())).not.toContain("4111");
    expect(JSON.stringify((await chat.buildContext()).messages)).not.toContain("4111");
    expect(JSON.stringify(await chat.recall("card number 4111"))).not.toContain("4111");
    expect((await chat.recall("4111")).filter((r) => r.reason !== "recent").map((r) => r.message.id)).not.toContain(0); // its words left the index
    expect(await chat.redact(0)).toEqual(r0); // again: the same
    await expectRejectCode(() => chat.redact(99), "UNKNOWN_MESSAGE");
    await expectRejectCode(() => chat.redact("0" as never), "UNKNOWN_MESSAGE");
    expect((await chats.list()).length).toBe(1);
    await loom.close();
  });

  it("redact keeps the token count an upper bound: a message shorter than the marker becomes a space", async () => {
    const { loom, chat } = await setup(engine);
    const m = await chat.append({ role: "user", content: "hi" });
    const r = await chat.redact(m.id);
    expect(r.tokens).toBe(m.tokens);
    expect([REDACTED, " "]).toContain(r.content);
    await loom.close();
  });

  it("redact redoes the summaries whose run holds the message: their text no longer quotes it", async () => {
    // A summarizer that quotes every message (as an LLM's summary may).
    const quoting: Summarizer = ({ messages }) =>
      messages
        .map((m) => m.content)
        .join(" | ")
        .slice(0, 400);
    const store = memoryStore();
    const loom = await Loom.open({
      engine,
      store,
      summaries: { trigger: { fraction: 0.3 }, select: { oldest: 0.5 }, summarizer: quoting },
    });
    const chat = await loom.user("u").create({ model: SMALL });
    await chat.append({ role: "user", content: "SECRET-PLAN is to sail at dawn." });
    await talk(chat, 30);
    await chat.buildContext();
    const summaries = Array.from({ length: chat.messageCount }, (_, i) => chat.get(i)).filter(
      (m) => m.kind === "summary",
    );
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.some((s) => s.content.includes("SECRET-PLAN"))).toBe(true);
    await chat.redact(0);
    for (const s of summaries) {
      const now = chat.get(s.id);
      expect(now.content).not.toContain("SECRET-PLAN");
      expect(now.content.length).toBeGreaterThan(0);
      expect(now.tokens).toBeLessThanOrEqual(s.tokens); // counted again, as presented
      expect(now.covers).toEqual(s.covers);
    }
    const ctx = await chat.buildContext();
    expect(JSON.stringify(ctx.messages)).not.toContain("SECRET-PLAN");
    expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
    expect(ctx.usage.total).toBe(countTokens(ctx.messages as never, { model: SMALL }));
    await expectRejectCode(() => chat.redact(summaries[0]!.id), "WRONG_ROLE");
    // Reopened from the store: the same texts.
    const reopened = await Loom.open({ engine, store });
    const back = await reopened.user("u").open(chat.id);
    expect(back.export().messages).toEqual(chat.export().messages);
    const again = await back.buildContext();
    expect(again.usage.total).toBe(countTokens(again.messages as never, { model: SMALL }));
    await loom.close();
  });
});
