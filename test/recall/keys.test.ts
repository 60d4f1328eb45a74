// KeyMap: (chat, message id) pairs of a user's scope become integer keys for the index.
import { expect, it } from "vitest";
import { KeyMap } from "../../src/recall/keys.js";
import { expectThrowCode } from "../helpers.js";

it("hands out keys in first-seen order, finds them both ways, forgets a chat", () => {
  const keys = new KeyMap();
  expect(keys.key("a", 0)).toBe(0);
  expect(keys.key("b", 0)).toBe(1);
  expect(keys.key("a", 1)).toBe(2);
  expect(keys.key("a", 0)).toBe(0); // the same pair, the same key
  expect(keys.find("b", 0)).toBe(1);
  expect(keys.find("b", 9)).toBeUndefined();
  expect(keys.pair(2)).toEqual({ chat: "a", id: 1 });
  expect(keys.forgetChat("a").sort()).toEqual([0, 2]);
  expect(keys.pair(0)).toBeUndefined();
  expect(keys.find("a", 0)).toBeUndefined();
  expect(keys.key("a", 0)).toBe(3); // keys are never handed out twice
  expect(keys.forgetChat("nobody")).toEqual([]);
});

it("refuses a bad chat or id", () => {
  const keys = new KeyMap();
  expectThrowCode(() => keys.key("", 0), "INVALID_ARGUMENT");
  expectThrowCode(() => keys.key(5 as never, 0), "INVALID_ARGUMENT");
  expectThrowCode(() => keys.key("a", -1), "INVALID_ARGUMENT");
  expectThrowCode(() => keys.key("a", 0.5), "INVALID_ARGUMENT");
  expect(keys.find("a", 0)).toBeUndefined();
});

it("a user's scope: two chats' messages recalled through one memory and a KeyMap", async () => {
  const { RecallIndex } = await import("../../src/recall/memory.js");
  const { JsEngine } = await import("../../src/engine/index.js");
  const keys = new KeyMap();
  const memory = RecallIndex.create(new JsEngine());
  const chats: Record<string, string[]> = {
    trip: ["We land in Lisbon on the 4th.", "Great, enjoy Lisbon!"],
    work: ["The quarterly report needs charts.", "I can draft the charts.", "Use the blue palette.", "Will do."],
  };
  const messages: { key: number; parent: number; role: "user" | "assistant" }[] = [];
  const items: { key: number; role: "user" | "assistant"; content: string }[] = [];
  for (const [chat, texts] of Object.entries(chats)) {
    texts.forEach((content, id) => {
      const key = keys.key(chat, id);
      const role = id % 2 ? "assistant" : "user";
      messages.push({ key, parent: id === 0 ? -1 : keys.find(chat, id - 1)!, role });
      items.push({ key, role, content });
    });
  }
  await memory.add(items);
  const r = await memory.recall("when do we arrive in Lisbon?", messages, {
    prompts: 1,
    answersPerPrompt: 0,
    recent: 0,
  });
  expect(r.exchanges.map((e) => e.keys.map((k) => keys.pair(k)))).toEqual([
    [
      { chat: "trip", id: 0 },
      { chat: "trip", id: 1 },
    ],
  ]);
});
