// What a delete leaves on the memory store (docs/chats.md, Chats in a product): after chats.delete, the
// chat's texts are no longer on the V8 heap (a heap snapshot, which collects first, holds no
// copy), as after chat.redact (test/chat/redact-heap.test.ts). The text is made at run time and
// kept by the test only as UTF-8 bytes, the needle searched for.
import { getHeapSnapshot } from "node:v8";
import { expect, it } from "vitest";
import { Loom, type Chat } from "../../src/index.js";
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
  it("after delete, the memory store's texts and title are not on the heap any more (once the Chat object is let go)", async () => {
    const [text, title] = [secretBytes(), secretBytes()];
    // A profile counted by its chars (no tokenizer cache holds words) and no recall (no index of terms).
    const loom = await Loom.open({ engine, recall: false });
    const chats = loom.user("u");
    let chat: Chat | undefined = await chats.create({
      title: new TextDecoder().decode(title),
      model: { name: "heap-test", contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25 },
    });
    await chat.append({ role: "user", content: `my secret is ${new TextDecoder().decode(text)} indeed` });
    await chat.append({ role: "assistant", content: "noted" });
    const other = await chats.create({ title: "stays" });
    await other.append({ role: "user", content: "still here" });
    expect([await onHeap(text), await onHeap(title)]).toEqual([true, true]); // held while the chat holds them
    const id = chat.id;
    chat = undefined; // (a deleted Chat object still held keeps its texts: docs/chats.md says so)
    await chats.delete(id);
    expect([await onHeap(text), await onHeap(title)]).toEqual([false, false]);
    expect((await chats.list()).map((c) => c.title)).toEqual(["stays"]);
    await loom.close();
  });

  it("a deleted chat's Chat object, still held, holds none of its messages' texts", async () => {
    const text = secretBytes();
    const loom = await Loom.open({ engine, recall: false });
    const chats = loom.user("u");
    const chat = await chats.create({
      model: { name: "heap-test", contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25 },
    });
    await chat.append({ role: "user", content: `my secret is ${new TextDecoder().decode(text)} indeed` });
    expect(await onHeap(text)).toBe(true);
    await chats.delete(chat.id);
    expect(await onHeap(text)).toBe(false);
    expect(chat.id).toBeTypeOf("string"); // (held until here)
    await loom.close();
  });
});
