// Issue 35, item 4: what an erasure leaves on the memory store. After user(id).erase(), none of
// the user's texts, titles or system prompts is on the V8 heap (a heap snapshot, which collects
// first, holds no copy), recall's indexes of them included; another user's stay. The texts are
// made at run time and kept by the test only as UTF-8 bytes, the needles searched for.
import { getHeapSnapshot } from "node:v8";
import { expect, it } from "vitest";
import { Loom, type Chat } from "../../src/index.js";
import { forEachEngine } from "../helpers.js";

/** A text no source file holds: letters drawn at run time, as UTF-8 bytes. */
function secretBytes(): Uint8Array {
  const letters = crypto.getRandomValues(new Uint8Array(40)).map((b) => 97 + (b % 26));
  return new TextEncoder().encode(`zq${String.fromCharCode(...letters)}qz`);
}

/** Which of the needles the heap (collected first) holds. */
async function onHeap(...needles: Uint8Array[]): Promise<boolean[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer);
  const heap = Buffer.concat(chunks);
  return needles.map((n) => heap.includes(Buffer.from(n)));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const model = { name: "heap-test", contextWindow: 8000, sizeClass: "small", tokensPerChar: 0.25 } as const;

forEachEngine((engine) => {
  it("after erase, the memory store holds none of the user's texts on the heap, recall's included; another user's stay", async () => {
    const [message, title, system, answer, kept] = [
      secretBytes(),
      secretBytes(),
      secretBytes(),
      secretBytes(),
      secretBytes(),
    ];
    const loom = await Loom.open({ engine, recall: true });
    const alice = loom.user("alice");
    let chat: Chat | undefined = await alice.create({ title: text(title), system: text(system), model });
    await chat.append({ role: "user", content: `my secret is ${text(message)} indeed` });
    await chat.append({ role: "assistant", content: `noted ${text(answer)}` });
    await chat.buildContext({ recall: true, input: "what is my secret?" }); // recall reads the chat: its indexes hold it
    const other = await alice.create({ model });
    await other.append({ role: "user", content: `and ${text(message)} again` });
    const bob = await loom.user("bob").create({ model });
    await bob.append({ role: "user", content: `bob's ${text(kept)}` });
    await loom.flush();
    expect(await onHeap(message, title, system, answer, kept)).toEqual([true, true, true, true, true]);
    chat = undefined; // (a Chat object still held keeps its record: title and system prompt)
    expect(await alice.erase()).toEqual({ chats: 2, messages: 3 });
    expect(await onHeap(message, title, system, answer, kept)).toEqual([false, false, false, false, true]);
    expect((await bob.path()).map((m) => m.content)).toEqual([`bob's ${text(kept)}`]);
    await loom.close();
  });
});
