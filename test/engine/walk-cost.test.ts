// Seed 000, 2.6: a window walk touches O(W) nodes, never the whole history. Counted with the
// engines' `visited` counter at a history of 100,000 messages; never timed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type Message, type Store } from "../../src/index.js";
import type { Engine } from "../../src/engine/index.js";
import { forEachEngine, walkIds } from "../helpers.js";
import { countingEngine } from "./counting.js";

const N = 100_000;
const BRANCH_AT = 60_000;
const BRANCH = 1_500;

/**
 * Writes a chat straight into a store, fast: a chain of N messages, then a branch of BRANCH
 * messages off message BRANCH_AT. Ids: main chain 0..N-1, branch N..N+BRANCH-1.
 */
function preload(store: Store, userId: string): string {
  const id = "big-chat";
  const now = Date.now();
  void store.createChat({
    id,
    userId,
    title: "big",
    model: "gpt-4o",
    system: null,
    createdAt: now,
    updatedAt: now,
    messageCount: 0,
    head: null,
    options: {},
  });
  const add = (mid: number, parentId: number | null) => {
    const m: Message = {
      id: mid,
      parentId,
      role: mid % 2 ? "assistant" : "user",
      content: `m${mid}`,
      priority: "normal",
      tokens: 5,
      createdAt: now,
      kind: "message",
    };
    void store.appendMessage({ userId, chatId: id, message: m, head: mid, updatedAt: now });
  };
  for (let i = 0; i < N; i++) add(i, i === 0 ? null : i - 1);
  for (let i = 0; i < BRANCH; i++) add(N + i, i === 0 ? BRANCH_AT : N + i - 1);
  void store.setHead({ userId, chatId: id, head: N - 1, updatedAt: now });
  return id;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

forEachEngine((engine) => {
  describe("engine level: a 100,000-node chain", () => {
    let e: Engine;
    let t: number;
    beforeAll(async () => {
      e = await countingEngine(engine);
      t = e.createTree();
      for (let i = 0; i < N; i++) e.append(t, i - 1, 5, i % 2 ? 2 : 1, 1, 0);
      for (let i = 0; i < BRANCH; i++) e.append(t, i === 0 ? BRANCH_AT : N + i - 1, 5, 1, 1, 0);
    });

    for (const w of [1, 40, 1000]) {
      it(`walk(W=${w}) from the newest node visits exactly ${w} nodes`, () => {
        e.resetVisited();
        const ids = walkIds(e, t, N - 1, w);
        expect(e.visited).toBe(w);
        expect(ids).toEqual(range(N - w, N));
      });
    }

    it("a walk across a deep branch point visits W nodes", () => {
      const tip = N + BRANCH - 1;
      e.resetVisited();
      const ids = walkIds(e, t, tip, BRANCH + 10);
      expect(e.visited).toBe(BRANCH + 10);
      expect(ids).toEqual([...range(BRANCH_AT - 9, BRANCH_AT + 1), ...range(N, N + BRANCH)]);
    });

    it("the depth is known without walking: a walk larger than the path visits the path only", () => {
      e.resetVisited();
      expect(e.depth(t, N - 1)).toBe(N - 1);
      expect(e.walk(t, 10, 1000)).toBe(11);
      expect(e.visited).toBe(11);
    });
  });

  describe("chat level: window() on a 100,000-message chat", () => {
    let loom: Loom;
    let chat: Chat;
    let e: Engine;
    beforeAll(async () => {
      const store = memoryStore();
      const chatId = preload(store, "u");
      loom = Loom.withEngine(await countingEngine(engine), { store, maxOpenChats: 1000, recall: false }); // what Loom.open does, on the counting engine
      chat = await loom.user("u").open(chatId);
      e = loom.engineImpl;
      expect(loom.engine).toBe(engine);
      expect(chat.messageCount).toBe(N + BRANCH);
      expect(chat.head).toBe(N - 1);
    });
    afterAll(async () => {
      await loom.close();
    });

    for (const w of [1, 40, 1000]) {
      it(`window({ maxMessages: ${w} }) visits exactly ${w} nodes`, () => {
        e.resetVisited();
        const win = chat.window({ maxMessages: w });
        expect(e.visited).toBe(w);
        expect(win.map((m) => m.id)).toEqual(range(N - w, N));
        expect(win[w - 1]!.content).toBe(`m${N - 1}`);
      });
    }

    it("changing W changes only the stop: 40 then 41 then 40 visit 40 + 41 + 40", () => {
      e.resetVisited();
      chat.window({ maxMessages: 40 });
      chat.window({ maxMessages: 41 });
      chat.window({ maxMessages: 40 });
      expect(e.visited).toBe(121);
    });

    it("at a branch point deep in the tree: checkout the branch tip, window(W) visits W", async () => {
      await chat.checkout(N + BRANCH - 1);
      for (const w of [40, BRANCH + 40]) {
        e.resetVisited();
        const win = chat.window({ maxMessages: w });
        expect(e.visited).toBe(w);
        expect(win.map((m) => m.id)).toEqual(
          w <= BRANCH
            ? range(N + BRANCH - w, N + BRANCH)
            : [...range(BRANCH_AT - (w - BRANCH) + 1, BRANCH_AT + 1), ...range(N, N + BRANCH)],
        );
      }
      // and from the branch point itself, deep in the history
      await chat.checkout(BRANCH_AT);
      e.resetVisited();
      expect(chat.window({ maxMessages: 40 }).map((m) => m.id)).toEqual(range(BRANCH_AT - 39, BRANCH_AT + 1));
      expect(e.visited).toBe(40);
      await chat.checkout(N - 1);
    });

    it("append, regenerate, edit and checkout walk nothing (O(1) in the history)", async () => {
      e.resetVisited();
      const q = await chat.append({ role: "user", content: "one more" });
      const a = await chat.append({ role: "assistant", content: "answer" });
      await chat.regenerate(a.id);
      await chat.append({ role: "assistant", content: "another answer" });
      await chat.edit(q.id, "one more, edited");
      await chat.checkout(N + BRANCH - 1);
      await chat.checkout(N - 1);
      expect(e.visited).toBe(0);
      e.resetVisited();
      expect(chat.window({ maxMessages: 40 }).map((m) => m.id)).toEqual(range(N - 40, N));
      expect(e.visited).toBe(40);
    });

    it("path(id) (restore) visits the path root -> id only", () => {
      e.resetVisited();
      expect(chat.path(99).map((m) => m.id)).toEqual(range(0, 100));
      expect(e.visited).toBe(100);
    });
  });
});
