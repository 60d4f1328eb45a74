// Recall left at its default embeds nothing until it first reads a chat; an embedder asked
// for embeds every append in the background.
import { afterEach, expect, it } from "vitest";
import { Loom, hashingEmbedder } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";

forEachEngine((engine) => {
  let loom: Loom | undefined;
  afterEach(async () => {
    await loom?.close();
    loom = undefined;
  });

  it("by default, appends embed nothing until recall reads the chat, then only that chat's", async () => {
    loom = await Loom.open({ engine });
    const chats = loom.user("u");
    const a = await chats.create();
    const b = await chats.create();
    for (const chat of [a, b]) {
      await chat.append({ role: "user", content: "My boat is called Seabird." });
      await chat.append({ role: "assistant", content: "Seabird, a fine name for a boat." });
    }
    await loom.flush();
    expect(loom.stats().recall).toMatchObject({ embedded: 0, pending: 0, indexed: 0 });

    const found = await a.recall("what is the boat called", { prompts: 1, answersPerPrompt: 0, recent: 0 });
    expect(found.map((r) => r.message.content)).toContain("My boat is called Seabird.");
    expect(loom.stats().recall).toMatchObject({ embedded: 2, indexed: 2 });

    // From now on chat a's appends are embedded in the background; b's still wait.
    await a.append({ role: "user", content: "And my dog is Rex." });
    await b.append({ role: "user", content: "And my cat is Tom." });
    await loom.flush();
    expect(loom.stats().recall).toMatchObject({ embedded: 3, pending: 0, indexed: 3 });
  });

  it("recall asked for (true, {} or { embedder }) embeds every append", async () => {
    for (const recall of [true, {}, { embedder: hashingEmbedder() }]) {
      loom = await Loom.open({ engine, recall });
      const chat = await loom.user("u").create();
      await chat.append({ role: "user", content: "My boat is called Seabird." });
      await chat.append({ role: "assistant", content: "Seabird, a fine name for a boat." });
      await loom.flush();
      expect(loom.stats().recall).toMatchObject({ embedded: 2, pending: 0 });
      await loom.close();
      loom = undefined;
    }
  });
});
