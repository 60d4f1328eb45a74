// Recall's bad inputs (coded errors, nothing changed) and embedders that are slow, stuck or failing.
import { afterEach, expect, it, vi } from "vitest";
import { Loom, type Chat, type UserChats } from "../../src/index.js";
import { expectRejectCode, forEachEngine, setup, snapshot } from "../helpers.js";
import { badEmbedder, flakyEmbedder, stuckEmbedder } from "./recall-helpers.js";

forEachEngine((engine) => {
  let loom: Loom;
  let chats: UserChats;
  let chat: Chat;
  afterEach(async () => {
    await loom?.close();
  });

  it("Loom.open refuses a bad embed option", async () => {
    await expectRejectCode(() => Loom.open({ engine, recall: { embedder: 3 as never } }), "INVALID_ARGUMENT");
    await expectRejectCode(
      () => Loom.open({ engine, recall: { embedder: { name: "x" } as never } }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () => Loom.open({ engine, recall: { embedder: { name: "x", dimension: 0, embed: async () => [] } } }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(() => Loom.open({ engine, embedder: true } as never), "INVALID_ARGUMENT");
    await expectRejectCode(
      () =>
        Loom.open({ engine, recall: { embedder: { name: "x", dimension: 3, timeoutMs: 0, embed: async () => [] } } }),
      "INVALID_ARGUMENT",
    );
    await expectRejectCode(
      () =>
        Loom.open({
          engine,
          recall: { embedder: { name: "x", dimension: 3, recallTimeoutMs: 1.5, embed: async () => [] } },
        }),
      "INVALID_ARGUMENT",
    );
    loom = await Loom.open({ engine });
  });

  it("bad recall options and queries are refused with INVALID_ARGUMENT and change nothing", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    await chat.buildContext({ recall: true });
    const before = await snapshot(chat, chats);
    const stats = loom.stats();
    const bad: [string, () => Promise<unknown>][] = [
      ["empty query", () => chat.recall("")],
      ["blank query", () => chat.recall("   ")],
      ["non-string query", () => chat.recall(42 as never)],
      ["prompts < 0", () => chat.recall("boat", { prompts: -1 })],
      ["k < 0", () => chat.recall("boat", { k: -1 })],
      ["k not an integer", () => chat.recall("boat", { k: 2.5 })],
      ["k with exchange counts", () => chat.recall("boat", { k: 3, prompts: 2 })],
      ["k with recent", () => chat.recall("boat", { k: 3, recent: 0 })],
      ["build: k (a build recalls whole exchanges)", () => chat.buildContext({ recall: { k: 3 } as never })],
      ["answersPerPrompt < 0", () => chat.recall("boat", { answersPerPrompt: -2 })],
      ["recent not an integer", () => chat.recall("boat", { recent: 1.5 })],
      ["minScore NaN", () => chat.recall("boat", { minScore: NaN })],
      ["unknown scope", () => chat.recall("boat", { scope: "world" as never })],
      ["unknown key", () => chat.recall("boat", { promts: 2 } as never)],
      ["exclude is not public", () => chat.recall("boat", { exclude: [1] } as never)],
      ["build: prompts < 0", () => chat.buildContext({ recall: { prompts: -1 } })],
      ["build: empty query", () => chat.buildContext({ recall: { query: "" } })],
      ["build: unknown key", () => chat.buildContext({ recall: { scope: "chat", answers: 3 } as never })],
      ["build: recall not an object", () => chat.buildContext({ recall: "yes" as never })],
      ["build: another bad option", () => chat.buildContext({ recall: true, maxMessages: 0 })],
    ];
    for (const [what, call] of bad) {
      await expectRejectCode(call, "INVALID_ARGUMENT").catch((error: Error) => {
        throw new Error(`${what}: ${error.message}`);
      });
    }
    try {
      await chat.recall("boat", { promts: 2 } as never);
    } catch (error) {
      expect((error as Error).message).toContain('"prompts"'); // names the closest known key
    }
    expect(await snapshot(chat, chats)).toEqual(before);
    expect(loom.stats()).toEqual(stats);
  });

  for (const kind of ["dimension", "nan", "infinity", "count"] as const) {
    it(`an embedder answering with ${kind === "count" ? "the wrong count" : `a bad vector (${kind})`}: EMBEDDER_FAILED, counted, nothing indexed; a build recalls by words`, async () => {
      ({ loom, chats, chat } = await setup(engine, { recall: { embedder: badEmbedder(kind) } }));
      const m = await chat.append({ role: "user", content: "hello there" }); // stored all the same
      expect(chat.get(m.id).content).toBe("hello there");
      await loom.flush();
      const stats = loom.stats().recall!;
      expect(stats.failures).toBeGreaterThanOrEqual(1);
      expect(stats.lastError).toMatch(/^EMBEDDER_FAILED: /);
      expect(stats.indexed).toBe(0);
      expect(stats.pending).toBe(1); // kept for a retry
      const before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.recall("hello"), "EMBEDDER_FAILED");
      // A build does not fail: it recalls with what it has and says why (it used to throw EMBEDDER_FAILED).
      const ctx = await chat.buildContext({ recall: true });
      expect(ctx.recallDegraded).toMatchObject({
        reason: "failed",
        lexicalOnly: true,
        pending: 1,
        error: expect.stringMatching(/^EMBEDDER_FAILED: /),
      });
      expect(await snapshot(chat, chats)).toEqual(before);
      expect(loom.stats().recall!.indexed).toBe(0);
    });
  }

  it("a never-answering embedder never delays append", async () => {
    const stuck = stuckEmbedder();
    ({ loom, chats, chat } = await setup(engine, { recall: { embedder: stuck } }));
    for (let i = 0; i < 10; i++) {
      await chat.append({ role: "user", content: `question ${i}` });
      await chat.append({ role: "assistant", content: `answer ${i}` });
    }
    expect(chat.messageCount).toBe(20);
    await vi.waitFor(() => expect(stuck.calls).toBe(1)); // one batch under way, forever
    expect(loom.stats().recall).toMatchObject({ pending: 20, embedded: 0, failures: 0 });
    // Building without recall does not wait either, nor a bad call that recalls; closing does not wait for the embedder.
    expect((await chat.buildContext()).conversation).toHaveLength(20);
    await expectRejectCode(
      () => chat.buildContext({ recall: { scope: "chat" }, format: "xml" as never }),
      "INVALID_ARGUMENT",
    );
    expect(stuck.calls).toBe(1);
  });

  it("a failing embedder is retried with backoff, counted, and catches up", async () => {
    const flaky = flakyEmbedder(2);
    ({ loom, chats, chat } = await setup(engine, { recall: { embedder: flaky } }));
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    await vi.waitFor(() => expect(loom.stats().recall!.embedded).toBe(2), { timeout: 5000, interval: 20 });
    const stats = loom.stats().recall!;
    expect(stats).toMatchObject({ failures: 2, retries: 2, pending: 0, indexed: 2 });
    expect(stats.lastError).toContain("service unavailable");
    expect(flaky.calls).toBe(3);
    const found = await chat.recall("what is the boat called?", { recent: 0 });
    expect(found.map((r) => r.message.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
  });

  it("with recall: false recall is off: recall calls are refused, building without it works", async () => {
    ({ loom, chats, chat } = await setup(engine, { recall: false }));
    await chat.append({ role: "user", content: "hello" });
    expect(loom.stats().recall).toBeNull();
    await expectRejectCode(() => chat.recall("hello"), "INVALID_ARGUMENT");
    await expectRejectCode(() => chat.buildContext({ recall: true }), "INVALID_ARGUMENT");
    await expectRejectCode(() => chats.clearRecall(), "INVALID_ARGUMENT");
    expect((await chat.buildContext({ recall: false })).recalled).toEqual([]);
  });
});
