// A build's recall with a slow, stuck or failing embedder: it waits the embedder's
// recallTimeoutMs at most (never its background timeoutMs), recalls with what it has (the
// lexical channel, the vectors already made) and says so in ctx.recallDegraded; once the
// embedder answers again, the next build ranks with vectors. chat.recall waits as long, then
// fails when the query has no vector.
import { afterEach, expect, it, vi } from "vitest";
import type { Chat, Loom } from "../../src/index.js";
import { expectRejectCode, forEachEngine, setup } from "../helpers.js";
import { flakyEmbedder, gatedEmbedder, heldEmbedder } from "./recall-helpers.js";

/** Two facts with turns that name neither between and after, then the question: a window of 2 leaves the facts to recall. */
async function talk(chat: Chat): Promise<void> {
  const notes = async (from: number) => {
    for (let i = from; i < from + 4; i++) {
      await chat.append({ role: "user", content: `Note ${i} on the rivers.` });
      await chat.append({ role: "assistant", content: `Noted, number ${i}.` });
    }
  };
  await chat.append({ role: "user", content: "The boat is called Seabird." });
  await chat.append({ role: "assistant", content: "Seabird, a fine name." });
  await notes(0);
  await chat.append({ role: "user", content: "My kitten is named Pebble." });
  await chat.append({ role: "assistant", content: "Pebble, a sweet name." });
  await notes(4);
  await chat.append({ role: "user", content: "Seabird or feline?" });
}

const SEABIRD = ["The boat is called Seabird.", "Seabird, a fine name."];
const PEBBLE = ["My kitten is named Pebble.", "Pebble, a sweet name."];
/** The facts' exchanges: "seabird" is a word of the question, "feline" a concept of it only. */
const build = (chat: Chat) => chat.buildContext({ recall: { prompts: 2 }, maxMessages: 2 });

/** The background's timeoutMs: a build that returns before it did not wait for it. */
const BACKGROUND_MS = 20_000;

forEachEngine((engine) => {
  let loom: Loom | undefined;
  afterEach(async () => {
    await loom?.close();
    loom = undefined;
  });

  it("a stuck embedder: the build returns after recallTimeoutMs with lexical recall, degraded; recovered, the next build ranks with vectors", async () => {
    const embedder = heldEmbedder({ timeoutMs: BACKGROUND_MS, recallTimeoutMs: 150 });
    let chat: Chat;
    ({ loom, chat } = await setup(engine, { recall: { embedder } }));
    await talk(chat);
    const started = performance.now();
    const ctx = await build(chat);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(BACKGROUND_MS / 4); // before: twice BACKGROUND_MS, then EMBEDDER_FAILED
    expect(ctx.recallDegraded).toEqual({
      reason: "timeout",
      lexicalOnly: true,
      pending: 21,
      error: expect.stringMatching(/^EMBEDDER_FAILED: .*did not answer within 150 ms \(its recallTimeoutMs\)/),
    });
    const recalled = ctx.recalled.map((m) => m.content);
    expect(recalled).toEqual(expect.arrayContaining(SEABIRD)); // by its word (and the turn after it, its neighbour)...
    expect(recalled).not.toContain(PEBBLE[0]); // ...while the kitten is a concept of the question only
    expect(ctx.messages.at(-1)).toEqual({ role: "user", content: "Seabird or feline?" });
    expect(embedder.waiting).toBe(2); // the background batch and the query, both still held

    embedder.release(); // the service is back: the batch held is answered, the queue catches up
    await vi.waitFor(() => expect(loom!.stats().recall).toMatchObject({ pending: 0, indexed: 21 }), {
      timeout: 10_000,
    });
    const again = await build(chat);
    expect(again.recallDegraded).toBeNull();
    expect(again.recalled.map((m) => m.content)).toEqual([...SEABIRD, ...PEBBLE]); // the kitten found by its vector
  });

  it("with the default timeouts a stuck embedder holds a build about 2 s, not 60 s", async () => {
    const embedder = gatedEmbedder(); // no timeoutMs: 30 s for the background, 2 s for a request
    let chat: Chat;
    ({ loom, chat } = await setup(engine, { recall: { embedder } }));
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    await chat.append({ role: "user", content: "What about the boat?" });
    const started = performance.now();
    const ctx = await chat.buildContext({ recall: true, maxMessages: 1 });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_950);
    expect(took).toBeLessThan(15_000);
    expect(ctx.recallDegraded).toMatchObject({ reason: "timeout", lexicalOnly: true, pending: 3 });
    expect(ctx.recallDegraded!.error).toMatch(/did not answer within 2000 ms \(its recallTimeoutMs\)/);
    expect(ctx.recalled.map((m) => m.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
  });

  it("the query answered but the queued messages not: the build ranks with the vectors it has, and counts those it lacks", async () => {
    const question = "Seabird or feline?";
    const embedder = heldEmbedder({
      timeoutMs: BACKGROUND_MS,
      recallTimeoutMs: 150,
      holds: (texts) => !(texts.length === 1 && texts[0] === question),
    });
    embedder.release(); // the facts are embedded...
    let chat: Chat;
    ({ loom, chat } = await setup(engine, { recall: { embedder } }));
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    await chat.append({ role: "user", content: "Where is it moored?" });
    await chat.append({ role: "assistant", content: "At the old pier." });
    await chat.append({ role: "user", content: "My kitten is named Pebble." });
    await chat.append({ role: "assistant", content: "Pebble, a sweet name." });
    await loom.flush();
    expect(loom.stats().recall).toMatchObject({ pending: 0, indexed: 6 });
    embedder.held = true; // ...then the batches stall, the query still answers
    for (let i = 0; i < 8; i++) {
      await chat.append({ role: "user", content: `Note ${i} on the rivers.` });
      await chat.append({ role: "assistant", content: `Noted, number ${i}.` });
    }
    await chat.append({ role: "user", content: question });
    const ctx = await build(chat);
    expect(ctx.recallDegraded).toEqual({ reason: "timeout", lexicalOnly: false, pending: 17, error: null });
    expect(ctx.recalled.map((m) => m.content)).toEqual([...SEABIRD, ...PEBBLE]);
    embedder.release();
  });

  it("a failing embedder: the build recalls by words, degraded with its error; chat.recall fails with EMBEDDER_FAILED", async () => {
    const embedder = flakyEmbedder(1_000); // throws at once, every time
    let chat: Chat;
    ({ loom, chat } = await setup(engine, { recall: { embedder } }));
    await chat.append({ role: "user", content: "The boat is called Seabird." });
    await chat.append({ role: "assistant", content: "Seabird, a fine name." });
    await chat.append({ role: "user", content: "What about the boat?" });
    const ctx = await chat.buildContext({ recall: true, maxMessages: 1 });
    expect(ctx.recallDegraded).toMatchObject({ reason: "failed", lexicalOnly: true, pending: 3 });
    expect(ctx.recallDegraded!.error).toMatch(/^EMBEDDER_FAILED: .*service unavailable/);
    expect(ctx.recalled.map((m) => m.content)).toEqual(["The boat is called Seabird.", "Seabird, a fine name."]);
    await expectRejectCode(() => chat.recall("boat"), "EMBEDDER_FAILED");
    // Recall off or nothing to recall for: no degradation to report.
    expect((await chat.buildContext()).recallDegraded).toBeNull();
  });

  it("chat.recall waits recallTimeoutMs at most too, then fails with EMBEDDER_FAILED naming it", async () => {
    const embedder = heldEmbedder({ timeoutMs: BACKGROUND_MS, recallTimeoutMs: 150 });
    let chat: Chat;
    ({ loom, chat } = await setup(engine, { recall: { embedder } }));
    await talk(chat);
    const started = performance.now();
    const error = await chat.recall("Seabird").catch((e: Error) => e);
    expect(performance.now() - started).toBeLessThan(BACKGROUND_MS / 4);
    expect(error).toMatchObject({
      code: "EMBEDDER_FAILED",
      message: expect.stringContaining("did not answer within 150 ms (its recallTimeoutMs)"),
    });
    embedder.release();
  });
});
