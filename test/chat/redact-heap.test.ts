// What "gone" means on the memory store: after chat.redact, the text is no longer on the V8
// heap at all (a heap snapshot, which collects first, holds no copy of it). The text is made at
// run time and kept by the test only as UTF-8 bytes (not a string), the needle searched for.
import { getHeapSnapshot } from "node:v8";
import { expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";

/** A secret no source file holds: letters drawn at run time, as UTF-8 bytes. */
function secretBytes(): Uint8Array {
  const letters = crypto.getRandomValues(new Uint8Array(40)).map((b) => 97 + (b % 26));
  return new TextEncoder().encode(`zq${String.fromCharCode(...letters)}qz`);
}

/** Whether the heap (collected first) holds these bytes in a string. */
async function onHeap(needle: Uint8Array): Promise<boolean> {
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).includes(Buffer.from(needle));
}

forEachEngine((engine) => {
  it("after redact, the memory store's text is not on the heap any more", async () => {
    const needle = secretBytes();
    // A profile counted by its chars (no tokenizer cache holds words) and no recall (no index of terms).
    const loom = await Loom.open({ engine, recall: false });
    const chat = await loom
      .user("u")
      .create({ model: { name: "heap-test", contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25 } });
    await chat.append({ role: "user", content: `my secret is ${new TextDecoder().decode(needle)} indeed` });
    await chat.append({ role: "assistant", content: "noted" });
    expect(await onHeap(needle)).toBe(true); // held while the chat holds it
    await chat.redact(0);
    expect(await onHeap(needle)).toBe(false);
    expect(chat.get(0).content).toBe("[redacted]");
    await loom.close();
  });
});
