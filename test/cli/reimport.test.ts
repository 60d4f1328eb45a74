// Importing an export again: each chat remembers the conversation it came from, so a second
// import adds what is new to that chat instead of copying every chat (--copy copies).
import { describe, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { memoryStore } from "../../src/store/memory.js";
import { chatgptSample } from "../import/samples.js";
import { cli, file } from "./cli.js";

type Reported = {
  id: string;
  status: string;
  added?: number;
  reason?: string;
  messages: number;
  ids: Record<string, number>;
};
const node = (id: string, parent: string, children: string[], role: string, text: string, time: number) => ({
  id,
  parent,
  children,
  message: {
    author: { role, name: null, metadata: {} },
    content: { content_type: "text", parts: [text] },
    metadata: {},
    recipient: "all",
    create_time: time,
  },
});

/** The sample, continued after its head (a2) with a user turn and an answer; the head on the answer. */
function continued() {
  const c = chatgptSample();
  const mapping: Record<string, unknown> = { ...c.mapping, a2: { ...c.mapping.a2, children: ["u3"] } };
  mapping.u3 = node("u3", "a2", ["a3"], "user", "And 7 times 8?", 1700000060);
  mapping.a3 = node("a3", "u3", [], "assistant", "56", 1700000061);
  return { ...c, mapping, current_node: "a3", update_time: 1700000061 };
}

async function importJson(args: string[], store: ReturnType<typeof memoryStore>): Promise<Reported[]> {
  const r = await cli(["import", ...args, "--json"], store);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return (JSON.parse(r.out) as { files: { chats: Reported[] }[] }).files.flatMap((f) => f.chats);
}

const chatIds = async (store: ReturnType<typeof memoryStore>, user = "local") =>
  (JSON.parse((await cli(["chats", "--json", "--user", user], store)).out) as { id: string }[]).map((c) => c.id).sort();

describe("importing the same export again", () => {
  it("leaves a chat imported before as it is, and says so", async () => {
    const store = memoryStore();
    const path = file("once.json", JSON.stringify([chatgptSample()]));
    const [first] = await importJson([path], store);
    expect(first).toMatchObject({ status: "imported", messages: 7 });
    const [again] = await importJson([path], store);
    expect(again).toMatchObject({ id: first!.id, status: "unchanged", added: 0, ids: first!.ids });
    expect(await chatIds(store)).toEqual([first!.id]);
    const text = await cli(["import", path], store);
    expect(text.out).toBe(
      `${path}: chatgpt, 0 chat(s), 0 messages, 1 unchanged (imported before)\n  ${first!.id}  Plot it  (imported before, nothing new)`,
    );
  });

  it("the same conversation twice in one run makes one chat", async () => {
    const store = memoryStore();
    const chats = await importJson([file("twice.json", JSON.stringify([chatgptSample(), chatgptSample()]))], store);
    expect(chats.map((c) => c.status)).toEqual(["imported", "unchanged"]);
    expect(await chatIds(store)).toEqual([chats[0]!.id]);
  });

  it("adds a newer export's new messages to the chat, under their parents, and moves the head to its current message", async () => {
    const store = memoryStore();
    const [first] = await importJson([file("v1.json", JSON.stringify([chatgptSample()]))], store);
    expect((await cli(["checkout", first!.id, "3"], store)).code).toBe(0);
    const [updated] = await importJson([file("v2.json", JSON.stringify([continued()]))], store);
    expect(updated).toMatchObject({ id: first!.id, status: "updated", added: 2, messages: 9 });
    expect(updated!.ids).toMatchObject({ ...first!.ids, u3: 7, a3: 8 });
    const path = JSON.parse((await cli(["show", first!.id, "--json"], store)).out) as {
      id: number;
      parentId: number;
      content: string;
    }[];
    expect(path.map((m) => [m.id, m.content])).toEqual([
      [5, "What is 6 times 7?"],
      [6, "42"],
      [7, "And 7 times 8?"],
      [8, "56"],
    ]);
    expect(await chatIds(store)).toEqual([first!.id]);
    // Once more: nothing new.
    expect(await importJson([file("v2b.json", JSON.stringify([continued()]))], store)).toMatchObject([
      { id: first!.id, status: "unchanged", ids: updated!.ids },
    ]);
    const text = await cli(["import", file("v2c.json", JSON.stringify([continued()]))], store);
    expect(text.out).toContain("0 chat(s), 0 messages, 1 unchanged (imported before)");
  });

  it("adds an edited first message as a new first user turn", async () => {
    const store = memoryStore();
    const [first] = await importJson([file("e1.json", JSON.stringify([chatgptSample()]))], store);
    const c = chatgptSample();
    const mapping = {
      ...c.mapping,
      sys: { ...c.mapping.sys, children: ["u1", "u1b", "u1c"] },
      u1c: node("u1c", "sys", [], "user", "What is 2 + 2?", 1700000070),
    };
    const [updated] = await importJson(
      [file("e2.json", JSON.stringify([{ ...c, mapping, current_node: "u1c" }]))],
      store,
    );
    expect(updated).toMatchObject({ id: first!.id, status: "updated", added: 1 });
    const tree = JSON.parse((await cli(["tree", first!.id, "--json"], store)).out) as {
      head: number;
      messages: { id: number; parentId: number | null; content: string }[];
    };
    expect(tree.messages[7]).toEqual({ id: 7, parentId: null, role: "user", content: "What is 2 + 2?" });
    expect(tree.head).toBe(7);
  });

  it("refuses, before any write, an update it cannot make through the chat's operations, and says how to get it", async () => {
    const store = memoryStore();
    const [first] = await importJson([file("r1.json", JSON.stringify([chatgptSample()]))], store);
    const c = chatgptSample();
    // A new first message that is an assistant's: no operation of a chat makes one.
    const mapping = {
      ...c.mapping,
      sys: { ...c.mapping.sys, children: ["u1", "u1b", "x"] },
      x: node("x", "sys", [], "assistant", "Hello", 1700000070),
    };
    const path = file("r2.json", JSON.stringify([{ ...c, mapping }]));
    const [refused] = await importJson([path], store);
    expect(refused).toMatchObject({
      id: first!.id,
      status: "refused",
      reason: "its message 7 is a new first message; --copy imports this version as a new chat",
    });
    expect(JSON.parse((await cli(["stats", first!.id, "--json"], store)).out)).toMatchObject({ messages: 7, head: 6 });
    expect((await cli(["import", path], store)).out).toContain(
      `1 not updated\n  ${first!.id}  Plot it  (not updated: its message 7 is a new first message; --copy`,
    );
  });

  it("--copy imports it as a new chat; the copy is not the one later imports update", async () => {
    const store = memoryStore();
    const path = file("c1.json", JSON.stringify([chatgptSample()]));
    const [first] = await importJson([path], store);
    const [copy] = await importJson([path, "--copy"], store);
    expect(copy).toMatchObject({ status: "imported", messages: 7 });
    expect(copy!.id).not.toBe(first!.id);
    expect(await chatIds(store)).toEqual([first!.id, copy!.id].sort());
    expect(await importJson([file("c2.json", JSON.stringify([continued()]))], store)).toMatchObject([
      { id: first!.id, status: "updated", added: 2 },
    ]);
  });

  it("a conversation without an id in its export is known by its messages", async () => {
    const store = memoryStore();
    const line = (text: string) =>
      JSON.stringify({
        messages: [
          { role: "user", content: text },
          { role: "assistant", content: "ok" },
        ],
      });
    const path = file("lines.jsonl", `${line("one")}\n${line("two")}\n`);
    const first = await importJson([path], store);
    expect(first.map((c) => c.status)).toEqual(["imported", "imported"]);
    const again = await importJson([file("lines2.jsonl", `${line("two")}\n${line("three")}\n`)], store);
    expect(again.map((c) => c.status)).toEqual(["unchanged", "imported"]);
    expect(again[0]!.id).toBe(first[1]!.id);
    expect((await chatIds(store)).length).toBe(3);
  });

  it("a summary the chat holds is known by what it covers: its own export imports back unchanged, and newer messages after it are added", async () => {
    const store = memoryStore();
    const messages = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `turn ${i} about things`,
    }));
    const [chat] = await importJson([file("long2.jsonl", JSON.stringify({ messages }))], store);
    expect((await cli(["summarize", chat!.id, "--keep-last", "4"], store)).code).toBe(0);
    const exp = JSON.parse((await cli(["export", chat!.id], store)).out) as {
      head: number;
      messages: { id: number; parentId: number | null; kind: string }[];
    };
    expect(exp.messages.at(-1)).toMatchObject({ id: 30, kind: "summary" });
    expect(await importJson([file("own.json", JSON.stringify(exp))], store)).toMatchObject([
      { id: chat!.id, status: "unchanged" },
    ]);
    // The same export continued past the summary: a user turn under the last message.
    const next = {
      id: 31,
      parentId: 29,
      role: "user",
      content: "and then?",
      priority: "normal",
      createdAt: 2,
      kind: "message",
    };
    const grown = { ...exp, head: 31, messages: [...exp.messages, next] };
    expect(await importJson([file("own2.json", JSON.stringify(grown))], store)).toMatchObject([
      { id: chat!.id, status: "updated", added: 1 },
    ]);
    expect(JSON.parse((await cli(["stats", chat!.id, "--json"], store)).out)).toMatchObject({ messages: 32, head: 31 });
  });

  it("a ctxloom export carries the conversation it came from: another user's import of both makes one chat", async () => {
    const store = memoryStore();
    const path = file("src.json", JSON.stringify([chatgptSample()]));
    const [first] = await importJson([path], store);
    const exported = (await cli(["export", first!.id], store)).out;
    expect(JSON.parse(exported).chat.options).toEqual({ source: { format: "chatgpt", id: "c1" } });
    const [moved] = await importJson([file("moved.json", exported), "--user", "bob"], store);
    expect(moved).toMatchObject({ status: "imported" });
    expect(await importJson([path, "--user", "bob"], store)).toMatchObject([{ id: moved!.id, status: "unchanged" }]);
    expect(await chatIds(store, "bob")).toEqual([moved!.id]);
  });
});

describe("a chat's source in an export", () => {
  it("is checked: a malformed one is refused, naming it, and nothing is imported", async () => {
    const loom = await Loom.open();
    const chats = loom.user("u");
    const exp = (source: unknown) => ({
      format: "ctxloom.chat",
      version: 2,
      head: 0,
      chat: { title: "t", model: "gpt-4o", system: null, createdAt: 1, updatedAt: 1, options: { source } },
      messages: [
        { id: 0, parentId: null, role: "user", content: "hi", priority: "normal", createdAt: 1, kind: "message" },
      ],
    });
    const cases: [unknown, string][] = [
      ["chatgpt", "source must be { format, id }"],
      [{ format: "chatgpt" }, "source.id must be a non-empty string"],
      [{ format: "", id: "c1" }, "source.format must be a non-empty string"],
      [{ format: "chatgpt", id: "c1", at: 3 }, 'source has no option "at"'],
    ];
    for (const [source, message] of cases) {
      await expect(chats.import(exp(source) as never)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining(message),
      });
    }
    expect(await chats.list()).toEqual([]);
    const chat = await chats.import(exp({ format: "chatgpt", id: "c1" }) as never);
    expect(chat.export().chat.options).toEqual({ source: { format: "chatgpt", id: "c1" } });
    await loom.close();
  });
});

describe("context and tree read as they should", () => {
  it("no bar passes 100% while the total is within the limit: the conversation's bar is against the room the others leave", async () => {
    const store = memoryStore();
    // llama3.2: a conversation slice of 2949 tokens; this conversation takes about 4,000.
    const messages = Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `turn ${i} ${"word ".repeat(260)}`,
    }));
    const [chat] = await importJson([file("long.jsonl", JSON.stringify({ messages })), "--model", "llama3.2"], store);
    const r = await cli(["context", chat!.id], store);
    expect(r).toMatchObject({ code: 0, err: "" });
    const rows = [...r.out.matchAll(/^(\w+) +[█░]+ +(\d+) \/ +(\d+) +(\d+)%$/gm)].map((m) => ({
      name: m[1],
      used: Number(m[2]),
      limit: Number(m[3]),
      pct: Number(m[4]),
    }));
    expect(rows.map((x) => x.name)).toEqual(["system", "memory", "conversation", "input", "total"]);
    const j = JSON.parse((await cli(["context", chat!.id, "--json"], store)).out) as {
      usage: { conversation: number; total: number; limit: number };
      budget: { conversation: number };
    };
    expect(j.usage.conversation).toBeGreaterThan(j.budget.conversation);
    expect(j.usage.total).toBeLessThanOrEqual(j.usage.limit);
    for (const row of rows) expect(row.pct, row.name).toBeLessThanOrEqual(100);
    expect(rows[2]!.used).toBe(j.usage.conversation);
    expect(r.out).toContain(`(conversation: its slice of ${j.budget.conversation} and what the other parts leave)`);
  });

  it("a chat of one branch has 1 branch", async () => {
    const store = memoryStore();
    const [chat] = await importJson(
      [file("one.jsonl", JSON.stringify({ messages: [{ role: "user", content: "hi" }] }))],
      store,
    );
    expect((await cli(["tree", chat!.id], store)).out).toMatch(/, 1 message, 1 branch, head #0\n/);
    expect(
      (
        await cli(
          ["import", file("one-more.jsonl", JSON.stringify({ messages: [{ role: "user", content: "hey" }] }))],
          store,
        )
      ).out,
    ).toMatch(/\(1 message, 1 branch\)$/);
  });
});
