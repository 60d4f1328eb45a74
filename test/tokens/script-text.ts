// Random text of a script for the counters' property tests: words of the script's code points
// (letters, marks, digits, punctuation, emoji sequences) with spaces and ASCII between them.
import fc from "fast-check";
import type { Script } from "./multilingual.js";

/** Code point ranges per script: letters, marks, digits and punctuation of its blocks. */
const RANGES: Record<Script, [number, number][]> = {
  german: [
    [0xc0, 0xff],
    [0x300, 0x36f],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x1e9e, 0x1e9e],
    [0x201c, 0x201e],
  ],
  french: [
    [0xc0, 0xff],
    [0x152, 0x153],
    [0x300, 0x36f],
    [0x61, 0x7a],
    [0xab, 0xbb],
    [0x2019, 0x2019],
  ],
  polish: [
    [0x100, 0x17f],
    [0xd3, 0xf3],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x2013, 0x2014],
  ],
  russian: [
    [0x400, 0x52f],
    [0x1c80, 0x1c88],
    [0x2de0, 0x2dff],
    [0xa640, 0xa69f],
    [0xab, 0xbb],
    [0x2116, 0x2116],
  ],
  greek: [
    [0x370, 0x3ff],
    [0x1f00, 0x1fff],
    [0x300, 0x36f],
  ],
  chinese: [
    [0x4e00, 0x9fff],
    [0x3400, 0x4dbf],
    [0x3000, 0x303f],
    [0xff00, 0xffef],
    [0x20000, 0x2a6df],
  ],
  japanese: [
    [0x3040, 0x30ff],
    [0x31f0, 0x31ff],
    [0x4e00, 0x9fff],
    [0xff61, 0xff9f],
    [0x3000, 0x303f],
  ],
  korean: [
    [0xac00, 0xd7a3],
    [0x1100, 0x11ff],
    [0x3130, 0x318f],
    [0xa960, 0xa97f],
    [0xd7b0, 0xd7ff],
  ],
  arabic: [
    [0x600, 0x6ff],
    [0x750, 0x77f],
    [0x8a0, 0x8ff],
    [0xfb50, 0xfdff],
    [0xfe70, 0xfefc],
    [0x660, 0x669],
  ],
  hindi: [
    [0x900, 0x97f],
    [0xa8e0, 0xa8ff],
    [0x966, 0x96f],
    [0x1cd0, 0x1cff],
  ],
  emoji: [
    [0x1f300, 0x1faff],
    [0x2600, 0x27bf],
    [0x1f3fb, 0x1f3ff],
    [0x1f1e6, 0x1f1ff],
    [0x200d, 0x200d],
    [0xfe0f, 0xfe0f],
    [0xe0020, 0xe007f],
  ],
  mixed: [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x370, 0x52f],
    [0x600, 0x6ff],
    [0x900, 0x97f],
    [0x3000, 0x30ff],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
    [0x1f300, 0x1faff],
  ],
};
/** Between a script's code points: what texts put between words and around them. */
const GLUE = [
  " ",
  " ",
  " ",
  "  ",
  "\n",
  "\n\n",
  "\t",
  ".",
  ",",
  "!",
  "?",
  "'s",
  "'",
  "-",
  "1",
  "42",
  "2024",
  "a",
  "The",
  "\u00a0",
  "\u3000",
  "\u200d",
  "\u0301",
];

export const scriptText = (script: Script) => {
  const cp = fc.oneof(...RANGES[script].map(([min, max]) => fc.integer({ min, max })));
  const word = fc.array(cp, { minLength: 1, maxLength: 12 }).map((cps) => String.fromCodePoint(...cps));
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: fc.constantFrom(...GLUE) }), {
      maxLength: 30,
    })
    .map((parts) => parts.join(""));
};
