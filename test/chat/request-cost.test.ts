// What a chat server's request costs beyond its work (issue 38): the structural side of the
// bench's figures (bench/user-loop.ts, the server suite), held here so that no change brings the
// cost back unseen. Counts, never timings: objects kept, microtasks taken.
import { expect, it } from "vitest";
import { heapObjects } from "../heap-objects.js";
import { Loom } from "../../src/index.js";
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
