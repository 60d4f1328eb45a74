// What a chat server's request costs beyond its work (issue 38): the structural side of the
// bench's figures (bench/user-loop.ts, the server suite), held here so that no change brings the
// cost back unseen. Counts, never timings: objects kept, microtasks taken.
import { Session } from "node:inspector/promises";
import { expect, it } from "vitest";
import { heapObjects } from "../heap-objects.js";
import { Loom, type Chat } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";

/** Microtask turns until `promise` settles (a caller's await resumes one turn after). */
async function turnsUntil(promise: Promise<unknown>): Promise<number> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  let turns = 0;
  while (!settled) {
    await undefined;
    turns++;
  }
  return turns;
}

forEachEngine((engine) => {
  it("an append and a build on the memory store settle in two microtask turns each (three before)", async () => {
    const loom = await Loom.open({ engine, counter: "heuristic" });
    const chat = await loom.user("ann").create();
    await chat.append({ role: "user", content: "warm-up" });
    expect(await turnsUntil(chat.append({ role: "assistant", content: "an answer" }))).toBe(2);
    expect(await turnsUntil(chat.buildContext())).toBe(2);
    // A failed change settles as soon, and the next one runs.
    expect(await turnsUntil(chat.append({ role: "tool", content: "no call", toolCallId: "x" }))).toBe(2);
    expect((await chat.append({ role: "user", content: "and on" })).id).toBe(2);
    await loom.close();
  });
});

it("builds for users who hold no working memory keep nothing for it (1,000 spaces of 3 objects each before: 5.2 objects a chat with its usage)", async () => {
  const loom = await Loom.open({ counter: "heuristic" });
  const chats = [];
  for (let c = 0; c < 1_300; c++) {
    const chat = await loom.user(`user-${c}`).create();
    await chat.append({ role: "user", content: "a question" });
    chats.push(chat);
  }
  for (const chat of chats.slice(0, 100)) await chat.buildContext(); // the build's code loaded
  const before = await heapObjects();
  for (const chat of chats.slice(100)) await chat.buildContext();
  // Each chat keeps its last context's usage (for stats()) and the plan of a build with no
  // options (with its one number boxed): three objects (3.5 counted); nothing else stays.
  const perChat = ((await heapObjects()) - before) / 1_200;
  expect(perChat).toBeLessThan(4.5);
  await loom.close();
}, 60_000);

/**
 * Bytes the V8 heap allocates for `requests` calls of `request`, by the sampling heap profiler
 * (every allocation counted, however soon it was collected: a sample every 64 bytes on average).
 */
async function bytesAllocated(requests: number, request: (k: number) => Promise<unknown>): Promise<number> {
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 64,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  for (let k = 0; k < requests; k++) await request(k);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  session.disconnect();
  let total = 0;
  const visit = (node: { selfSize: number; children: (typeof node)[] }): void => {
    total += node.selfSize;
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  return total;
}

// Bytes, not objects: what a request allocates is garbage at once, which only a sampling of the
// allocations sees. Measured on Node 20 (8-byte pointers): 18,440-18,540 bytes a request before (a
// closure per queued change and per build for its source's calls into the chat, two spread
// objects in the source, the context's fields in a property array grown field by field),
// 17,552 after; the plain loop's own objects (messages sent, the context) are most of it.
it("a request of a short chat (append, build, append) allocates under 18,100 bytes (18,440 before, 17,552 now)", async () => {
  const loom = await Loom.open({ counter: "heuristic" });
  const chats: Chat[] = [];
  for (let c = 0; c < 20; c++) {
    const chat = await loom.user(`user-${c}`).create({ system: "You are a helpful assistant." });
    for (let i = 0; i < 100; i++) await chat.append({ role: i % 2 ? "assistant" : "user", content: `message ${i}` });
    chats.push(chat);
  }
  const request = async (k: number) => {
    const chat = chats[k % chats.length]!;
    await chat.append({ role: "user", content: `question ${k}` });
    const context = await chat.buildContext();
    await chat.append({ role: "assistant", content: `answer ${k}` });
    return context;
  };
  for (let k = 0; k < 2_000; k++) await request(k); // optimized
  const perRequest = (await bytesAllocated(2_000, request)) / 2_000;
  expect(perRequest).toBeLessThan(18_100); // midway: 3% above today's, 2% below the code before
  await loom.close();
}, 60_000);
