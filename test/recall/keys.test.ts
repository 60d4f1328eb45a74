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
