// Texts made of what stores and codecs get wrong, as fast-check arbitraries.
import fc from "fast-check";
import type { TextsSpec } from "./texts-spec.js";

/** Characters and runs a store, a driver, SQL or a UTF-8 codec may mangle. */
export const PIECES = [
  "\uFEFF",
  "\u0000",
  "\u0001",
  "\u2028",
  "\u2029",
  "\r\n",
  "\r",
  "\n",
  "\t",
  "\u007F",
  "\u0085",
  "\u00A0",
  "\uFFFD",
  "\uFFFF",
  "😀",
  "𝔸",
  "👩🏽‍🚀",
  "e\u0301",
  "日本",
  "\\",
  "\\u0000",
  '"',
  "'",
  "?",
  "$1",
  "%s",
  "{}",
  "[",
  "a",
  " ",
];

/** A non-empty text of those pieces; half the time it starts with a byte order mark. */
export const trickyText = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }))
  .map(([bom, pieces]) => (bom ? "\uFEFF" : "") + pieces.join(""));

/** A message's name of those pieces: the ones a name may hold (no white space, "<", "|", "\\", "/" or ">"), at most 64 units. */
export const trickyName = fc
  .array(fc.constantFrom(...PIECES.filter((p) => /^[^\s\u001c-\u001f\u0085<|\\/>]+$/.test(p))), {
    minLength: 1,
    maxLength: 8,
  })
  .map((pieces) => pieces.join(""));

export const textsSpec: fc.Arbitrary<TextsSpec> = fc.record({
  title: trickyText,
  system: trickyText,
  user: trickyText,
  name: trickyName,
  filename: trickyText,
  callId: trickyText,
  args: trickyText,
  reasoning: trickyText,
  signature: trickyText,
  result: trickyText,
  answer: trickyText,
});
