// What the tests of the ready-made summarizers and embedders share: a chat long enough to be
// summarized, and a recall the embedder's vectors must get right.
import { expect } from "vitest";
import { Loom, type ContextWindow, type LoomOptions } from "../../src/index.js";
import { SMALL, talk } from "../chat/summaries-helpers.js";

/** A Loom with these options and a chat of 60 turns in a small window, built once (it summarizes). */
export async function summarizedBuild(
  options: LoomOptions,
): Promise<{ loom: Loom; ctx: ContextWindow; fallbacks: number }> {
  const loom = await Loom.open(options);
  const chat = await loom.user("u").create({ model: SMALL });
  await talk(chat, 60);
  const ctx = await chat.buildContext();
  expect(ctx.compressed).toBe(true);
  return { loom, ctx, fallbacks: chat.stats().fallbacks };
}

/** Two exchanges, the boat's last; recall of "the boat" must score its question highest. */
export async function expectBoatRecalled(loom: Loom): Promise<void> {
  const chat = await loom.user("u").create();
  await chat.append({ role: "user", content: "Lunch was a tomato salad." });
  await chat.append({ role: "assistant", content: "Fresh and light." });
  await chat.append({ role: "user", content: "The boat is called Seabird." });
  await chat.append({ role: "assistant", content: "Seabird, a fine name." });
  const found = await chat.recall("what is the boat called?", { recent: 0, prompts: 1 });
  const best = found.reduce((a, b) => ((b.score ?? 0) > (a.score ?? 0) ? b : a));
  expect(best.message.content).toBe("The boat is called Seabird.");
}

/** After an embedder call given up at `timeoutMs`, the message waits in the queue; once the embedder answers, it is embedded. */
export async function expectQueuedAfterTimeout(loom: Loom, timeoutMs: number, answerAgain: () => void): Promise<void> {
  const chat = await loom.user("u").create();
  await chat.append({ role: "user", content: "The boat is called Seabird." });
  await loom.flush();
  expect(loom.stats().recall).toMatchObject({ pending: 1, embedded: 0 });
  expect(loom.stats().recall!.lastError).toMatch(
    new RegExp(`^EMBEDDER_FAILED: .*did not answer within ${timeoutMs} ms`),
  );
  answerAgain();
  await loom.flush();
  expect(loom.stats().recall).toMatchObject({ pending: 0, embedded: 1 });
}
