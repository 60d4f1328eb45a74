// Recall across Looms: vectors persist in the store under the embedder's name and dimension; a
// new Loom (memory store shared, or SQLite) recalls the same without embedding the messages
// again; another embedder re-embeds; clearRecall forgets, reembed brings it back.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { ENGINES } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { filler, loggedEmbedder } from "./recall-helpers.js";

const file = tempFolder("recall-restore");
const SMALL = { name: "recall-small", contextWindow: 4096 };
const QUESTION = "What is my cat's name again?";
const STORES: [string, () => () => Store][] = [
  [
    "memory store shared",
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "SQLite",
    () => {
      const path = file("recall.db");
      return () => sqliteStore(path);
    },
  ],
];

const texts = (calls: string[][]) => calls.reduce((n, c) => n + c.length, 0);

describe.each(STORES)("%s", (_name, makeStore) => {
  for (const [first, second] of [
    ["wasm", "js"],
    ["js", "wasm"],
  ] as const) {
    it(`a new Loom (${first} then ${second}) recalls the same without re-embedding; another embedder re-embeds`, async () => {
      const store = makeStore();
      const e1 = loggedEmbedder();
      const loom1 = await Loom.open({ engine: first, store: store(), recall: { embedder: e1 } });
      const chat1 = await loom1.user("alice").create({ title: "cats" });
      await chat1.append({ role: "user", content: "My cat's name is Bartholomew." });
      await chat1.append({ role: "assistant", content: "Noted: your cat is Bartholomew." });
      for (let i = 0; i < 150; i++) {
        const f = filler(i);
        await chat1.append({ role: "user", content: f.user });
        await chat1.append({ role: "assistant", content: f.assistant });
      }
      await chat1.append({ role: "user", content: QUESTION });
      const built1 = await chat1.buildContext({ model: SMALL, recall: true });
      const direct1 = await chat1.recall(QUESTION, { scope: "user" });
      expect(built1.memory).toContain("Bartholomew");
      const count = chat1.messageCount;
      expect(texts(e1.calls)).toBe(count + 2); // every message once, and two queries
      await loom1.close();

      const e2 = loggedEmbedder();
      const loom2 = await Loom.open({ engine: second, store: store(), recall: { embedder: e2 } });
      const chat2 = await loom2.user("alice").open(chat1.id);
      const built2 = await chat2.buildContext({ model: SMALL, recall: true });
      expect(built2.recalled).toEqual(built1.recalled);
      expect(built2.memory).toBe(built1.memory);
      expect(built2.usage).toEqual(built1.usage);
      expect(await chat2.recall(QUESTION, { scope: "user" })).toEqual(direct1);
      expect(e2.calls).toEqual([[QUESTION], [QUESTION]]); // only the queries: no message embedded again
      expect(loom2.stats().recall).toMatchObject({ embedded: 0, indexed: count, pending: 0 });
      await loom2.close();

      // Another embedder: the store has no vectors of it, so the chat is embedded again.
      const other = loggedEmbedder("other-embedder");
      const loom3 = await Loom.open({ engine: second, store: store(), recall: { embedder: other } });
      const chat3 = await loom3.user("alice").open(chat1.id);
      const built3 = await chat3.buildContext({ model: SMALL, recall: true });
      expect(texts(other.calls)).toBe(count + 1);
      expect(built3.recalled).toEqual(built1.recalled); // the same function under another name: the same recall
      await loom3.close();

      // Each embedder's vectors stay apart: the first one still needs nothing re-embedded.
      const e4 = loggedEmbedder();
      const loom4 = await Loom.open({ engine: first, store: store(), recall: { embedder: e4 } });
      await (await loom4.user("alice").open(chat1.id)).recall(QUESTION);
      expect(e4.calls).toEqual([[QUESTION]]);
      await loom4.close();
    });
  }

  it("messages another Loom appended are embedded when recall next reads the chat", async () => {
    const store = makeStore();
    const a = await Loom.open({ engine: "wasm", store: store() });
    const b = await Loom.open({ engine: "js", store: store() });
    const chatA = await a.user("alice").create();
    await chatA.append({ role: "user", content: "hello" });
    expect(await chatA.recall("hello", { recent: 0 })).toHaveLength(1);
    const chatB = await b.user("alice").open(chatA.id);
    await chatB.append({ role: "assistant", content: "hi" });
    await chatB.append({ role: "user", content: "The boat is called Seabird." });
    await chatA.refresh();
    const found = await chatA.recall("what is the boat called?", { recent: 0, prompts: 1, answersPerPrompt: 0 });
    expect(found.map((r) => r.message.content)).toEqual(["The boat is called Seabird."]);
    await a.close();
    await b.close();
  });

  it("clearRecall forgets the user's embeddings, keeps the conversations, and lasts; reembed brings them back", async () => {
    const store = makeStore();
    const engine = ENGINES[0];
    let loom = await Loom.open({ engine, store: store() });
    let chats = loom.user("alice");
    const chat = await chats.create();
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    const other = await chats.create();
    await other.append({ role: "user", content: "My bicycle is green." });
    await other.append({ role: "assistant", content: "A green bicycle." });
    expect((await chat.recall("what is the boat called?", { recent: 0 }))[0]!.message.content).toContain("Seabird");

    await chats.clearRecall();
    expect(chat.messageCount).toBe(2);
    expect(chat.get(0).content).toBe("The boat is called Seabird.");
    expect(loom.stats().recall!.indexed).toBe(0);
    expect(await chat.recall("what is the boat called?", { recent: 0 })).toEqual([]);
    expect(await other.recall("what colour is my bicycle?", { recent: 0, scope: "user" })).toEqual([]);
    // New messages are recalled; the old ones are not, in this Loom or the next.
    await chat.append({ role: "user", content: "The boat's harbour is Brest." });
    await chat.append({ role: "assistant", content: "Brest, noted." });
    expect((await chat.recall("which harbour is the boat in?", { recent: 0 })).map((r) => r.message.id)).toEqual([
      2, 3,
    ]);
    await loom.close();

    loom = await Loom.open({ engine, store: store() });
    chats = loom.user("alice");
    const again = await chats.open(chat.id);
    expect(
      (await again.recall("what is the boat called?", { recent: 0, prompts: 1, answersPerPrompt: 0 })).map(
        (r) => r.message.id,
      ),
    ).toEqual([2, 3]);
    expect(loom.stats().recall!.embedded).toBe(0);

    await chats.reembed();
    const back = await again.recall("what is the boat called?", { recent: 0, prompts: 1, answersPerPrompt: 0 });
    expect(back.map((r) => r.message.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
    expect(
      (await again.recall("what colour is my bicycle?", { recent: 0, prompts: 1, scope: "user" }))[0]!.message.content,
    ).toBe("My bicycle is green.");
    await loom.close();
  });
});
