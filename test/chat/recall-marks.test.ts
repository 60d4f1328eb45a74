// Issue 33, item 3: recall's clear marks as what they are (Store.markEmbeddingsCleared,
// loadEmbeddingsCleared), not vectors of a pseudo-embedder the Loom writes. The built-in stores
// keep them where earlier releases did (an embedding row of the reserved embedder
// "ctxloom:recall-cleared"), so a mark written by an earlier release reads back with no
// migration, and the messages it covers are not embedded again. A store without the methods is
// refused by clearRecall, nothing changed.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { withoutFastPaths } from "../helpers.js";
import { clusterForFile } from "../store/pg-file.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { loggedEmbedder } from "./recall-helpers.js";

const file = tempFolder("recall-marks");
const postgres = clusterForFile();
let n = 0;
/** How an earlier release marked a clear: a row of this embedder at the last message cleared. */
const EARLIER_MARK = { name: "ctxloom:recall-cleared", dimension: 1 };

const STORES: [string, boolean, () => () => Store][] = [
  [
    "memory",
    false,
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "sqlite",
    false,
    () => {
      const path = file(`marks-${++n}.db`);
      return () => sqliteStore(path);
    },
  ],
  [
    "postgres",
    postgres.skip,
    () => {
      const prefix = `marks${++n}_`;
      return () => postgresStore(postgres.url(), { tablePrefix: prefix });
    },
  ],
];

describe.each(STORES)("%s", (_name, skip, makeStore) => {
  it.skipIf(skip)(
    "a mark an earlier release wrote reads back as the chat's mark, and its messages are not embedded again",
    async () => {
      const store = makeStore();
      const writer = await Loom.open({ store: store(), counter: "heuristic", recall: { embedder: loggedEmbedder() } });
      const chat = await writer.user("alice").create();
      for (const content of [
        "The boat is called Seabird.",
        "Seabird, a fine name.",
        "The harbour is Brest.",
        "Brest, noted.",
      ]) {
        await chat.append({ role: content.startsWith("The") ? "user" : "assistant", content });
      }
      await writer.close();
      // As an earlier release's clearRecall left the store: no vectors, a mark row at message 1.
      const raw = store();
      await raw.clearEmbeddings("alice");
      await raw.putEmbeddings({
        userId: "alice",
        chatId: chat.id,
        embedder: EARLIER_MARK,
        rows: [{ messageId: 1, vector: new Float32Array(1) }],
      });
      expect(await raw.loadEmbeddingsCleared!("alice", chat.id)).toBe(1);
      await raw.close();

      const embedder = loggedEmbedder();
      const reader = await Loom.open({ store: store(), counter: "heuristic", recall: { embedder } });
      const again = await reader.user("alice").open(chat.id);
      const found = await again.recall("what is the boat called?", { recent: 0, prompts: 1, answersPerPrompt: 0 });
      expect(found.map((r) => r.message.id)).toEqual([2, 3]);
      expect(embedder.calls.flat().filter((t) => t.includes("Seabird"))).toEqual([]); // messages 0 and 1: never embedded again
      await reader.close();
    },
  );

  it.skipIf(skip)("clearRecall marks through the store's method; reembed drops the mark", async () => {
    const store = makeStore();
    const loom = await Loom.open({ store: store(), counter: "heuristic", recall: { embedder: loggedEmbedder() } });
    const chats = loom.user("bob");
    const chat = await chats.create();
    await chat.append({ role: "user", content: "My bicycle is green." });
    await chat.append({ role: "assistant", content: "A green bicycle." });
    await chats.clearRecall();
    const s = store();
    expect(await s.loadEmbeddingsCleared!("bob", chat.id)).toBe(1);
    await chats.reembed();
    expect(await s.loadEmbeddingsCleared!("bob", chat.id)).toBe(null);
    await loom.close();
  });
});

describe("a store without clear marks", () => {
  it("clearRecall refuses it with INVALID_ARGUMENT, its vectors kept; recall reads no mark from it", async () => {
    const inner = memoryStore();
    const store = {
      ...inner,
      ...withoutFastPaths,
      markEmbeddingsCleared: undefined,
      loadEmbeddingsCleared: undefined,
    } as Store;
    const loom = await Loom.open({ store, counter: "heuristic", recall: { embedder: loggedEmbedder() } });
    const chats = loom.user("carol");
    const chat = await chats.create();
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.recall("boat", { recent: 0 });
    await loom.flush();
    const before = (
      await inner.loadEmbeddings("carol", chat.id, {
        name: loggedEmbedder().name,
        dimension: loggedEmbedder().dimension,
      })
    ).length;
    expect(before).toBe(1);
    await expect(chats.clearRecall()).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/markEmbeddingsCleared/),
    });
    expect(
      (
        await inner.loadEmbeddings("carol", chat.id, {
          name: loggedEmbedder().name,
          dimension: loggedEmbedder().dimension,
        })
      ).length,
    ).toBe(1);
    expect((await chat.recall("what is the boat called?", { recent: 0 }))[0]!.message.id).toBe(0);
    await loom.close();
  });
});
