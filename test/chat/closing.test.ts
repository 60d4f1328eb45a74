// Closing and deleting while the store is still writing: what was called first lands first,
// and the store closes last.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";
import { SMALL, talk } from "./summaries-helpers.js";

/**
 * A memory store logging the order its writes finish in. After `hold()` its writes wait,
 * under way, until the function it returned is called: a gate, so that what happens while
 * they are in flight is certain, not a matter of timing.
 */
function heldStore(log: string[]): { store: Store; hold(): () => void } {
  const inner = memoryStore();
  let gate: Promise<void> = Promise.resolve();
  const held = async <T>(name: string, call: () => T | Promise<T>): Promise<T> => {
    await gate;
    log.push(name);
    return call();
  };
  const store: Store = {
    ...inner,
    createChat: (chat) => held("createChat", () => inner.createChat(chat)),
    appendMessage: (...args) => held("appendMessage", () => inner.appendMessage(...args)),
    deleteChat: (...args) => held("deleteChat", () => inner.deleteChat(...args)),
    close: () => void log.push("close"),
  };
  const hold = () => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    return release;
  };
  return { store, hold };
}

forEachEngine((engine) => {
  describe("close and delete with writes under way", () => {
    it("append, delete, close: the store sees them in that order, and close comes last", async () => {
      const log: string[] = [];
      const { store, hold } = heldStore(log);
      const loom = await Loom.open({ engine, store });
      const chats = loom.user("u");
      const chat = await chats.create();
      const release = hold();
      const append = chat.append({ role: "user", content: "hi" });
      const removal = chats.delete(chat.id);
      const second = chats.delete(chat.id); // waits for the first
      const closing = loom.close(); // while the append is under way
      release();
      await closing;
      await Promise.all([append, removal, second]);
      expect(log).toEqual(["createChat", "appendMessage", "deleteChat", "close"]);
    });

    it("a create under way when the Loom closes is written before the store closes", async () => {
      const log: string[] = [];
      const { store, hold } = heldStore(log);
      const loom = await Loom.open({ engine, store });
      const release = hold();
      const creating = loom.user("u").create({ title: "late" });
      await Promise.resolve(); // create() has started
      const closing = loom.close(); // while the create is under way
      release();
      await Promise.allSettled([creating]);
      await closing;
      expect(log.at(-1)).toBe("close");
      expect(log.filter((l) => l === "close")).toHaveLength(1);
      expectThrowCode(() => loom.user("u"), "LOOM_CLOSED");
    });

    it("close does not wait for a summarizer that never answers; the build waiting on it ends after its timeoutMs", async () => {
      const log: string[] = [];
      let called!: () => void;
      const wasCalled = new Promise<void>((resolve) => (called = resolve));
      const loom = await Loom.open({
        engine,
        summaries: {
          timeoutMs: 100,
          summarizer: (r) => {
            r.signal.addEventListener("abort", () => log.push("summarizer aborted"));
            called();
            return new Promise<string>(() => {});
          },
        },
      });
      const chat = await loom.user("u").create({ model: SMALL });
      await talk(chat, 60);
      const building = chat.buildContext();
      building.catch(() => {});
      await wasCalled;
      await loom.close();
      log.push("closed");
      await expectRejectCode(() => building, "LOOM_CLOSED");
      expect(log).toEqual(["closed", "summarizer aborted"]);
    });
  });
});
