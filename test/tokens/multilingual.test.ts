// The WebAssembly BPE counter in every script (issue 26): the same counts as gpt-tokenizer on
// a multilingual corpus (twelve scripts and languages, test/tokens/multilingual.ts), and on
// random strings drawn from each script's code points (letters, marks, digits, punctuation,
// emoji sequences) mixed with spaces and ASCII, for both encodings. Texts are counted twice
// and in both encodings in turn, so that a piece counted before (and remembered) must count
// the same again, in the encoding it is counted in.
import fc from "fast-check";
import { countTokens as gptO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as gptCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import { forgetBpePieces, wasmBpeCounter } from "../../src/tokens/wasm-bpe.js";
import { SCRIPT_NAMES, SCRIPTS, messages } from "./multilingual.js";
import { scriptText } from "./script-text.js";

const PLAIN = { disallowedSpecial: new Set<string>() };
const REFERENCE = {
  o200k_base: (text: string) => gptO200k(text, PLAIN),
  cl100k_base: (text: string) => gptCl100k(text, PLAIN),
} as const;
const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

const SEED = Number(process.env.CTXLOOM_SEED ?? Date.now() % 2 ** 31);
console.log(`multilingual.test.ts: seed ${SEED} (CTXLOOM_SEED=${SEED} repeats this run)`);

describe.each(ENCODINGS)("%s", (encoding) => {
  const reference = REFERENCE[encoding];
  const other = ENCODINGS.find((e) => e !== encoding)!;

  it.each(SCRIPT_NAMES)(
    "the same counts as gpt-tokenizer on %s: each sentence, and 150 messages made of them",
    async (script) => {
      const counter = await wasmBpeCounter(encoding);
      const otherCounter = await wasmBpeCounter(other);
      const texts = [...SCRIPTS[script], ...messages(script, 150, 26)];
      const differ = texts.filter((t) => {
        const first = counter.count(t);
        otherCounter.count(t); // the same pieces in the other encoding, between two counts of these
        return first !== reference(t) || counter.count(t) !== first;
      });
      expect(differ.slice(0, 3)).toEqual([]);
    },
  );

  it("words of 3 to 70 bytes (the cache keeps up to 56), alone, repeated, and last in the text: the same counts, remembered or forgotten", async () => {
    const counter = await wasmBpeCounter(encoding);
    const texts = ["ж", "ä", "日", "한", "ष्", "👍🏽", "ab"].flatMap((unit) =>
      Array.from({ length: 24 }, (_, k) => unit.repeat(k + 1)).flatMap((word) => [
        word,
        ` ${word}`,
        `${word} ${word}`,
        `x${word}`,
        `${word}.`,
      ]),
    );
    for (const round of ["first", "again", "forgotten"]) {
      if (round === "forgotten") forgetBpePieces();
      expect(
        texts.filter((t) => counter.count(t) !== reference(t)),
        round,
      ).toEqual([]);
    }
  });

  it.each(SCRIPT_NAMES)("the same counts as gpt-tokenizer on random %s text (seeded)", async (script) => {
    const counter = await wasmBpeCounter(encoding);
    const otherCounter = await wasmBpeCounter(other);
    fc.assert(
      fc.property(scriptText(script), (text) => {
        const count = counter.count(text);
        otherCounter.count(text);
        return count === reference(text) && counter.count(text) === count;
      }),
      { numRuns: 400, seed: SEED },
    );
  });
});
