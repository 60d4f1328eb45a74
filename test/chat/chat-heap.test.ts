// What an open chat costs the JS heap, in objects: a server keeps thousands open, and every
// full collection marks each of their objects. Counted from heap snapshots (which collect first).
import { expect, it } from "vitest";
import { heapObjects } from "../heap-objects.js";
import { Loom } from "../../src/index.js";

// 57 before its message columns shared one buffer, its maps, summary ledger and the store's
// embedding map came at first use, and chats counting by the estimate shared one counter.
it("an open chat with a message costs at most 44 heap objects (WASM engine; 41 measured)", async () => {
  const loom = await Loom.open({ engine: "wasm", counter: "heuristic" });
  const warm = await loom.user("warm").create({ system: "You are a helpful assistant." });
  await warm.append({ role: "user", content: "a first question" });
  const chats = 1_000;
  const before = await heapObjects();
  const open = [];
  for (let c = 0; c < chats; c++) {
    const chat = await loom.user(`user-${c % 100}`).create({ system: "You are a helpful assistant." });
    await chat.append({ role: "user", content: "a question long enough" });
    open.push(chat);
  }
  const perChat = ((await heapObjects()) - before) / chats;
  // A chat id made by crypto.randomUUID() is a tree of about 14 concatenated strings on Node:
  // kept as it comes, it would take this to about 71.
  expect(perChat).toBeLessThanOrEqual(44);
  expect(open).toHaveLength(chats);
  await loom.close();
}, 60_000);
