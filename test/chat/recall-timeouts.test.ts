// Embedders that never answer: every call is given up after the embedder's timeoutMs (its
// signal aborted), a recall fails with EMBEDDER_FAILED and a build recalls by words instead of
// hanging, flush and close end whatever the embedder does, and what was not embedded stays
// queued. (recall-slow-embedder.test.ts: how long a request waits.)
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectRejectCode, forEachEngine, setup, snapshot } from "../helpers.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { gatedEmbedder } from "./recall-helpers.js";

const file = tempFolder("recall-timeouts");
/** Longer than any test may run: a call that ends did not wait for it. */
const FOREVER = 2 ** 30;

forEachEngine((engine) => {
  describe("an embedder that never answers", () => {
    it("is given up after its timeoutMs: recall fails with EMBEDDER_FAILED, a build is degraded, flush ends, the messages stay queued", async () => {
      const embedder = gatedEmbedder(30);
      const { loom, chats, chat } = await setup(engine, { recall: { embedder: embedder } });
      await chat.append({ role: "user", content: "The boat is called Seabird." });
      await chat.append({ role: "assistant", content: "Seabird, a fine name." });
      await loom.flush(); // ends: the batch is given up after 30 ms
      const stats = loom.stats().recall!;
      expect(stats).toMatchObject({ pending: 2, embedded: 0, indexed: 0 });
      expect(stats.failures).toBeGreaterThanOrEqual(1);
      expect(stats.lastError).toMatch(/^EMBEDDER_FAILED: .*did not answer within 30 ms/);
      expect(embedder.signals.length).toBeGreaterThanOrEqual(1);
      expect(embedder.signals.every((s) => s.aborted)).toBe(true);
      const before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.recall("boat"), "EMBEDDER_FAILED");
      // A build used to fail here too (EMBEDDER_FAILED, after twice the timeoutMs): it recalls by words.
      const ctx = await chat.buildContext({ recall: true });
      expect(ctx.recallDegraded).toMatchObject({ reason: "timeout", lexicalOnly: true, pending: 2 });
      expect(ctx.recallDegraded!.error).toMatch(/did not answer within 30 ms \(its recallTimeoutMs\)/); // timeoutMs 30: the query waits no longer
      expect(await snapshot(chat, chats)).toEqual(before);

      embedder.stuck = false; // the service is back: what was queued is embedded
      await loom.flush();
      expect(loom.stats().recall).toMatchObject({ pending: 0, embedded: 2, indexed: 2 });
      const found = await chat.recall("what is the boat called?", { recent: 0 });
      expect(found.map((r) => r.message.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
      await loom.close();
    });

    it("loom.flush() still commits a batched store", async () => {
      const path = file(`batched-${engine}.db`);
      const loom = await Loom.open({
        engine,
        store: sqliteStore(path, { durability: "batched", batchDelayMs: 60_000 }),
        recall: { embedder: gatedEmbedder(30) },
      });
      const chat = await loom.user("alice").create();
      await chat.append({ role: "user", content: "hello" });
      await loom.flush();
      const reader = new Database(path, { readonly: true });
      try {
        expect(reader.prepare("SELECT count(*) AS n FROM messages").get()).toEqual({ n: 1 });
      } finally {
        reader.close();
      }
      expect(loom.stats().recall!.pending).toBe(1);
      await loom.close();
    });

    it("loom.close() aborts the call at once: a build waiting on it rejects with LOOM_CLOSED; a later Loom embeds what was left", async () => {
      const store = memoryStore();
      const closeless: Store = { ...store, close: () => {} }; // the next Loom reopens the same memory
      const embedder = gatedEmbedder(FOREVER, FOREVER); // a request would wait forever too (its recallTimeoutMs)
      const loom = await Loom.open({ engine, store: closeless, recall: { embedder: embedder } });
      const chat = await loom.user("alice").create();
      await chat.append({ role: "user", content: "The boat is called Seabird." });
      await chat.append({ role: "assistant", content: "Seabird, a fine name." });
      const building = chat.buildContext({ recall: true });
      const recalling = chat.recall("boat");
      building.catch(() => {});
      recalling.catch(() => {});
      await vi.waitFor(() => expect(embedder.signals).toHaveLength(2)); // the batch and the build's query are under way, forever
      await loom.close();
      await expectRejectCode(() => building, "LOOM_CLOSED");
      await expectRejectCode(() => recalling, "LOOM_CLOSED");
      expect(embedder.signals.every((s) => s.aborted)).toBe(true);

      const again = await Loom.open({ engine, store: closeless, recall: true });
      const reopened = await again.user("alice").open(chat.id);
      const found = await reopened.recall("what is the boat called?", { recent: 0 });
      expect(found.map((r) => r.message.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
      await again.close();
    });
  });
});
