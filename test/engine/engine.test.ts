// The Engine interface, on the WASM arena and its TypeScript twin: same calls, same answers.
import { beforeEach, expect, it } from "vitest";
import { CtxloomError, Loom } from "../../src/index.js";
import type { Engine } from "../../src/engine/index.js";
import { dumpTree, expectThrowCode, forEachEngine, makeEngine, walkIds } from "../helpers.js";
import { countingEngine } from "./counting.js";
import { JsEngine } from "../../src/engine/index.js";

const path = (e: Engine, t: number, head: number, max = Number.MAX_SAFE_INTEGER) => walkIds(e, t, head, max);

forEachEngine((kind) => {
  let e: Engine;
  beforeEach(async () => {
    e = await makeEngine(kind);
  });

  it("names its kind; memoryBytes is the linear memory (wasm) or -1 (js)", () => {
    expect(e.kind).toBe(kind);
    const bytes = e.memoryBytes();
    if (kind === "wasm") {
      expect(bytes).toBeGreaterThan(0);
      expect(bytes % 65536).toBe(0);
    } else {
      expect(bytes).toBe(-1);
    }
  });

  it("memoryUsedBytes is what the allocator handed out (wasm), within memory that grows by doubling; -1 (js)", () => {
    if (kind === "js") {
      expect(e.memoryUsedBytes()).toBe(-1);
      return;
    }
    const used0 = e.memoryUsedBytes();
    const pages0 = e.memoryBytes();
    expect(used0).toBeGreaterThan(0);
    expect(used0).toBeLessThanOrEqual(pages0);
    const t = e.createTree();
    let grew = 0;
    for (let i = 0, before = pages0; i < 400_000; i++) {
      e.append(t, i - 1, 1, 1 + (i & 1), 1, 0);
      const now = e.memoryBytes();
      if (now !== before) {
        // One growth is at least the size before it: V8 counts linear memory as external, and
        // each growth can start a full collection of the JS heap, so growths must be few.
        expect(now).toBeGreaterThanOrEqual(2 * before);
        grew++;
        before = now;
      }
    }
    expect(grew).toBeGreaterThan(0);
    expect(e.memoryUsedBytes()).toBeGreaterThan(used0 + 400_000 * 44 - 1);
    expect(e.memoryUsedBytes()).toBeLessThanOrEqual(e.memoryBytes());
  });

  it("a new tree is empty", () => {
    const t = e.createTree();
    expect(e.size(t)).toBe(0);
    expect(e.children(t, -1)).toEqual([]);
    expect(e.leaves(t)).toEqual([]);
  });

  it("trees get distinct handles", () => {
    const handles = Array.from({ length: 5 }, () => e.createTree());
    expect(new Set(handles).size).toBe(5);
  });

  it("append returns ids 0, 1, 2 ... and stores every field", () => {
    const t = e.createTree();
    expect(e.append(t, -1, 5, 0, 3, 0)).toBe(0);
    expect(e.append(t, 0, 7, 1, 1, 0)).toBe(1);
    expect(e.append(t, 1, 2147483647, 2, 0, 1)).toBe(2);
    expect(e.append(t, 2, 0, 3, 2, 4)).toBe(3);
    expect(e.append(t, 0, 123456, 2, 1, 5)).toBe(4);
    expect(dumpTree(e, t)).toEqual({
      size: 5,
      roots: [0],
      leaves: [3, 4],
      nodes: [
        { parent: -1, depth: 0, tokens: 5, role: 0, priority: 3, flags: 0, children: [1, 4] },
        { parent: 0, depth: 1, tokens: 7, role: 1, priority: 1, flags: 0, children: [2] },
        { parent: 1, depth: 2, tokens: 2147483647, role: 2, priority: 0, flags: 1, children: [3] },
        { parent: 2, depth: 3, tokens: 0, role: 3, priority: 2, flags: 4, children: [] },
        { parent: 0, depth: 1, tokens: 123456, role: 2, priority: 1, flags: 5, children: [] },
      ],
    });
  });

  it("children and roots in creation order; leaves in creation order", () => {
    const t = e.createTree();
    e.append(t, -1, 1, 1, 1, 0); // 0
    e.append(t, -1, 1, 1, 1, 0); // 1 (second root)
    e.append(t, 0, 1, 2, 1, 0); // 2
    e.append(t, 1, 1, 2, 1, 0); // 3
    e.append(t, 0, 1, 2, 1, 0); // 4
    e.append(t, -1, 1, 1, 1, 0); // 5
    e.append(t, 0, 1, 2, 1, 0); // 6
    expect(e.children(t, -1)).toEqual([0, 1, 5]);
    expect(e.children(t, 0)).toEqual([2, 4, 6]);
    expect(e.children(t, 1)).toEqual([3]);
    expect(e.leaves(t)).toEqual([2, 3, 4, 5, 6]);
  });

  it("walk returns the last max nodes of the path, oldest first", () => {
    const t = e.createTree();
    for (let i = 0; i < 10; i++) e.append(t, i - 1, 1, i % 2, 1, 0);
    e.append(t, 4, 1, 1, 1, 0); // 10: a branch at 4
    expect(path(e, t, 9)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(path(e, t, 9, 3)).toEqual([7, 8, 9]);
    expect(path(e, t, 9, 1)).toEqual([9]);
    expect(path(e, t, 9, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(path(e, t, 9, 11)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(path(e, t, 10, 3)).toEqual([3, 4, 10]);
    expect(path(e, t, 10)).toEqual([0, 1, 2, 3, 4, 10]);
    expect(path(e, t, 0, 5)).toEqual([0]);
    expect(e.walk(t, 9, 2)).toBe(2);
    expect(e.ids).toBeInstanceOf(Int32Array);
    expect(Array.from(e.ids.subarray(0, 2))).toEqual([8, 9]);
  });

  it("the release engine does not count visits: visited is -1, walks or not", () => {
    const t = e.createTree();
    for (let i = 0; i < 5; i++) e.append(t, i - 1, 1, 1, 1, 0);
    e.resetVisited();
    e.walk(t, 4, 3);
    e.select(t, 4, 100, 0);
    expect(e.visited).toBe(-1);
  });

  it("new JsEngine refuses options it does not know, naming the closest one", () => {
    expectThrowCode(() => new JsEngine({ countVisit: true } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => new JsEngine(7 as never), "INVALID_ARGUMENT");
    expect(new JsEngine({ countVisits: false }).visited).toBe(-1);
    expect(new JsEngine({ countVisits: true }).visited).toBe(0);
  });

  it("the counting engine counts the nodes walks touch", async () => {
    const e = await countingEngine(kind);
    const t = e.createTree();
    for (let i = 0; i < 50; i++) e.append(t, i - 1, 1, 1, 1, 0);
    e.resetVisited();
    expect(e.visited).toBe(0);
    e.walk(t, 49, 10);
    expect(e.visited).toBe(10);
    e.walk(t, 5, 10);
    expect(e.visited).toBe(16);
    e.resetVisited();
    expect(e.visited).toBe(0);
  });

  it("reserve makes room without changing the tree; appends after it keep every link", () => {
    const t = e.createTree();
    e.append(t, -1, 1, 1, 1, 0); // 0
    e.append(t, 0, 1, 2, 1, 0); // 1
    const before = dumpTree(e, t);
    e.reserve(t, 5000);
    expect(dumpTree(e, t)).toEqual(before);
    for (let i = 2; i < 5000; i++) expect(e.append(t, i - 1, i, i % 4, i % 4, 0)).toBe(i);
    expect(e.parent(t, 4999)).toBe(4998);
    expect(e.depth(t, 4999)).toBe(4999);
    expect(e.children(t, 0)).toEqual([1]);
    e.reserve(t, 10); // smaller than the size: nothing to do
    expect(e.size(t)).toBe(5000);
  });

  it("growth by doubling keeps every field and link (16 -> 32 -> ... -> 4096 nodes)", () => {
    const t = e.createTree();
    const parents: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const parent = i === 0 ? -1 : i % 7 === 0 ? (i * 31) % i : i - 1;
      parents.push(parent);
      expect(e.append(t, parent, i * 3, i % 4, (i >> 2) % 4, [0, 1, 4][i % 3]!)).toBe(i);
    }
    for (let i = 0; i < 3000; i++) {
      expect(e.parent(t, i)).toBe(parents[i]);
      expect(e.tokens(t, i)).toBe(i * 3);
      expect(e.role(t, i)).toBe(i % 4);
      expect(e.priority(t, i)).toBe((i >> 2) % 4);
      expect(e.flags(t, i)).toBe([0, 1, 4][i % 3]);
      expect(e.depth(t, i)).toBe(parents[i]! < 0 ? 0 : e.depth(t, parents[i]!) + 1);
    }
    const expected: number[] = [];
    for (let n = 2999; n >= 0; n = parents[n]!) expected.unshift(n);
    expect(path(e, t, 2999)).toEqual(expected);
  });

  it("many trees grow interleaved (tree table growth), each stays intact", () => {
    const trees = Array.from({ length: 40 }, () => e.createTree());
    for (let round = 0; round < 70; round++) {
      for (const [k, t] of trees.entries()) e.append(t, round - 1, k * 1000 + round, k % 4, round % 4, 0);
    }
    for (const [k, t] of trees.entries()) {
      expect(e.size(t)).toBe(70);
      expect(path(e, t, 69, 3)).toEqual([67, 68, 69]);
      expect(e.tokens(t, 35)).toBe(k * 1000 + 35);
      expect(e.leaves(t)).toEqual([69]);
    }
  });

  it("dropTree frees a tree; createTree after it starts empty and the others are intact", () => {
    const a = e.createTree();
    const b = e.createTree();
    for (let i = 0; i < 300; i++) e.append(a, i - 1, i, 1, 1, 0);
    for (let i = 0; i < 20; i++) e.append(b, i - 1, 100 + i, 2, 2, 0);
    const bBefore = dumpTree(e, b);
    e.dropTree(a);
    const c = e.createTree();
    expect(e.size(c)).toBe(0);
    expect(e.children(c, -1)).toEqual([]);
    expect(e.leaves(c)).toEqual([]);
    for (let i = 0; i < 600; i++) e.append(c, i - 1, -i, 3, 0, 1); // grows through the freed blocks
    expect(dumpTree(e, b)).toEqual(bBefore);
    expect(path(e, c, 599, 2)).toEqual([598, 599]);
    expect(e.tokens(c, 250)).toBe(-250);
    const d = e.createTree();
    expect(e.size(d)).toBe(0);
    e.dropTree(c);
    e.dropTree(d);
    expect(dumpTree(e, b)).toEqual(bBefore);
  });

  if (kind === "wasm") {
    it("memory of deleted chats is reused: rebuilding them does not grow the core's memory", async () => {
      const w = await makeEngine("wasm");
      const build = (n: number) => {
        const t = w.createTree();
        for (let i = 0; i < n; i++) w.append(t, i - 1, 10, 1 + (i & 1), 1, 0);
        w.walk(t, n - 1, 40);
        return t;
      };
      // One large chat alone, then many small ones beside a large one: the freed blocks come back.
      w.dropTree(build(200_000));
      const afterOne = w.memoryBytes();
      w.dropTree(build(200_000));
      expect(w.memoryBytes()).toBe(afterOne);
      for (let round = 0; round < 3; round++) {
        const big = build(50_000);
        const small = Array.from({ length: 20 }, () => build(2_000));
        for (const t of [big, ...small]) w.dropTree(t);
      }
      const afterRounds = w.memoryBytes();
      for (let round = 0; round < 3; round++) {
        const big = build(50_000);
        const small = Array.from({ length: 20 }, () => build(2_000));
        for (const t of [big, ...small]) w.dropTree(t);
      }
      expect(w.memoryBytes()).toBe(afterRounds);
    });

    // The JS engine has no memory cap: these two run on the WASM engine only.
    it("OUT_OF_MEMORY when maxMemoryMB is reached; the tree is unchanged and usable", async () => {
      const small = await makeEngine("wasm", { maxMemoryMB: 1 });
      const t = small.createTree();
      let n = 0;
      let error: unknown;
      try {
        for (; n < 1_000_000; n++) small.append(t, n - 1, 1, n % 2 ? 2 : 1, 1, 0);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(CtxloomError);
      expect((error as CtxloomError).code).toBe("OUT_OF_MEMORY");
      expect(small.size(t)).toBe(n);
      expect(small.memoryBytes()).toBeLessThanOrEqual(1024 * 1024);
      expect(path(small, t, n - 1, 3)).toEqual([n - 3, n - 2, n - 1]);
      expect(small.parent(t, n - 1)).toBe(n - 2);
      expect(small.leaves(t)).toEqual([n - 1]);
    });

    it("a selection sorts in place when memory is full, and selects what the JS engine does", async () => {
      const small = await makeEngine("wasm", { maxMemoryMB: 1 });
      const js = new JsEngine();
      const a = small.createTree();
      const b = js.createTree();
      const N = 6_000;
      for (let n = 0; n < N; n++) {
        // A HIGH message now and then: the selection's ids come as several runs to merge.
        const priority = n % 97 === 0 ? 2 : 1;
        small.append(a, n - 1, 1 + (n % 5), n % 2 ? 2 : 1, priority, 0);
        js.append(b, n - 1, 1 + (n % 5), n % 2 ? 2 : 1, priority, 0);
      }
      small.walk(a, N - 1, N); // the output buffer, with room for the whole branch
      // Trees that fill the memory left, down to where not even a new one fits.
      for (let full = false; !full; ) {
        try {
          const filler = small.createTree();
          for (let n = 0; n < 1_000_000; n++) small.append(filler, n - 1, 1, 1, 1, 0);
        } catch (err) {
          expect((err as CtxloomError).code).toBe("OUT_OF_MEMORY");
          full = /new chat|message 0\b/.test((err as CtxloomError).message);
        }
      }
      const used = small.memoryUsedBytes();
      for (const budget of [2 ** 30 - 1, 40_000, 1_000]) {
        const got = small.select(a, N - 1, budget, 0);
        expect(got).toEqual(js.select(b, N - 1, budget, 0));
      }
      expect(small.memoryUsedBytes()).toBe(used); // no scratch could be had: the merge ran in place
    });

    it("OUT_OF_MEMORY through a chat: the append is rejected and the chat unchanged", async () => {
      const loom = await Loom.open({ engine: "wasm", maxMemoryMB: 1 });
      const chat = await loom.user("u").create();
      let error: unknown;
      let n = 0;
      try {
        for (; n < 1_000_000; n++) await chat.append({ role: n % 2 ? "assistant" : "user", content: "x" });
      } catch (err) {
        error = err;
      }
      expect((error as CtxloomError).code).toBe("OUT_OF_MEMORY");
      expect(chat.messageCount).toBe(n);
      expect(chat.head).toBe(n - 1);
      expect(chat.window({ maxMessages: 2 }).map((m) => m.id)).toEqual([n - 2, n - 1]);
      await loom.close();
    });
  }
});
