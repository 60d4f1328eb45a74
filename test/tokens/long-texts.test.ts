// Long texts cost what a limit does (issue 21, item 4): an append far past a chat's window is
// refused once a bound or a capped count proves it, not after counting the whole text; a tool
// result cut with the WebAssembly counter is read once, not counted prefix by prefix. Work is
// counted (characters a counter was handed, merge steps), never timed: bench/tokens-huge.bench.ts
// has the figures.
import { describe, expect, it } from "vitest";
import { Loom, type TokenCounter } from "../../src/index.js";
import { forgetBpePieces, lastMergeSteps, wasmBpeCounter } from "../../src/tokens/wasm-bpe.js";
import { expectRejectCode, forEachEngine, snapshot } from "../helpers.js";

/** About 2 MB of words that are several tokens and rarely repeat (seeded), so that counting merges all along. */
function words(chars: number, seed = 21): string {
  const letter = () => "aeiouéèàüößñçrstlnmkpdgbvz"[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 26]!;
  const out: string[] = [];
  for (let n = 0; n < chars; n += 9) out.push(Array.from({ length: 8 }, letter).join(""));
  return out.join(" ");
}

/** The estimate, handing out what it was asked to count. */
function spyEstimate(): { counter: TokenCounter; chars: () => number } {
  let chars = 0;
  const counter: TokenCounter = {
    name: "spy",
    exact: false,
    count: (t) => ((chars += t.length), Math.ceil(t.length / 4)),
    atLeast: (t) => Math.ceil(t.length / 4),
  };
  return { counter, chars: () => chars };
}

forEachEngine((engine) => {
  describe("an append far past the window", () => {
    it("is refused by the counter's bound: 10 MB is never counted, and nothing changes", async () => {
      const { counter, chars } = spyEstimate();
      const loom = await Loom.open({ engine });
      const chat = await loom
        .user("u")
        .create({ model: { name: "spy-8k", contextWindow: 8_000, sizeClass: "small", tokensPerChar: 0.25, counter } });
      await chat.append({ role: "user", content: "hi" });
      const before = await snapshot(chat);
      const counted = chars();
      await expectRejectCode(
        () => chat.append({ role: "user", content: "word ".repeat(2_000_000) }),
        "MESSAGE_TOO_LARGE",
      );
      await expectRejectCode(() => chat.edit(0, "word ".repeat(2_000_000)), "MESSAGE_TOO_LARGE");
      expect(chars() - counted).toBeLessThan(100); // the role, never the text
      expect(await snapshot(chat)).toEqual(before);
      await loom.close();
    });

    it("is refused by the WebAssembly counter once past the window: 2 MB over gpt-4o's merges about the window's worth", async () => {
      const text = words(2_000_000);
      const counter = await wasmBpeCounter("o200k_base");
      forgetBpePieces(); // (its cache of words would spare it merges the capped count makes)
      counter.count(`${text} ${engine}`); // the whole text's merges (another string: the counter remembers the last long one it counted)
      const whole = lastMergeSteps();
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      let message = "";
      await chat.append({ role: "user", content: text }).catch((e: Error) => (message = e.message));
      expect(message).toMatch(/costs at least [\d,]+ tokens and cannot fit gpt-4o's window/);
      expect(lastMergeSteps()).toBeLessThan(whole * 0.4); // gpt-4o's request: about 110k of the text's 600k tokens
      expect(chat.messageCount).toBe(0);
      await loom.close();
    });

    it("is refused by gpt-4o by its bytes alone when it is one piece: 10 MiB of letters (at least 400k tokens) is not merged", async () => {
      await wasmBpeCounter("o200k_base");
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      for (const text of [`${engine}${"x".repeat(10 * 2 ** 20)}`, `${engine} ${"abcdefghij".repeat(2 ** 20)}`]) {
        await expectRejectCode(() => chat.append({ role: "user", content: text }), "MESSAGE_TOO_LARGE");
        expect(lastMergeSteps()).toBeLessThan(100); // the short word before it; the run: tokens of at most 26 bytes
      }
      await loom.close();
    });
  });
});
