// Closing and deleting while the store is still writing: what was called first lands first,
// and the store closes last.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";
import { SMALL, talk } from "./summaries-helpers.js";

/** A memory store whose writes take a few milliseconds, logging the order they finish in. */
function slowStore(log: string[]): Store {
  const inner = memoryStore();
  const slow = <T>(name: string, call: () => T | Promise<T>): Promise<T> =>
    new Promise<T>((resolve) => setTimeout(() => {
      log.push(name);
      resolve(call());
    }, 5));
  return {
    ...inner,
    createChat: (chat) => slow("createChat", () => inner.createChat(chat)),
    appendMessage: (...args) => slow("appendMessage", () => inner.appendMessage(...args)),
    deleteChat: (...args) => slow("deleteChat", () => inner.deleteChat(...args)),
    close: () => void log.push("close"),
  };
}

forEachEngine((engine) => {
  describe("close and delete with writes under way", () => {
    it("append, delete, close: the store sees them in that order, and close comes last", async () => {
      const log: string[] = [];
      const loom = await Loom.open({ engine, store: slowStore(log) });
      const chats = loom.user("u");
      const chat = await chats.create();
      const append = chat.append({ role: "user", content: "hi" });
      const removal = chats.delete(chat.id);
      const second = chats.delete(chat.id); // waits for the first
      await loom.close();
      await Promise.all([append, removal, second]);
      expect(log).toEqual(["createChat", "appendMessage", "deleteChat", "close"]);
    });

    it("a create under way when the Loom closes is written before the store closes", async () => {
      const log: string[] = [];
      const loom = await Loom.open({ engine, store: slowStore(log) });
      const creating = loom.user("u").create({ title: "late" });
      await Promise.resolve(); // create() has started
      const closing = loom.close();
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
        engine, summarize: { timeoutMs: 100 },
        summarizer: (r) => {
          r.signal.addEventListener("abort", () => log.push("summarizer aborted"));
          called();
          return new Promise<string>(() => {});
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
