// Recall's lexical channel through the Loom: indexed when recall first reads a chat, kept
// current on append, forgotten with the chat or the memory, rebuilt from the texts by a new
// Loom; dates in the recalled transcript, imported times kept.
import { afterEach, expect, it } from "vitest";
import { Loom, memoryStore, type Embedder } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";
import { filler } from "./recall-helpers.js";

/** An embedder that gives every text the same direction: the dense channel then ranks nothing, the words decide. */
const flat: Embedder = { name: "flat", dimension: 4, embed: async (texts) => texts.map(() => [1, 0, 0, 0]) };

forEachEngine((engine) => {
  let loom: Loom | undefined;
  afterEach(async () => {
    await loom?.close();
    loom = undefined;
  });

  it("indexes a chat's texts when recall first reads it, then every append; a deleted chat and a cleared memory leave it", async () => {
    loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const chat = await chats.create();
    for (let i = 0; i < 20; i++) {
      const f = filler(i);
      await chat.append({ role: "user", content: f.user });
      await chat.append({ role: "assistant", content: f.assistant });
    }
    expect(loom.stats().recall).toMatchObject({ lexical: 0, indexed: 0 }); // nothing before recall reads the chat
    await chat.recall("volcanoes", { k: 1 });
    expect(loom.stats().recall!.lexical).toBe(40);
    const fact = await chat.append({ role: "user", content: "Our harbour master is called Ingrid Solberg." });
    expect(loom.stats().recall!.lexical).toBe(41); // at once, before any embedding
    expect((await chat.recall("who is the harbour master?", { k: 1 }))[0]!.message.id).toBe(fact.id);

    const other = await chats.create();
    await other.append({ role: "user", content: "The harbour is closed on Sundays." });
    const both = await other.recall("harbour", { scope: "user", k: 2 });
    expect(both.map((r) => r.chatId).sort()).toEqual([chat.id, other.id].sort());
    expect(both.every((r) => r.message.content.includes("harbour"))).toBe(true);
    expect(loom.stats().recall!.lexical).toBe(42);
    await chats.delete(other.id);
    expect(loom.stats().recall!.lexical).toBe(41);
    await chats.clearRecall();
    expect(loom.stats().recall!.lexical).toBe(0);
    expect(await chat.recall("who is the harbour master?", { k: 3 })).toEqual([]);
  });

  it("a new Loom on the same store indexes the texts again (the vectors are read back, not embedded)", async () => {
    const store = memoryStore();
    loom = await Loom.open({ engine, store, recall: { embedder: flat } });
    const chat = await loom.user("alice").create();
    await chat.append({ role: "user", content: "The spare key is under the blue ceramic frog." });
    await chat.append({ role: "assistant", content: "Under the frog, noted." });
    await chat.append({ role: "user", content: "Also, the wifi password is bluefalcon42." });
    const first = (await chat.recall("where is the spare key?", { k: 3 })).map((r) => r.message.id);
    expect(first[0]).toBe(0);
    await loom.close();
    loom = await Loom.open({ engine, store, recall: { embedder: flat } });
    const again = await loom.user("alice").open(chat.id);
    expect((await again.recall("where is the spare key?", { k: 3 })).map((r) => r.message.id)).toEqual(first);
    expect(loom.stats().recall).toMatchObject({ embedded: 0, indexed: 3, lexical: 3 });
  });

  it("a speaker's name is one of their message's words", async () => {
    loom = await Loom.open({ engine, recall: { embedder: flat } });
    const chat = await loom.user("alice").create();
    await chat.append({ role: "user", name: "Caroline", content: "I went to a support group yesterday." });
    await chat.append({ role: "assistant", name: "Melanie", content: "That sounds powerful!" });
    await chat.append({ role: "user", name: "Caroline", content: "It was, thanks." });
    const found = await chat.recall("What did Melanie say?", { k: 1 });
    expect(found.map((r) => r.message.id)).toEqual([1]);
  });

  it("the recalled transcript gives each message's day; an imported chat keeps its source's times", async () => {
    loom = await Loom.open({ engine });
    const chats = loom.user("alice");
    const at = Date.UTC(2023, 4, 8, 13, 56);
    const source = await chats.create({ title: "old" });
    await source.append({ role: "user", content: "I adopted a puppy called Hazel." });
    await source.append({ role: "assistant", content: "Congratulations on Hazel!" });
    const data = await source.export();
    data.messages.forEach((m, i) => (m.createdAt = at + i * 60_000)); // as an importer sets them from its source
    const imported = await chats.import(data);
    expect(imported.get(0).createdAt).toBe(at);
    for (let i = 0; i < 400; i++) {
      const f = filler(i);
      await imported.append({ role: "user", content: f.user });
      await imported.append({ role: "assistant", content: f.assistant });
    }
    const ctx = await imported.buildContext({
      model: { name: "small", contextWindow: 4096 },
      input: "When did I adopt my puppy?",
      recall: { prompts: 1 },
    });
    expect(ctx.recalled.map((m) => m.id)).toEqual([0, 1]);
    expect(ctx.memory).toContain(
      "[2023-05-08] User: I adopted a puppy called Hazel.\n\n[2023-05-08] Assistant: Congratulations on Hazel!",
    );
  });
});

it("forgetMessages (a redaction) takes messages out of both channels and the queue", async () => {
  const { RecallHub } = await import("../../src/recall/hub.js");
  const { JsEngine } = await import("../../src/engine/index.js");
  const hub = new RecallHub(new JsEngine(), memoryStore(), flat, false);
  const texts = ["My locker code is 4711.", "Locker 4711, noted.", "And the gym opens at six."];
  const messages = texts.map(
    (content, id) =>
      ({
        id,
        parentId: id === 0 ? null : id - 1,
        role: id % 2 ? "assistant" : "user",
        content,
        priority: "normal",
        tokens: 5,
        createdAt: 0,
        kind: "message",
      }) as never,
  );
  const source = {
    size: 3,
    message: (id: number) => messages[id]!,
    parent: (id: number) => id - 1,
    roleOf: (id: number) => (id % 2 ? "assistant" : "user") as never,
  };
  await hub.ensureChat("u", "c", source);
  await hub.queue.flush();
  expect(hub.stats()).toMatchObject({ indexed: 3, lexical: 3 });
  hub.forgetMessages("u", "c", [0, 1, 99]);
  expect(hub.stats()).toMatchObject({ indexed: 1, lexical: 1 });
  const scope = hub.exchanges("u", "c", source);
  expect(hub.user("u").memory.rank({ text: "locker code", vector: null }, scope, 5)).toEqual([]);
  hub.close();
});
